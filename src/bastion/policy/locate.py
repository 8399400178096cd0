"""Find the line of a key in TOML text, so load errors can say file, line and key.

tomllib keeps no positions; this scanner tracks table headers (``[a.b]``, ``[[rule]]``)
and ``key =`` lines, which is all a policy file uses.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r'^\s*("[^"]*"|\'[^\']*\'|[A-Za-z0-9_.-]+)\s*=')

Loc = tuple[str | int, ...]


def _split_dotted(name: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in name.split("."))


class KeyLocator:
    def __init__(self, text: str) -> None:
        self._lines: dict[Loc, int] = {}
        counters: dict[tuple[str, ...], int] = {}
        table: Loc = ()
        depth = 0  # open brackets of a multi-line array: its lines hold no keys
        for number, line in enumerate(text.splitlines(), start=1):
            if depth == 0:
                header = _HEADER.match(line)
                if header:
                    names = _split_dotted(header.group(2))
                    if header.group(1) == "[[":
                        index = counters.get(names, 0)
                        counters[names] = index + 1
                        table = (*names, index)
                    else:
                        table = names
                    self._lines.setdefault(table, number)
                    continue
                key = _KEY.match(line)
                if key:
                    self._lines.setdefault((*table, *_split_dotted(key.group(1))), number)
            depth = max(0, depth + _bracket_balance(line))

    def alias(self, loc: Loc, written: Loc) -> None:
        """``loc`` was written as ``written`` (a seed form's key, translated): errors about
        ``loc`` name the line of ``written``."""
        line = self.line_of(written)
        if line is not None:
            self._lines.setdefault(loc, line)

    def line_of(self, loc: Sequence[str | int]) -> int | None:
        """The line of the longest prefix of ``loc`` that the file defines."""
        for end in range(len(loc), 0, -1):
            found = self._lines.get(tuple(loc[:end]))
            if found is not None:
                return found
        return None


def _bracket_balance(line: str) -> int:
    balance = 0
    quote = ""
    for char in line:
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            break
        elif char == "[":
            balance += 1
        elif char == "]":
            balance -= 1
    return balance
