"""Strict JSON for everything an agent sends: one reading, no surprises.

Python's ``json`` accepts duplicate keys (the last wins, so a checker and a runner that
read the same text differently disagree on what was decided), ``NaN``/``Infinity``
(not JSON), and nesting until the interpreter's recursion limit (a RecursionError where an
input error belongs). Here each of these is a :class:`CallError` that says what is wrong.
"""

from __future__ import annotations

import json
from typing import Any

from bastion.errors import CallError

#: Deepest nesting of arrays and objects accepted in a tool call.
MAX_DEPTH = 64


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)  # built in C; a key given twice leaves it shorter than ``pairs``
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise CallError(f"duplicate key {key!r} in a JSON object (one meaning per key)")
            seen.add(key)
    return out


def _no_constant(name: str) -> Any:
    raise CallError(f"{name} is not a JSON value")


def _finite(text: str) -> float:
    number = float(text)
    if number in (float("inf"), float("-inf")):
        raise CallError(f"{text} overflows to infinity, which is not a JSON value")
    return number


def depth_of(value: Any) -> int:
    """Nesting depth of arrays/objects, without recursion (a scalar is 0)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        stack.extend((child, depth) for child in children)
    return deepest


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """Parse ``text`` strictly; raises CallError on anything but one clear JSON value."""
    try:
        value = json.loads(
            text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant, parse_float=_finite
        )
    except RecursionError:
        raise CallError(f"JSON nested deeper than {max_depth} levels") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise CallError(f"not valid JSON: {exc}") from None
    # Each level opens with a bracket: a text with at most ``max_depth`` of them (counted in
    # strings too, which only overcounts) cannot nest deeper, and needs no walk.
    opened = (
        text.count(b"[") + text.count(b"{") if isinstance(text, bytes) else text.count("[") + text.count("{")
    )
    if opened > max_depth and depth_of(value) > max_depth:
        raise CallError(f"JSON nested deeper than {max_depth} levels")
    return value
