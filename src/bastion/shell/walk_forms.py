"""The walker's compound forms: loops, tests, arithmetic, assignments and declarations."""

from __future__ import annotations

import re
from dataclasses import replace

from tree_sitter import Node

from bastion.shell.arith import SUBST, arith_names
from bastion.shell.envvars import harmless_var
from bastion.shell.parser import where
from bastion.shell.subscripts import plain_name, tested_names
from bastion.shell.variables import INT, arith_assigned, only_expanded
from bastion.shell.walk_model import (
    FORK_LOOP,
    Item,
    RawCommand,
    Redirect,
    Walk,
    node_text,
    walk_arith,
    walk_word,
)
from bastion.shell.words import Binding, Word

DECL_KEYWORDS = frozenset({"declare", "typeset", "export", "local", "readonly"})
_ARITH_TESTS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
_MAX_BINDINGS = 8  # a longer literal loop list leaves its variable unknown


#: Loop conditions that never end, per loop keyword.
ENDLESS = {
    "while": re.compile(r"(:|true|/bin/true|\[ 1 \]|\(\(1\)\)|test 1|sleep [0-9.]+[smhd]?)"),
    "until": re.compile(r"(false|/bin/false|! :|! true)"),
}


def fork_loop(out: list[Item], start: int) -> None:
    """An endless loop whose body starts background processes is a fork bomb."""
    for j in range(start, len(out)):
        item = out[j]
        if isinstance(item, RawCommand) and item.background:
            out[j] = replace(item, context=(*item.context, FORK_LOOP))


def assigned_by_form(w: Walk, names: list[str], text: str, ctx: tuple[str, ...], out: list[Item]) -> None:
    """Names a form assigns without ``NAME=`` syntax (``for NAME in``, ``select NAME``,
    ``((NAME=1))``, ``let NAME=1``): judged as standalone assignments of a run-time value,
    so ``for PATH in 1; do ls; done`` is the program injection ``PATH=1; ls`` is, and
    ``for f in *`` stays plain data."""
    special = [n for n in dict.fromkeys(names) if n and not harmless_var(n, _RUN_TIME, standalone=True)]
    if special:
        assigns = tuple((n, Word(n, None, "\x00")) for n in special)
        out.append(RawCommand(text, (), assigns, (), ctx, kind="assign", scope=w.scope))


_RUN_TIME = Word("", None, "\x00")


def arith_statement(
    w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item], redirs: tuple[Redirect, ...]
) -> None:
    """`((…))`: runs its substitutions, assigns integers, evaluates the names it reads."""
    walk_arith(w, node, ctx, out)
    assigned_by_form(w, arith_assigned(w.vars, node), node_text(node), ctx, out)
    w.vars.saw_arith()
    out.append(
        RawCommand(
            node_text(node), (), (), redirs, ctx, kind="arith", scope=w.scope, arith=tuple(arith_names(node))
        )
    )


def test_command(
    w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item], redirs: tuple[Redirect, ...]
) -> None:
    walk_arith(w, node, ctx, out)  # only substitutions inside a test run anything
    first = node.children[0].type if node.children else "["
    head = Word(first, first, first)
    names: list[str] = []
    if first == "[[":  # `[[ x -eq y ]]` evaluates both sides as arithmetic (`[` does not)
        stack = list(node.named_children)
        while stack:
            cur = stack.pop()
            stack.extend(cur.named_children)
            op = cur.child_by_field_name("operator")
            if cur.type == "binary_expression" and op is not None and node_text(op) in _ARITH_TESTS:
                for side in (cur.child_by_field_name("left"), cur.child_by_field_name("right")):
                    if side is not None:
                        names.extend(arith_names(side))
    names.extend(SUBST for operand in tested_names(node) if not plain_name(operand))
    if names:
        w.vars.saw_arith()
    out.append(
        RawCommand(node_text(node), (head,), (), redirs, ctx, kind="test", scope=w.scope, arith=tuple(names))
    )


def for_loop(
    w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item], redirs: tuple[Redirect, ...]
) -> None:
    """`for v in WORDS; do BODY; done`. Over a short literal list (globs included) whose
    body never reassigns v, the body is walked once per word with v bound to it, so
    `"$v"` is that word (a glob: each of its matches); otherwise v is a run-time value."""
    var = node.child_by_field_name("variable")
    name = node_text(var) if var is not None else ""
    values: list[Word] = []
    body: list[Node] = []
    for i, child in enumerate(node.children):
        if child.type == "variable_name" or not child.is_named:
            continue
        if node.field_name_for_child(i) == "value":
            values.append(walk_word(w, child, ctx, out))
        elif child.type in ("do_group", "compound_statement"):
            body.append(child)
    literal = bool(values) and len(values) <= _MAX_BINDINGS and all(v.literal for v in values)
    w.vars.assign(name, literal and all(INT.fullmatch(v.value or "") for v in values))
    assigned_by_form(w, [name], node_text(node), ctx, out)
    if not literal or name in w.bindings or not all(only_expanded(node_text(b), name) for b in body):
        for child in body:
            w.stmt(w, child, ctx, out, redirs)
        return
    for value in values:
        w.bindings[name] = Binding(value.value or "", value.glob)
        try:
            for child in body:
                w.stmt(w, child, ctx, out, redirs)
        finally:
            del w.bindings[name]


def assignments(w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item]) -> list[tuple[str, Word]]:
    nodes = [node] if node.type == "variable_assignment" else list(node.named_children)
    result: list[tuple[str, Word]] = []
    for a in nodes:
        if a.type != "variable_assignment":
            w.errors.append(f"unsupported assignment {a.type!r} at {where(a)}")
            continue
        name_node = a.child_by_field_name("name")
        value_node = a.child_by_field_name("value")
        name = node_text(name_node) if name_node is not None else ""
        if name_node is not None and name_node.type == "subscript":
            walk_arith(w, name_node, ctx, out)  # a[$(cmd)]=1 runs cmd
            name = node_text(name_node.child_by_field_name("name") or name_node)
        if value_node is None:
            result.append((name, Word("", "", "")))
            w.vars.assign(name, False)
        elif value_node.type == "array":
            for elem in value_node.named_children:
                walk_word(w, elem, ctx, out)
            result.append((name, Word(node_text(value_node), None, "\x00")))
            w.vars.assign(name, False)
        else:
            word = walk_word(w, value_node, ctx, out)
            result.append((name, word))
            w.vars.assign(name, word.value is not None and bool(INT.fullmatch(word.value)))
    return result


def declaration(
    w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item], redirs: tuple[Redirect, ...]
) -> None:
    keyword = node.children[0].type if node.children else ""
    words: list[Word] = []
    assigns: list[tuple[str, Word]] = []
    for child in node.named_children:
        if child.type == "variable_assignment":
            assigns.extend(assignments(w, child, ctx, out))
        elif child.type == "variable_name":
            assigns.append((node_text(child), Word("", None, "\x00")))  # export X: keeps its value
            w.vars.assign(node_text(child), False)
        else:
            words.append(walk_word(w, child, ctx, out))
    if keyword not in DECL_KEYWORDS:
        w.errors.append(f"unsupported declaration {keyword!r} at {where(node)}")
    head = Word(keyword, keyword, keyword)
    out.append(
        RawCommand(
            node_text(node), (head, *words), tuple(assigns), redirs, ctx, kind="declare", scope=w.scope
        )
    )
