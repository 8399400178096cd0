"""The walker's redirections: file targets, here-strings and heredocs (whose unquoted
bodies run their substitutions)."""

from __future__ import annotations

import re

from tree_sitter import Node

from bastion.shell.parser import where
from bastion.shell.walk_model import Item, Redirect, Walk, node_text, walk_word
from bastion.shell.words import Word

_FD_OPS = re.compile(r"^[<>&|]+$")


def redirect(w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item]) -> Redirect | None:
    fd_node = node.child_by_field_name("descriptor")
    fd = node_text(fd_node) if fd_node is not None else None
    op = next((node_text(c) for c in node.children if not c.is_named and _FD_OPS.match(node_text(c))), "")
    if node.type == "file_redirect":
        dest = node.child_by_field_name("destination")
        target = walk_word(w, dest, ctx, out) if dest is not None else None
        return Redirect(op, fd, target, node_text(node))
    if node.type == "herestring_redirect":
        parts = [c for c in node.named_children if c.type != "file_descriptor"]
        if not parts:
            w.errors.append(f"empty here-string at {where(node)}")
            return None
        word = walk_word(w, parts[0], ctx, out)
        return Redirect("<<<", fd, None, node_text(node), word.value, word.literal)
    w.errors.append(f"unsupported redirection {node.type!r} at {where(node)}")
    return None


def heredoc(
    w: Walk, node: Node, ctx: tuple[str, ...], out: list[Item], extra_words: list[Word]
) -> tuple[Redirect, list[Redirect], list[Node]]:
    """Return the heredoc, the redirects nested in it, and statements that follow it."""
    start = node.child_by_field_name("heredoc_start") or next(
        (c for c in node.children if c.type == "heredoc_start"), None
    )
    quoted = start is not None and any(q in node_text(start) for q in "'\"\\")
    body_node = next((c for c in node.children if c.type == "heredoc_body"), None)
    body = node_text(body_node) if body_node is not None else ""
    nested: list[Redirect] = []
    after: list[Node] = []
    for i, child in enumerate(node.children):
        if child.type in ("file_redirect", "herestring_redirect"):
            r = redirect(w, child, ctx, out)
            if r is not None:
                nested.append(r)
        elif node.field_name_for_child(i) == "argument":
            extra_words.append(walk_word(w, child, ctx, out))
        elif child.type in ("pipeline", "list", "command", "redirected_statement"):
            after.append(child)
    literal = True
    if not quoted and body_node is not None:
        literal = not any(ch in body for ch in "$`")
        if literal is False:
            heredoc_substitutions(w, body_node, body, ctx, out)
    op = "<<-" if any(c.type == "<<-" for c in node.children) else "<<"
    evaluates = not literal and _EVAL_IN_BODY.search(body) is not None
    return Redirect(op, None, None, node_text(node), body, literal, evaluates), nested, after


#: In an unquoted heredoc: arithmetic, indirection, prompt expansion, subscripts, offsets.
_EVAL_IN_BODY = re.compile(r"\$\(\(|\$\[|\$\{[^}]*[\[:!@]")


def heredoc_substitutions(w: Walk, body_node: Node, body: str, ctx: tuple[str, ...], out: list[Item]) -> None:
    subs = [c for c in body_node.named_children if c.type == "command_substitution"]
    for sub in subs:
        saved = w.child()
        for child in sub.named_children:
            w.stmt(w, child, (*ctx, "in heredoc $(…)"), out, ())
        w.scope = saved
    runs_code = "`" in body or "$(" in body or "@P" in body
    if runs_code and len(subs) < body.count("$(") + body.count("`") // 2:
        # tree-sitter misses expansions at the start of indented heredoc lines
        w.errors.append(
            f"unquoted heredoc body has a command substitution the parser did not see at {where(body_node)}"
        )
