"""Walk a tree-sitter-bash tree into raw simple commands, in execution order.

Only node kinds listed here are understood; anything else becomes an error (undecidable).
Substitutions are walked where they occur (before the command that contains them), redirections
of a compound statement are given to every command inside it, and function definitions are
kept so a later call can be classified as its body.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from itertools import count

from tree_sitter import Node

from bastion.shell.parser import where
from bastion.shell.variables import INT, Variables, arith_assigned, only_expanded, run_time_assigns
from bastion.shell.words import Binding, Word, arith_names, decode

_SKIP = frozenset({"comment", "heredoc_start", "heredoc_end", "file_descriptor"})
_CONTAINERS = frozenset(
    {"program", "list", "compound_statement", "subshell", "do_group", "else_clause",
     "elif_clause", "if_statement", "while_statement", "case_item", "negated_command"}
)  # fmt: skip
_ASSIGN_KINDS = frozenset({"variable_assignment", "variable_assignments"})
_DECL_KEYWORDS = frozenset({"declare", "typeset", "export", "local", "readonly"})


@dataclass(frozen=True, slots=True)
class Redirect:
    op: str
    fd: str | None
    target: Word | None  # file target (None for heredoc / here-string)
    text: str
    body: str | None = None  # heredoc / here-string data (decoded when literal)
    body_literal: bool = True  # False when the data expands variables at run time
    evaluates: bool = False  # the target or data evaluates a run-time value ($((x)), ${!x})


@dataclass(frozen=True, slots=True)
class RawCommand:
    text: str
    words: tuple[Word, ...]
    assigns: tuple[tuple[str, Word], ...] = ()
    redirects: tuple[Redirect, ...] = ()
    context: tuple[str, ...] = ()  # e.g. "in $(…)", "in function f"
    kind: str = "command"  # command | test | declare | assign | redirect | unset | arith
    in_pipeline: bool = False
    background: bool = False
    arith: tuple[str, ...] = ()  # names evaluated as arithmetic (`((x))`, `[[ x -eq 1 ]]`, let)
    # The chain of child shells it runs in (subshells, pipeline stages, substitutions, sh -c):
    # a cd changes the directory of later commands of its own scope and of scopes inside it.
    scope: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class FunctionDef:
    name: str
    body: tuple[Item, ...]
    text: str


Item = RawCommand | FunctionDef


_ARITH_TESTS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
_MAX_BINDINGS = 8  # a longer literal loop list leaves its variable unknown


@dataclass(slots=True)
class Walk:
    src: bytes
    items: list[Item] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    depth: int = 0
    bindings: dict[str, Binding] = field(default_factory=dict)  # for-loop variables
    vars: Variables = field(default_factory=Variables)  # what arithmetic may trust
    scope: tuple[int, ...] = ()
    ids: Iterator[int] = field(default_factory=lambda: count(1))

    def child(self) -> tuple[int, ...]:
        """Enter a child shell; returns the scope to restore."""
        saved = self.scope
        self.scope = (*saved, next(self.ids))
        return saved



def walk(
    root: Node, src: bytes, scope: tuple[int, ...] = (), ids: Iterator[int] | None = None
) -> Walk:
    """``scope``/``ids``: the scope this source runs in and the id source of the analysis."""
    w = Walk(src, scope=scope, ids=ids or count(1))
    _stmt(w, root, (), w.items, ())
    return w


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def _word(w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item]) -> Word:
    word, subs, errors = decode(node, w.src, w.bindings)
    w.errors.extend(errors)
    w.vars.arith_seen = w.vars.arith_seen or bool(word.arith)
    for sub in subs:
        label = "in <(…)" if sub.type == "process_substitution" else "in $(…)"
        if _text(sub).startswith(">("):
            label = "in >(…)"
        saved = w.child()
        for child in sub.named_children:
            _stmt(w, child, (*ctx, label), out, ())
        w.scope = saved
    return word


def _stmt(
    w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item], redirs: tuple[Redirect, ...]
) -> None:
    kind = node.type
    if not node.is_named or kind in _SKIP:
        return
    w.depth += 1
    try:
        if w.depth > 200:
            w.errors.append(f"nesting too deep at {where(node)}")
            return
        _dispatch(w, node, kind, ctx, out, redirs)
    finally:
        w.depth -= 1


def _dispatch(
    w: Walk,
    node: Node,
    kind: str,
    ctx: tuple[str, ...],
    out: list[Item],
    redirs: tuple[Redirect, ...],
) -> None:
    if kind == "ERROR" or node.is_missing:
        return  # reported once from the root
    if kind == "while_statement":
        start = len(out)
        _children(w, node, ctx, out, redirs)
        cond = node.child_by_field_name("condition")
        keyword = node.children[0].type
        if cond is not None and _ENDLESS[keyword].fullmatch(_text(cond).strip()) is not None:
            _fork_loop(out, start)
    elif kind == "compound_statement" and node.children and node.children[0].type == "((":
        _arith_statement(w, node, ctx, out, redirs)
    elif kind in _CONTAINERS or kind == "pipeline":
        _children(w, node, ctx, out, redirs, pipeline=kind == "pipeline")
    elif kind == "command":
        _command(w, node, ctx, out, redirs)
    elif kind == "redirected_statement":
        _redirected(w, node, ctx, out, redirs)
    elif kind in _ASSIGN_KINDS:
        assigns = _assigns(w, node, ctx, out)
        out.append(RawCommand(_text(node), (), tuple(assigns), redirs, ctx, kind="assign",
                              scope=w.scope))
    elif kind == "declaration_command":
        _declaration(w, node, ctx, out, redirs)
    elif kind == "unset_command":
        out.append(RawCommand(_text(node), (), (), redirs, ctx, kind="unset", scope=w.scope))
    elif kind == "test_command":
        _test(w, node, ctx, out, redirs)
    elif kind == "for_statement":
        _for(w, node, ctx, out, redirs)
    elif kind == "case_statement":
        for child in node.children:
            if child.type == "variable_name" or not child.is_named:
                continue
            if child.type in ("do_group", "case_item"):
                _stmt(w, child, ctx, out, redirs)
            else:
                _word(w, child, ctx, out)  # the list / the case value: words
    elif kind == "c_style_for_statement":
        header = [c for c in node.named_children if c.type not in ("do_group",
                                                                   "compound_statement")]
        for child in header:
            _arith(w, child, ctx, out)
            arith_assigned(w.vars, child)
        names = [n for child in header for n in arith_names(child)]
        w.vars.arith_seen = True
        out.append(RawCommand("for ((…))", (), (), redirs, ctx, kind="arith", scope=w.scope,
                              arith=tuple(names)))
        start = len(out)
        for child in node.named_children:
            if child not in header:
                _stmt(w, child, ctx, out, redirs)
        if node.child_by_field_name("condition") is None:  # for ((;;)): endless
            _fork_loop(out, start)
    elif kind == "function_definition":
        _function(w, node, ctx, out)
    elif kind == "file_redirect":  # `$(<file)`: bash reads the file, nothing runs
        r = _redirect(w, node, ctx, out)
        if r is not None:
            out.append(RawCommand(_text(node), (), (), (*redirs, r), ctx, kind="redirect",
                                  scope=w.scope))
    elif kind in ("arithmetic_expansion", "binary_expression", "unary_expression",
                  "postfix_expression", "parenthesized_expression", "ternary_expression"):  # fmt: skip
        _arith_statement(w, node, ctx, out, redirs)
    elif kind in ("word", "extglob_pattern", "string", "raw_string", "concatenation"):
        _word(w, node, ctx, out)  # case patterns
    else:
        w.errors.append(f"unsupported shell construct {kind!r} at {where(node)}")


def _children(
    w: Walk,
    node: Node,
    ctx: tuple[str, ...],
    out: list[Item],
    redirs: tuple[Redirect, ...],
    pipeline: bool = False,
) -> None:
    kids = _flatten(node) if node.type == "list" else node.children
    forks = node.type == "subshell"  # one child shell for the whole ( … )
    saved = w.child() if forks else w.scope
    for i, child in enumerate(kids):
        if child.type in (";;", ";&", ";;&") and node.type != "case_item":
            w.errors.append(f"unexpected {child.type!r} at {where(child)}")
        start = len(out)
        background = i + 1 < len(kids) and kids[i + 1].type == "&"
        inner = w.child() if (pipeline or background) and child.is_named else None
        _stmt(w, child, ctx, out, redirs)
        if inner is not None:  # a pipeline stage or a background job: its own child shell
            w.scope = inner
        if pipeline or background:
            for j in range(start, len(out)):
                item = out[j]
                if isinstance(item, RawCommand):
                    out[j] = replace(
                        item,
                        in_pipeline=item.in_pipeline or pipeline,
                        background=item.background or background,
                    )
    w.scope = saved


def _flatten(node: Node) -> list[Node]:
    """`a && b && c …` nests lists to the left; flatten without recursion (long chains)."""
    out: list[Node] = []
    stack = [node]
    while stack:
        cur = stack.pop()
        if cur.type == "list":
            stack.extend(reversed(cur.children))
        else:
            out.append(cur)
    return out


def _arith(w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item]) -> None:
    stack = [node]
    while stack:
        cur = stack.pop()
        if cur.type in ("command_substitution", "process_substitution"):
            saved = w.child()
            for child in cur.named_children:
                _stmt(w, child, (*ctx, "in $(…)"), out, ())
            w.scope = saved
        else:
            stack.extend(cur.named_children)


#: Loop conditions that never end, per loop keyword.
_ENDLESS = {
    "while": re.compile(r"(:|true|/bin/true|\[ 1 \]|\(\(1\)\)|test 1|sleep [0-9.]+[smhd]?)"),
    "until": re.compile(r"(false|/bin/false|! :|! true)"),
}
#: Context marking a command started in the background on every turn of an endless loop.
FORK_LOOP = "started in the background by an endless loop"


def _fork_loop(out: list[Item], start: int) -> None:
    """An endless loop whose body starts background processes is a fork bomb."""
    for j in range(start, len(out)):
        item = out[j]
        if isinstance(item, RawCommand) and item.background:
            out[j] = replace(item, context=(*item.context, FORK_LOOP))


def _arith_statement(
    w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item], redirs: tuple[Redirect, ...]
) -> None:
    """`((…))`: runs its substitutions, assigns integers, evaluates the names it reads."""
    _arith(w, node, ctx, out)
    arith_assigned(w.vars, node)
    w.vars.arith_seen = True
    out.append(RawCommand(_text(node), (), (), redirs, ctx, kind="arith", scope=w.scope,
                          arith=tuple(arith_names(node))))


def _test(
    w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item], redirs: tuple[Redirect, ...]
) -> None:
    _arith(w, node, ctx, out)  # only substitutions inside a test run anything
    first = node.children[0].type if node.children else "["
    head = Word(first, first, first)
    names: list[str] = []
    if first == "[[":  # `[[ x -eq y ]]` evaluates both sides as arithmetic (`[` does not)
        stack = list(node.named_children)
        while stack:
            cur = stack.pop()
            stack.extend(cur.named_children)
            op = cur.child_by_field_name("operator")
            if cur.type == "binary_expression" and op is not None and _text(op) in _ARITH_TESTS:
                for side in (cur.child_by_field_name("left"), cur.child_by_field_name("right")):
                    if side is not None:
                        names.extend(arith_names(side))
        w.vars.arith_seen = w.vars.arith_seen or bool(names)
    out.append(RawCommand(_text(node), (head,), (), redirs, ctx, kind="test", scope=w.scope,
                          arith=tuple(names)))


def _for(
    w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item], redirs: tuple[Redirect, ...]
) -> None:
    """`for v in WORDS; do BODY; done`. Over a short literal list (globs included) whose
    body never reassigns v, the body is walked once per word with v bound to it, so
    `"$v"` is that word (a glob: each of its matches); otherwise v is a run-time value."""
    var = node.child_by_field_name("variable")
    name = _text(var) if var is not None else ""
    values: list[Word] = []
    body: list[Node] = []
    for i, child in enumerate(node.children):
        if child.type == "variable_name" or not child.is_named:
            continue
        if node.field_name_for_child(i) == "value":
            values.append(_word(w, child, ctx, out))
        elif child.type in ("do_group", "compound_statement"):
            body.append(child)
    literal = bool(values) and len(values) <= _MAX_BINDINGS and all(v.literal for v in values)
    w.vars.assign(name, literal and all(INT.fullmatch(v.value or "") for v in values))
    if not literal or name in w.bindings or not all(only_expanded(_text(b), name) for b in body):
        for child in body:
            _stmt(w, child, ctx, out, redirs)
        return
    for value in values:
        w.bindings[name] = Binding(value.value or "", value.glob)
        try:
            for child in body:
                _stmt(w, child, ctx, out, redirs)
        finally:
            del w.bindings[name]


def _assigns(w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item]) -> list[tuple[str, Word]]:
    nodes = [node] if node.type == "variable_assignment" else list(node.named_children)
    result: list[tuple[str, Word]] = []
    for a in nodes:
        if a.type != "variable_assignment":
            w.errors.append(f"unsupported assignment {a.type!r} at {where(a)}")
            continue
        name_node = a.child_by_field_name("name")
        value_node = a.child_by_field_name("value")
        name = _text(name_node) if name_node is not None else ""
        if name_node is not None and name_node.type == "subscript":
            _arith(w, name_node, ctx, out)  # a[$(cmd)]=1 runs cmd
            name = _text(name_node.child_by_field_name("name") or name_node)
        if value_node is None:
            result.append((name, Word("", "", "")))
            w.vars.assign(name, False)
        elif value_node.type == "array":
            for elem in value_node.named_children:
                _word(w, elem, ctx, out)
            result.append((name, Word(_text(value_node), None, "\x00")))
            w.vars.assign(name, False)
        else:
            word = _word(w, value_node, ctx, out)
            result.append((name, word))
            w.vars.assign(name, word.value is not None and bool(INT.fullmatch(word.value)))
    return result


def _declaration(
    w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item], redirs: tuple[Redirect, ...]
) -> None:
    keyword = node.children[0].type if node.children else ""
    words: list[Word] = []
    assigns: list[tuple[str, Word]] = []
    for child in node.named_children:
        if child.type == "variable_assignment":
            assigns.extend(_assigns(w, child, ctx, out))
        elif child.type == "variable_name":
            assigns.append((_text(child), Word("", None, "\x00")))  # export X: keeps its value
            w.vars.assign(_text(child), False)
        else:
            words.append(_word(w, child, ctx, out))
    if keyword not in _DECL_KEYWORDS:
        w.errors.append(f"unsupported declaration {keyword!r} at {where(node)}")
    head = Word(keyword, keyword, keyword)
    out.append(
        RawCommand(_text(node), (head, *words), tuple(assigns), redirs, ctx, kind="declare",
                   scope=w.scope)
    )


_FD_OPS = re.compile(r"^[<>&|]+$")


def _redirect(w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item]) -> Redirect | None:
    fd_node = node.child_by_field_name("descriptor")
    fd = _text(fd_node) if fd_node is not None else None
    op = next((_text(c) for c in node.children if not c.is_named and _FD_OPS.match(_text(c))), "")
    if node.type == "file_redirect":
        dest = node.child_by_field_name("destination")
        target = _word(w, dest, ctx, out) if dest is not None else None
        return Redirect(op, fd, target, _text(node))
    if node.type == "herestring_redirect":
        parts = [c for c in node.named_children if c.type != "file_descriptor"]
        if not parts:
            w.errors.append(f"empty here-string at {where(node)}")
            return None
        word = _word(w, parts[0], ctx, out)
        return Redirect("<<<", fd, None, _text(node), word.value, word.literal)
    w.errors.append(f"unsupported redirection {node.type!r} at {where(node)}")
    return None


def _heredoc(
    w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item], extra_words: list[Word]
) -> tuple[Redirect, list[Redirect], list[Node]]:
    """Return the heredoc, the redirects nested in it, and statements that follow it."""
    start = node.child_by_field_name("heredoc_start") or next(
        (c for c in node.children if c.type == "heredoc_start"), None
    )
    quoted = start is not None and any(q in _text(start) for q in "'\"\\")
    body_node = next((c for c in node.children if c.type == "heredoc_body"), None)
    body = _text(body_node) if body_node is not None else ""
    nested: list[Redirect] = []
    after: list[Node] = []
    for i, child in enumerate(node.children):
        if child.type in ("file_redirect", "herestring_redirect"):
            r = _redirect(w, child, ctx, out)
            if r is not None:
                nested.append(r)
        elif node.field_name_for_child(i) == "argument":
            extra_words.append(_word(w, child, ctx, out))
        elif child.type in ("pipeline", "list", "command", "redirected_statement"):
            after.append(child)
    literal = True
    if not quoted and body_node is not None:
        literal = not any(ch in body for ch in "$`")
        if literal is False:
            _heredoc_substitutions(w, body_node, body, ctx, out)
    op = "<<-" if any(c.type == "<<-" for c in node.children) else "<<"
    evaluates = not literal and _EVAL_IN_BODY.search(body) is not None
    return Redirect(op, None, None, _text(node), body, literal, evaluates), nested, after


#: In an unquoted heredoc: arithmetic, indirection, prompt expansion, subscripts, offsets.
_EVAL_IN_BODY = re.compile(r"\$\(\(|\$\[|\$\{[^}]*[\[:!@]")


def _heredoc_substitutions(
    w: Walk, body_node: Node, body: str, ctx: tuple[str, ...], out: list[Item]
) -> None:
    subs = [c for c in body_node.named_children if c.type == "command_substitution"]
    for sub in subs:
        saved = w.child()
        for child in sub.named_children:
            _stmt(w, child, (*ctx, "in heredoc $(…)"), out, ())
        w.scope = saved
    runs_code = "`" in body or "$(" in body or "@P" in body
    if runs_code and len(subs) < body.count("$(") + body.count("`") // 2:
        # tree-sitter misses expansions at the start of indented heredoc lines
        w.errors.append(
            f"unquoted heredoc body has a command substitution the parser did not see "
            f"at {where(body_node)}"
        )


def _redirected(
    w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item], redirs: tuple[Redirect, ...]
) -> None:
    body = node.child_by_field_name("body")
    mine: list[Redirect] = []
    extra_words: list[Word] = []
    after: list[Node] = []
    for i, child in enumerate(node.children):
        if node.field_name_for_child(i) != "redirect":
            continue
        if child.type == "heredoc_redirect":
            doc, nested, follow = _heredoc(w, child, ctx, out, extra_words)
            mine.extend([doc, *nested])
            after.extend(follow)
        else:
            r = _redirect(w, child, ctx, out)
            if r is not None:
                mine.append(r)
    all_redirs = (*redirs, *mine)
    first_redirect = next((c for c in node.children if c.type.endswith("redirect")), None)
    if body is not None and body.named_children and first_redirect is not None:
        last = body.named_children[-1]
        if last.type == "number" and last.end_byte == first_redirect.start_byte:
            w.errors.append(f"ambiguous file-descriptor redirection at {where(first_redirect)}")
    start = len(out)
    if body is None:
        out.append(RawCommand(_text(node), (), (), all_redirs, ctx, kind="redirect",
                              scope=w.scope))
    elif body.type == "command":
        _command(w, body, ctx, out, all_redirs, tuple(extra_words))
    else:
        if extra_words:
            w.errors.append(f"heredoc arguments on a compound statement at {where(node)}")
        _stmt(w, body, ctx, out, all_redirs)
    if after:
        for j in range(start, len(out)):
            item = out[j]
            if isinstance(item, RawCommand):
                out[j] = replace(item, in_pipeline=True)
        for follow_node in after:
            _stmt(w, follow_node, ctx, out, redirs)


def _command(
    w: Walk,
    node: Node,
    ctx: tuple[str, ...],
    out: list[Item],
    redirs: tuple[Redirect, ...],
    extra_words: tuple[Word, ...] = (),
) -> None:
    words: list[Word] = []
    assigns: list[tuple[str, Word]] = []
    mine: list[Redirect] = []
    prev_end = -1
    prev_kind = ""
    for child in node.named_children:
        kind = child.type
        if kind == "variable_assignment":
            assigns.extend(_assigns(w, child, ctx, out))
        elif kind == "command_name":
            inner = child.named_children
            words.append(_word(w, inner[0] if inner else child, ctx, out))
        elif kind in ("file_redirect", "herestring_redirect"):
            if prev_end == child.start_byte and prev_kind == "number":
                w.errors.append(f"ambiguous file-descriptor redirection at {where(child)}")
            r = _redirect(w, child, ctx, out)
            if r is not None:
                mine.append(r)
        elif kind == "comment":
            continue
        else:
            words.append(_word(w, child, ctx, out))
        prev_end, prev_kind = child.end_byte, kind
    _check_adjacent(w, node, w.src)
    all_words = (*words, *extra_words)
    out.append(
        RawCommand(
            _text(node), all_words, tuple(assigns), (*redirs, *mine), ctx,
            arith=run_time_assigns(w.vars, all_words), scope=w.scope,
        )
    )


def _check_adjacent(w: Walk, node: Node, src: bytes) -> None:
    """Two argument nodes with nothing (or only a line continuation) between them are one
    word to bash but two to tree-sitter: a parser differential, so undecidable."""
    prev: Node | None = None
    for child in node.named_children:
        if child.type in ("file_redirect", "herestring_redirect", "variable_assignment"):
            prev = None
            continue
        if prev is not None and _CONTINUATION.fullmatch(src[prev.end_byte : child.start_byte]):
            w.errors.append(f"ambiguous word boundary at {where(child)}")
            return
        prev = child


_CONTINUATION = re.compile(rb"(\\\r?\n)*")


def _function(w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item]) -> None:
    name_node = node.child_by_field_name("name")
    name = _text(name_node) if name_node is not None else ""
    body: list[Item] = []
    redirs: list[Redirect] = []
    for i, child in enumerate(node.children):
        if node.field_name_for_child(i) == "redirect":
            r = _redirect(w, child, ctx, out)
            if r is not None:
                redirs.append(r)
    body_node = node.child_by_field_name("body")
    if body_node is not None:
        _stmt(w, body_node, (*ctx, f"in function {name}"), body, tuple(redirs))
    out.append(FunctionDef(name, tuple(body), _text(node)))
