"""Gitignore-style path globs compiled once into one regex per list.

Patterns are matched against absolute, normalised paths. ``~`` is expanded; a pattern with
a slash that is neither absolute nor ``**/``-led is anchored at the policy file's folder;
a pattern without a slash matches a name at any depth (as in .gitignore).
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass

_ANYWHERE = "(?:^|/)"


class GlobError(ValueError):
    """A glob that cannot be compiled; the message says why."""


@dataclass(frozen=True, slots=True)
class Glob:
    """Every regex is anchored (``^`` or ``(?:^|/)``): match with ``search``."""

    pattern: str  # as written
    source: str  # file:line where it is defined
    regex: re.Pattern[str]
    anywhere: bool = False  # a name at any depth: ``inner`` follows "^" or a slash
    inner: str = ""  # the regex without its anchor, flags applied


def _anchor(pattern: str, base: str, home: str) -> str:
    if pattern == "~" or pattern.startswith("~/"):
        return home.rstrip("/") + pattern[1:]
    if pattern.startswith("/") or pattern.startswith("**"):
        return pattern
    if "/" in pattern.rstrip("/"):
        return os.path.join(base, pattern)
    return pattern


def _to_regex(pattern: str) -> str:
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern  # only when compiling

    if not pattern or pattern.isspace():
        raise GlobError("empty glob")
    if pattern.startswith("!"):
        raise GlobError(f"negated glob {pattern!r} is not supported: list what to match instead")
    if "\x00" in pattern:
        raise GlobError("glob contains a NUL byte")
    regex, include = GitIgnoreSpecPattern.pattern_to_regex(pattern)
    if regex is None or not include:
        raise GlobError(f"invalid glob {pattern!r}")
    # Named groups would clash once several patterns are joined into one alternation.
    body = str(regex).replace("(?P<ps_d>/)", "/")
    # "a name at any depth" as a search anchored at a slash: one pass instead of backtracking.
    if body.startswith("^(?:.+/)?"):
        body = _ANYWHERE + body[len("^(?:.+/)?") :]
    if pattern.endswith("/**"):
        # "dir/**" also covers "dir" itself: listing a protected folder is touching it.
        body = f"(?:{body}|{_to_regex(pattern[:-3])})"
    return body


#: ``re.compile`` behind a memo large enough for every pattern a policy holds: ``re``'s own
#: cache keeps 512, and the built-in hardline, later-code and agent tables are more than that,
#: so each policy build (one per loaded policy, many in tests and ``replay``) recompiled them
#: all (a 5x slower test suite when the tables grew past it). A pure function's memo.
_regex = functools.lru_cache(maxsize=8192)(re.compile)


def compile_glob(pattern: str, *, source: str, base: str, home: str, ignore_case: bool = False) -> Glob:
    anchored = _anchor(pattern, base, home)
    try:
        body = _to_regex(anchored)
        anywhere = body.startswith(_ANYWHERE)
        # Strip the anchor; an alternation ("dir/**") keeps the anchors of its branches.
        inner = body[len(_ANYWHERE) :] if anywhere else (body[1:] if body.startswith("^") else body)
        if ignore_case:
            inner = f"(?i:{inner})"
        anchor = _ANYWHERE if anywhere else "^"
        return Glob(pattern, source, _regex(anchor + inner), anywhere, inner)
    except re.error as exc:
        raise GlobError(f"invalid glob {pattern!r}: {exc}") from exc


@dataclass(frozen=True, slots=True)
class GlobSet:
    """Several globs behind one combined regex; ``first_match`` names the glob that hit."""

    globs: tuple[Glob, ...]
    combined: re.Pattern[str] | None

    @classmethod
    def of(cls, globs: tuple[Glob, ...] | list[Glob]) -> GlobSet:
        items = tuple(globs)
        if not items:
            return cls((), None)
        # One anchor in front of all "anywhere" globs keeps the search a single cheap pass.
        parts = []
        anywhere = [g.inner for g in items if g.anywhere]
        anchored = [g.inner for g in items if not g.anywhere]
        if anywhere:
            parts.append(_ANYWHERE + "(?:" + "|".join(anywhere) + ")")
        if anchored:
            parts.append("^(?:" + "|".join(anchored) + ")")
        return cls(items, _regex("|".join(parts)))

    def first_match(self, path: str) -> Glob | None:
        """``path`` is absolute; matching is done on it without the leading slash."""
        if self.combined is None:
            return None
        rel = path.lstrip("/")
        if not self.combined.search(rel):
            return None
        return next((g for g in self.globs if g.regex.search(rel)), None)

    def __add__(self, other: GlobSet) -> GlobSet:
        return GlobSet.of(self.globs + other.globs)
