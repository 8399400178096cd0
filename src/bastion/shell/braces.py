"""Brace expansion of a literal word, as bash does it before anything else: ``~/.{aws/
credentials,netrc}`` is the two words ``~/.aws/credentials`` and ``~/.netrc``. Expanded only for
a word written with no quote, escape or expansion (then its text is what bash expands; a glob
in it stays in each word: ``~/.{aws,ssh}/*`` is the globs ``~/.aws/*`` and ``~/.ssh/*``)
and only comma lists (a sequence ``{1..9}`` names no path worth it); anything else — or more
than ``LIMIT`` words — stays a word only known at run time."""

from __future__ import annotations

LIMIT = 32


def expand_braces(text: str) -> tuple[str, ...] | None:
    """Every word ``text`` expands to, or None when it is not a plain comma brace list."""
    if any(c in text for c in "'\"\\$`") or "{" not in text:
        return None
    out = _expand(text)
    if out is None or len(out) > LIMIT or out == [text]:
        return None
    return tuple(out)


def _expand(text: str) -> list[str] | None:
    start = _first_group(text)
    if start is None:
        return [text]
    open_at, parts, close_at = start
    results: list[str] = []
    for part in parts:
        tail = _expand(text[:open_at] + part + text[close_at + 1 :])
        if tail is None:
            return None
        results.extend(tail)
        if len(results) > LIMIT:
            return None
    return results


def _first_group(text: str) -> tuple[int, list[str], int] | None:
    """The first ``{a,b,…}`` with a top-level comma: its place, its parts, its end."""
    for open_at, ch in enumerate(text):
        if ch != "{":
            continue
        depth, begin = 0, open_at + 1
        parts: list[str] = []
        for i in range(open_at + 1, len(text)):
            c = text[i]
            if c == "{":
                depth += 1
            elif c == "}" and depth:
                depth -= 1
            elif c == "}":
                if parts:
                    return open_at, [*parts, text[begin:i]], i
                break  # `{x}` alone is literal: look for a later group
            elif c == "," and not depth:
                parts.append(text[begin:i])
                begin = i + 1
    return None
