"""The one tree-sitter parser, created lazily, and the error locations it reports."""

from __future__ import annotations

import re
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


#: tree-sitter-bash 0.25.1's scanner reads out of bounds (SIGSEGV / SIGBUS) on code points
#: from U+30000 up after `{` (found by the hypothesis tests); lone surrogates are not text.
#: Such input is refused before it reaches the parser. Planes 0-2 were checked exhaustively.
_UNSAFE_CHARS = re.compile("[\U00030000-\U0010ffff\ud800-\udfff]")


def unsafe_char(text: str) -> str | None:
    """An error for text the parser cannot be given safely, else None."""
    m = _UNSAFE_CHARS.search(text)
    if m is None:
        return None
    return f"unsupported character U+{ord(m.group()):04X} at offset {m.start()}"


def parse(source: bytes) -> Tree:
    return _parser().parse(source)


def where(node: Node) -> str:
    row, col = node.start_point
    return f"line {row + 1} col {col + 1}"


def error_nodes(root: Node, limit: int = 8) -> list[str]:
    """Describe ERROR / MISSING nodes (only descends into subtrees that contain errors)."""
    if not root.has_error:  # has_error covers MISSING nodes too
        return []
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
