"""Expand a shell glob as bash would, against the real directory entries.

Bash defaults: dotglob off (a leading ``.`` must be matched literally), nullglob off (no
match leaves the word as written), globstar off (``**`` is ``*``), extglob off, case
sensitive. A pattern keeps quoted characters backslash-escaped (``a\\*b``). ``.*`` also
matches ``.`` and ``..`` (bash before 5.2, dash): the stricter reading.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from bastion.policy.tree import Kind
from bastion.policy.treewalk import Reach

_CLASSES = {
    "alnum": "a-zA-Z0-9", "alpha": "a-zA-Z", "digit": "0-9", "lower": "a-z", "upper": "A-Z",
    "space": r"\s", "blank": r" \t", "punct": r"!-/:-@\[-`{-~", "xdigit": "0-9A-Fa-f",
    "word": r"\w", "print": r" -~", "graph": r"!-~", "cntrl": r"\x00-\x1f\x7f",
}  # fmt: skip


class GlobSyntax(ValueError):
    """A pattern this module cannot translate faithfully (fail closed: unknown)."""


@dataclass(frozen=True, slots=True)
class Expansion:
    """``matches`` as bash would spell them (relative stays relative); empty: no match,
    bash keeps the word literally (``literal``)."""

    matches: tuple[str, ...]
    literal: str


def has_magic(component: str) -> bool:
    i = 0
    while i < len(component):
        ch = component[i]
        if ch == "\\":
            i += 2
            continue
        if ch in "*?":
            return True
        if ch == "[" and _class_end(component, i) is not None:
            return True
        i += 1
    return False


def unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text, flags=re.S)


def _class_end(text: str, start: int) -> int | None:
    """Index of the ``]`` closing the bracket expression that opens at ``start``."""
    i = start + 1
    if i < len(text) and text[i] in "!^":
        i += 1
    if i < len(text) and text[i] == "]":
        i += 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text.startswith("[:", i):
            close = text.find(":]", i + 2)
            if close >= 0:
                i = close + 2
                continue
        if text[i] == "]":
            return i
        i += 1
    return None


def _bracket(body: str) -> str:
    negate = body[:1] in ("!", "^")
    if negate:
        body = body[1:]
    out = []
    i = 0
    while i < len(body):
        if body.startswith("[:", i):
            close = body.find(":]", i + 2)
            name = body[i + 2 : close]
            if close < 0 or name not in _CLASSES:
                raise GlobSyntax(f"character class [:{name}:] is not supported")
            out.append(_CLASSES[name])
            i = close + 2
            continue
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            ch = body[i + 1]
            i += 1
        if i + 2 < len(body) and body[i + 1] == "-" and body[i + 2] != "]":
            out.append(f"{re.escape(ch)}-{re.escape(body[i + 2])}")
            i += 3
            continue
        out.append(re.escape(ch))
        i += 1
    return f"[{'^' if negate else ''}{''.join(out)}]"


def translate(component: str) -> re.Pattern[str]:
    """One path component's pattern as an anchored regex (``*`` never crosses ``/``)."""
    out = []
    i = 0
    while i < len(component):
        ch = component[i]
        if ch == "\\" and i + 1 < len(component):
            out.append(re.escape(component[i + 1]))
            i += 2
        elif ch == "*":
            out.append("[^/]*")
            while i < len(component) and component[i] == "*":
                i += 1  # "**" is "*" without globstar
        elif ch == "?":
            out.append("[^/]")
            i += 1
        elif ch == "[" and (end := _class_end(component, i)) is not None:
            out.append(_bracket(component[i + 1 : end]))
            i = end + 1
        else:
            out.append(re.escape(ch))
            i += 1
    try:
        return re.compile("".join(out), re.S)
    except re.error as exc:
        raise GlobSyntax(f"cannot translate {component!r}: {exc}") from exc


def expand(reach: Reach, pattern: str, *, cwd: str, home: str) -> Expansion:
    """The words ``pattern`` becomes in ``cwd``. Raises OverBudget, GlobSyntax."""
    literal = unescape(pattern)
    if pattern == "~" or pattern.startswith("~/"):
        pattern = home.rstrip("/") + pattern[1:]
    absolute = pattern.startswith("/")
    dir_only = pattern.endswith("/")
    parts = [p for p in pattern.split("/") if p]
    # (as bash spells it, where it is on disk)
    current: list[tuple[str, str]] = [("/" if absolute else "", "/" if absolute else cwd)]
    check_tail = False
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if not has_magic(part):
            name = unescape(part)
            current = [(posixpath.join(s, name), posixpath.join(d, name)) for s, d in current]
            check_tail = True
            continue
        if check_tail:
            current = [(s, d) for s, d in current if reach.kind(d, follow=True) is Kind.DIR]
            check_tail = False
        current = _match(reach, current, part, need_dir=dir_only or not last)
    if check_tail:
        kept = []
        for spelled, disk in current:
            kind = reach.kind(disk, follow=dir_only)
            if kind is not Kind.MISSING and (not dir_only or kind is Kind.DIR):
                kept.append((spelled, disk))
        current = kept
    elif not any(has_magic(p) for p in parts):
        return Expansion((), literal)
    suffix = "/" if dir_only else ""
    return Expansion(tuple(s + suffix for s, _ in current), literal)


def _match(
    reach: Reach, current: list[tuple[str, str]], part: str, *, need_dir: bool
) -> list[tuple[str, str]]:
    regex = translate(part)
    dot = part.startswith(".")
    found: list[tuple[str, str]] = []
    for spelled, disk in current:
        names = [(e.name, e.kind) for e in reach.listdir(disk)]
        if dot:
            names += [(".", Kind.DIR), ("..", Kind.DIR)]
        for name, kind in names:
            if name.startswith(".") and not dot:
                continue  # dotglob off
            if not regex.fullmatch(name):
                continue
            path = posixpath.join(disk, name)
            if need_dir and not (
                kind is Kind.DIR or (kind is Kind.LINK and reach.kind(path, follow=True) is Kind.DIR)
            ):
                continue
            found.append((posixpath.join(spelled, name), path))
    return found
