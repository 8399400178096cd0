"""What arithmetic may trust: variables a source only ever sets to integer literals.

Bash evaluates a variable's value as arithmetic (recursively, subscripts included), so
`x='a[$(cmd)]'; echo $((x))` runs cmd. A name is safe in arithmetic only when this source sets
it to integers alone (literals, arithmetic, let) and nothing here may set it otherwise: no
builtin that assigns it at run time (read, printf -v…) and no code run in this shell (eval,
source, trap). Anything else, the environment included, is a run-time value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node

from bastion.shell.arith import SUBST
from bastion.shell.words import Word

#: Variables that always hold an integer unless the command assigns them.
_INTEGER_SPECIALS = frozenset(
    {
        "#",
        "?",
        "$",
        "!",
        "RANDOM",
        "SECONDS",
        "LINENO",
        "BASHPID",
        "PPID",
        "UID",
        "EUID",
        "EPOCHSECONDS",
        "SRANDOM",
        "OPTIND",
    }
)
#: Builtins that assign the variables named in their arguments at run time.
_ASSIGNERS = frozenset(
    {
        "read",
        "mapfile",
        "readarray",
        "printf",
        "getopts",
        "declare",
        "typeset",
        "local",
        "export",
        "readonly",
        "select",
        "wait",
    }
)
#: Builtins that run code in this shell: any variable may then hold anything.
_EVALUATORS = frozenset({"eval", "source", ".", "trap", "alias", "compgen", "complete"})
_WATCHED = _ASSIGNERS | _EVALUATORS | {"let"}
INT = re.compile(r"-?[0-9]+")
_ARITH_ASSIGN = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|=", "++", "--"})
_LET_TARGET = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)")
_NAME_USE = re.compile(r"(\$\{|\$)?([A-Za-z_][A-Za-z0-9_]*)(\})?")


@dataclass(slots=True)
class Variables:
    assigned: dict[str, bool] = field(default_factory=dict)  # name -> only integers so far
    evaluates: bool = False  # eval/source/trap…: variables may hold anything
    arith_seen: bool = False  # some word or statement evaluates arithmetic
    touched: int = 0  # how many times any of the above was set (the walk memo's check)

    def assign(self, name: str, integer: bool) -> None:
        self.touched += 1
        self.assigned[name] = self.assigned.get(name, True) and integer

    def saw_arith(self) -> None:
        self.touched += 1
        self.arith_seen = True

    def saw_eval(self) -> None:
        self.touched += 1
        self.evaluates = True

    @property
    def integers(self) -> frozenset[str]:
        """Variables safe in arithmetic (empty when nothing evaluates arithmetic)."""
        if self.evaluates or not self.arith_seen:
            return frozenset()
        known = {n for n, ok in self.assigned.items() if ok}
        return frozenset(known | {n for n in _INTEGER_SPECIALS if n not in self.assigned})


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def arith_assigned(v: Variables, node: Node) -> list[str]:
    """Names an arithmetic expression assigns (they hold integers afterwards), in order."""
    found: list[str] = []
    stack = [node]
    while stack:
        cur = stack.pop()
        stack.extend(cur.named_children)
        if cur.type == "variable_assignment":
            name = cur.child_by_field_name("name")
            if name is not None:
                found.append(_text(name))
            continue
        ops = {_text(c) for c in cur.children if not c.is_named}
        if cur.type in ("binary_expression", "postfix_expression", "unary_expression") and (
            ops & _ARITH_ASSIGN
        ):
            target = cur.named_children[0] if cur.named_children else None
            if target is not None and target.type in ("variable_name", "word"):
                found.append(_text(target))
    for assigned in found:
        v.assign(assigned, True)
    return found


def let_targets(words: tuple[Word, ...]) -> list[str]:
    """The names ``let EXPR…`` assigns (``let X=1``, ``let "X+=2"``)."""
    if not words or words[0].value != "let":
        return []
    return [m.group(1) for w in words[1:] if w.value and (m := _LET_TARGET.match(w.value))]


def only_expanded(body: str, name: str) -> bool:
    """The body mentions ``name`` only as `$name` / `${name}` (never assigns it: no
    `name=`, `read name`, `${name:=x}`, `((name++))`)."""
    for m in _NAME_USE.finditer(body):
        if m.group(2) != name:
            continue
        if m.group(1) == "$" or (m.group(1) == "${" and m.group(3)):
            continue
        return False
    return True


def run_time_assigns(state: Variables, words: tuple[Word, ...]) -> tuple[str, ...]:
    """Note code run in this shell (eval, source…) and variables a builtin assigns at run
    time (`read x`, `printf -v x`: every name in its words, conservatively); return the
    names `let` evaluates as arithmetic."""
    values = [v.value for v in words]
    if _WATCHED.isdisjoint(values):
        return ()  # the common case: no builtin that evaluates or assigns
    if not _EVALUATORS.isdisjoint(values):
        state.saw_eval()
    if values[:1] == ["let"]:
        state.saw_arith()
        names: list[str] = []
        for v in values[1:]:
            if v is None:
                names.append(SUBST)
                continue
            names.extend(m[1] for m in _NAME_USE.findall(v))
            target = _LET_TARGET.match(v)
            if target:
                state.assign(target.group(1), True)  # let stores integers
        return tuple(names)
    if not _ASSIGNERS.isdisjoint(values):
        for v in values:
            for m in _NAME_USE.findall((v or "").removeprefix("-v")):
                state.assign(m[1], False)
    return ()
