"""Within one walk, walk each distinct statement of a list once.

``"; ".join(["grep -rn TODO src | head -5"] * 400)`` is a list of 400 identical statements.
A statement is replayed only when what its walk reads is the same: the same source bytes
and the same tree (its S-expression and node count: types, fields and anonymous tokens), met
in the same list (so the same context and redirections) with the same scope and loop
bindings. Fail closed: a walk that reported an error, touched the variables arithmetic may
trust (``Variables.touched``), defined a function, or holds a heredoc is never stored. The
child-shell ids a replay stands for are drawn afresh, and each raw command's scope gets them
in place of the ids the first walk drew (the only thing that differs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from tree_sitter import Node

from bastion.shell.walk_model import Ids, Item, RawCommand, Walk, rebuilt
from bastion.shell.words import Binding


@dataclass(slots=True)
class _Walked:
    node: Node  # the statement first walked (the tree outlives the walk)
    scope: tuple[int, ...]
    bindings: tuple[tuple[str, Binding], ...]
    first: int  # the last id drawn before the first walk: its own ids are above it
    drawn: int  # how many ids the first walk drew
    items: tuple[RawCommand, ...]
    shape: str | None = None  # str(node), the S-expression, computed at the first replay


class StatementMemo:
    """One per list being walked (its context and redirections are the list's)."""

    __slots__ = ("_ids", "_walked")

    def __init__(self, ids: Ids) -> None:
        self._walked: dict[bytes, list[_Walked]] = {}
        self._ids = ids

    def statement(self, w: Walk, node: Node, out: list[Item], walk: Callable[[], None]) -> None:
        """Append what ``walk()`` (walking ``node`` into ``out``) appends: replayed when
        ``node`` was walked before, else walked and kept when a replay is provably the same."""
        text = w.src[node.start_byte : node.end_byte]
        found = self._walked.get(text)
        if found and self._replay(w, node, found, out):
            return
        first, errors, touched, start, scope = (
            self._ids.last,
            len(w.errors),
            w.vars.touched,
            len(out),
            w.scope,
        )
        walk()
        items = out[start:]
        if (
            len(w.errors) != errors
            or w.vars.touched != touched
            or w.scope != scope
            or b"<<" in text
            or node.has_error
            or any(not isinstance(item, RawCommand) for item in items)
        ):
            return
        raws = cast("tuple[RawCommand, ...]", tuple(items))
        walked = _Walked(node, scope, tuple(w.bindings.items()), first, self._ids.last - first, raws)
        self._walked.setdefault(text, []).append(walked)

    def _replay(self, w: Walk, node: Node, found: list[_Walked], out: list[Item]) -> bool:
        bindings = tuple(w.bindings.items())
        shape: str | None = None
        for walked in found:
            if walked.scope != w.scope or walked.bindings != bindings:
                continue
            if walked.node.descendant_count != node.descendant_count:
                continue
            if walked.shape is None:
                walked.shape = str(walked.node)
            if shape is None:
                shape = str(node)
            if walked.shape == shape:
                out.extend(self._renumbered(walked))
                return True
        return False

    def _renumbered(self, walked: _Walked) -> list[Item]:
        if not walked.drawn:
            return list(walked.items)
        base = self._ids.last
        self._ids.last += walked.drawn  # the ids a fresh walk would draw, in the same order
        shift = base - walked.first
        first = walked.first
        out: list[Item] = []
        for item in walked.items:
            scope = tuple(x + shift if x > first else x for x in item.scope)
            out.append(rebuilt(item, item.in_pipeline, item.background, scope))
        return out
