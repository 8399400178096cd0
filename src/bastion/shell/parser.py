"""The one tree-sitter parser, created lazily, and the error locations it reports."""

from __future__ import annotations

from functools import lru_cache

import tree_sitter_bash
from tree_sitter import Language, Node, Parser, Tree

#: Commands longer than this (UTF-8 bytes) are refused outright: cost must stay bounded.
MAX_COMMAND_BYTES = 65536


@lru_cache(maxsize=1)
def _parser() -> Parser:
    # A Parser is immutable configuration plus scratch state; one per process is enough
    # and keeps per-call cost at the ~µs level.
    return Parser(Language(tree_sitter_bash.language()))


def parse(source: bytes) -> Tree:
    return _parser().parse(source)


def where(node: Node) -> str:
    row, col = node.start_point
    return f"line {row + 1} col {col + 1}"


def error_nodes(root: Node, limit: int = 8) -> list[str]:
    """Describe ERROR / MISSING nodes (only descends into subtrees that contain errors)."""
    found: list[str] = []
    stack = [root]
    while stack and len(found) < limit:
        node = stack.pop()
        if node.is_missing:
            found.append(f"parse error: missing {node.type!r} at {where(node)}")
            continue
        if node.is_error:
            snippet = (node.text or b"").decode("utf-8", "replace")[:40]
            found.append(f"parse error: unexpected {snippet!r} at {where(node)}")
            continue
        if node.has_error:
            stack.extend(reversed(node.children))
    if root.has_error and not found:
        found.append("parse error: the parser reported an error it could not locate")
    return found
