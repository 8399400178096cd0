"""Walk a tree-sitter-bash tree into raw simple commands, in execution order.

Only node kinds listed here are understood; anything else becomes an error (undecidable).
Substitutions are walked where they occur (before the command that contains them), redirections
of a compound statement are given to every command inside it, and function definitions are
kept so a later call can be classified as its body.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from functools import partial

from tree_sitter import Node

from bastion.shell.arith import SUBST, arith_names
from bastion.shell.feeds import fed_entries, fed_folder, fed_script, fed_words
from bastion.shell.parser import where
from bastion.shell.subscripts import literal, plain_name
from bastion.shell.variables import arith_assigned, let_targets, run_time_assigns
from bastion.shell.walk_forms import (
    ENDLESS,
    arith_statement,
    assigned_by_form,
    assignments,
    declaration,
    for_loop,
    fork_loop,
    test_command,
)
from bastion.shell.walk_memo import StatementMemo
from bastion.shell.walk_model import (
    FunctionDef,
    Ids,
    Item,
    RawCommand,
    Redirect,
    Walk,
    marked,
    new_raw,
    node_text,
    walk_arith,
    walk_word,
)
from bastion.shell.walk_redirects import heredoc, redirect
from bastion.shell.words import PLAIN, Word, literal_word, new_word

_SKIP = frozenset({"comment", "heredoc_start", "heredoc_end", "file_descriptor"})
_CONTAINERS = frozenset(
    {"program", "list", "compound_statement", "subshell", "do_group", "else_clause",
     "elif_clause", "if_statement", "while_statement", "case_item", "negated_command"}
)  # fmt: skip
_ASSIGN_KINDS = frozenset({"variable_assignment", "variable_assignments"})
DECL_KEYWORDS = frozenset({"declare", "typeset", "export", "local", "readonly"})


def walk(
    root: Node, src: bytes, scope: tuple[int, ...] = (), ids: Iterator[int] | None = None, memo: bool = True
) -> Walk:
    """``scope``/``ids``: the scope this source runs in and the id source of the analysis;
    ``memo``: walk identical statements of a list once (``walk_memo``)."""
    w = Walk(src, _stmt, scope, ids or Ids(), memo)
    _stmt(w, root, (), w.items, ())
    return w


def _stmt(w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item], redirs: tuple[Redirect, ...]) -> None:
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
        if cond is not None and ENDLESS[keyword].fullmatch(node_text(cond).strip()) is not None:
            fork_loop(out, start)
    elif kind == "compound_statement" and node.children and node.children[0].type == "((":
        arith_statement(w, node, ctx, out, redirs)
    elif kind in _CONTAINERS or kind == "pipeline":
        _children(w, node, ctx, out, redirs, pipeline=kind == "pipeline")
    elif kind == "command":
        _command(w, node, ctx, out, redirs)
    elif kind == "redirected_statement":
        _redirected(w, node, ctx, out, redirs)
    elif kind in _ASSIGN_KINDS:
        assigns = assignments(w, node, ctx, out)
        out.append(RawCommand(node_text(node), (), tuple(assigns), redirs, ctx, kind="assign", scope=w.scope))
    elif kind == "declaration_command":
        declaration(w, node, ctx, out, redirs)
    elif kind == "unset_command":
        _unset(w, node, ctx, out, redirs)
    elif kind == "test_command":
        test_command(w, node, ctx, out, redirs)
    elif kind == "for_statement":
        for_loop(w, node, ctx, out, redirs)
    elif kind == "case_statement":
        for child in node.children:
            if child.type == "variable_name" or not child.is_named:
                continue
            if child.type in ("do_group", "case_item"):
                _stmt(w, child, ctx, out, redirs)
            else:
                walk_word(w, child, ctx, out)  # the list / the case value: words
    elif kind == "c_style_for_statement":
        header = [c for c in node.named_children if c.type not in ("do_group", "compound_statement")]
        for child in header:
            walk_arith(w, child, ctx, out)
            assigned_by_form(w, arith_assigned(w.vars, child), node_text(node), ctx, out)
        names = [n for child in header for n in arith_names(child)]
        w.vars.saw_arith()
        out.append(
            RawCommand("for ((…))", (), (), redirs, ctx, kind="arith", scope=w.scope, arith=tuple(names))
        )
        start = len(out)
        for child in node.named_children:
            if child not in header:
                _stmt(w, child, ctx, out, redirs)
        if node.child_by_field_name("condition") is None:  # for ((;;)): endless
            fork_loop(out, start)
    elif kind == "function_definition":
        _function(w, node, ctx, out)
    elif kind == "file_redirect":  # `$(<file)`: bash reads the file, nothing runs
        r = redirect(w, node, ctx, out)
        if r is not None:
            out.append(RawCommand(node_text(node), (), (), (*redirs, r), ctx, kind="redirect", scope=w.scope))
    elif kind in ("arithmetic_expansion", "binary_expression", "unary_expression",
                  "postfix_expression", "parenthesized_expression", "ternary_expression"):  # fmt: skip
        arith_statement(w, node, ctx, out, redirs)
    elif kind in ("word", "extglob_pattern", "string", "raw_string", "concatenation"):
        walk_word(w, node, ctx, out)  # case patterns
    else:
        w.errors.append(f"unsupported shell construct {kind!r} at {where(node)}")


def _unset(w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item], redirs: tuple[Redirect, ...]) -> None:
    """``unset NAME…``: each NAME a variable it assigns (``unset PATH`` is one); a NAME with a
    subscript bash evaluates (``unset 'a[$(cmd)]'``) is code."""
    # `unset PATH` is an assignment too: bash then searches its built-in default path,
    # which ends in `.` (a program missing from the system dirs runs from the cwd).
    names = [node_text(c) for c in node.named_children if not node_text(c).startswith("-")]
    assigned_by_form(w, names[1:] if names[:1] == ["unset"] else names, node_text(node), ctx, out)
    operands = [c for c in node.named_children if not node_text(c).startswith("-")]
    evaluated = tuple(
        SUBST for c in operands[1 if names[:1] == ["unset"] else 0 :] if not plain_name(literal(c))
    )
    if evaluated:
        w.vars.saw_arith()
    out.append(RawCommand(node_text(node), (), (), redirs, ctx, kind="unset", scope=w.scope, arith=evaluated))


def _children(
    w: Walk,
    node: Node,
    ctx: tuple[str, ...],
    out: list[Item],
    redirs: tuple[Redirect, ...],
    pipeline: bool = False,
) -> None:
    kind = node.type
    kids = _flatten(node) if kind == "list" else node.children
    types = [k.type for k in kids]  # each .type access builds a new string: read them once
    saved = w.child() if kind == "subshell" else w.scope  # one child shell for the whole ( … )
    ids = w.ids
    memo = StatementMemo(ids) if w.memo and not pipeline and len(kids) > 2 and isinstance(ids, Ids) else None
    stages: list[tuple[int, int]] = []  # a pipeline's stages: their items in ``out``
    for i, child in enumerate(kids):
        if types[i] in (";;", ";&", ";;&") and kind != "case_item":
            w.errors.append(f"unexpected {types[i]!r} at {where(child)}")
        if not child.is_named:
            continue  # punctuation (`;`, `&&`, `|`): nothing runs
        start = len(out)
        background = i + 1 < len(kids) and types[i + 1] == "&"
        inner = w.child() if pipeline or background else None
        if memo is not None and not background:
            memo.statement(w, child, out, partial(_stmt, w, child, ctx, out, redirs))
            continue
        _stmt(w, child, ctx, out, redirs)
        if inner is not None:  # a pipeline stage or a background job: its own child shell
            w.scope = inner
        if pipeline or background:
            for j in range(start, len(out)):
                item = out[j]
                if isinstance(item, RawCommand):
                    out[j] = marked(item, in_pipeline=pipeline, background=background)
        if pipeline:
            stages.append((start, len(out)))
    if pipeline and len(stages) > 1:
        _feed_xargs(out, stages)
    w.scope = saved


def _feed_xargs(out: list[Item], stages: list[tuple[int, int]]) -> None:
    """Mark each ``xargs`` stage that a lister of the files below one folder feeds."""
    plain: list[RawCommand | None] = []
    for start, end in stages:
        item = out[start] if end == start + 1 else None
        plain.append(item if isinstance(item, RawCommand) else None)
    for k, raw in enumerate(plain):
        if k and raw is not None and raw.words and raw.words[0].value == "xargs":
            folder, words, entries = fed_folder(plain, k), fed_words(plain, k), fed_entries(plain, k)
            if folder is not None or words is not None or entries is not None:
                out[stages[k][0]] = replace(raw, fed_from=folder, fed_words=words, fed_entries=entries)
        elif k and raw is not None and (script := fed_script(plain, k)) is not None:
            # `cat F | sh` runs F as `sh F` does: the shell is given its script by name
            out[stages[k][0]] = replace(raw, words=(raw.words[0], literal_word(script)))


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
            doc, nested, follow = heredoc(w, child, ctx, out, extra_words)
            mine.extend([doc, *nested])
            after.extend(follow)
        else:
            r = redirect(w, child, ctx, out)
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
        out.append(RawCommand(node_text(node), (), (), all_redirs, ctx, kind="redirect", scope=w.scope))
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
                out[j] = marked(item, in_pipeline=True)
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
    src = w.src
    prev_end = -1
    prev_kind = ""
    word_end = -2  # end of the previous argument node (-2: none since the last reset)
    adjacent: str | None = None
    for child in node.named_children:  # a fresh list of fresh nodes per access: read it once
        kind = child.type
        start, end = child.start_byte, child.end_byte
        if kind in _NOT_ARGUMENTS:
            word_end = -2
        elif adjacent is None and word_end >= 0 and _adjacent(src, word_end, start):
            adjacent = f"ambiguous word boundary at {where(child)}"
        if kind == "word":  # the common case, inlined: what ``decode`` does for a plain word
            text = src[start:end].decode("utf-8", "replace")
            if text.isalnum() or PLAIN.fullmatch(text):
                words.append(new_word(text, text, text))
            else:
                words.append(walk_word(w, child, ctx, out))
        elif kind == "variable_assignment":
            assigns.extend(assignments(w, child, ctx, out))
        elif kind == "command_name":
            inner = child.named_children
            name = inner[0] if inner else child
            text = src[name.start_byte : name.end_byte].decode("utf-8", "replace")
            if name.type == "word" and (text.isalnum() or PLAIN.fullmatch(text)):
                words.append(new_word(text, text, text))  # as for an argument above
            else:
                words.append(walk_word(w, name, ctx, out))
        elif kind in ("file_redirect", "herestring_redirect"):
            if prev_end == start and prev_kind == "number":
                w.errors.append(f"ambiguous file-descriptor redirection at {where(child)}")
            r = redirect(w, child, ctx, out)
            if r is not None:
                mine.append(r)
        elif kind != "comment":
            words.append(walk_word(w, child, ctx, out))
        if kind not in _NOT_ARGUMENTS:
            word_end = end
        if kind != "comment":
            prev_end, prev_kind = end, kind
    if adjacent is not None:
        w.errors.append(adjacent)
    all_words = (*words, *extra_words)
    text = src[node.start_byte : node.end_byte].decode("utf-8", "replace")
    targets = let_targets(all_words)
    if targets:
        assigned_by_form(w, targets, text, ctx, out)
    out.append(
        new_raw(
            text,
            all_words,
            tuple(assigns),
            (*redirs, *mine),
            ctx,
            arith=run_time_assigns(w.vars, all_words),
            scope=w.scope,
        )
    )


#: Children of a command that are not argument words (they break adjacency).
_NOT_ARGUMENTS = frozenset({"file_redirect", "herestring_redirect", "variable_assignment"})


def _adjacent(src: bytes, prev_end: int, start: int) -> bool:
    """Two argument nodes with nothing (or only a line continuation) between them are one
    word to bash but two to tree-sitter: a parser differential, so undecidable."""
    gap = src[prev_end:start]
    return not gap or (gap[0] == 0x5C and _CONTINUATION.fullmatch(gap) is not None)


_CONTINUATION = re.compile(rb"(\\\r?\n)*")


def _function(w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item]) -> None:
    name_node = node.child_by_field_name("name")
    name = node_text(name_node) if name_node is not None else ""
    body: list[Item] = []
    redirs: list[Redirect] = []
    for i, child in enumerate(node.children):
        if node.field_name_for_child(i) == "redirect":
            r = redirect(w, child, ctx, out)
            if r is not None:
                redirs.append(r)
    body_node = node.child_by_field_name("body")
    if body_node is not None:
        _stmt(w, body_node, (*ctx, f"in function {name}"), body, tuple(redirs))
    out.append(FunctionDef(name, tuple(body), node_text(node)))
