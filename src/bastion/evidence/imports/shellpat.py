"""Source command patterns → Bastion command patterns, narrowed for allow, widened for deny.

Bastion patterns are words (``bastion.shell.patterns``): a final ``*`` takes any further
words, a non-final ``*`` one word, a word glob one argv word. Sources match text: a
prefix (``npm run test:*``, Codex ``prefix_rule``), a glob over the whole string
(``*rm -rf*``), a regex. An allow that cannot be said exactly is narrowed (or dropped); a
deny or ask is widened; None means it cannot be said at all.
"""

from __future__ import annotations

import shlex

STRICT = ("deny", "ask")


def _words(text: str) -> list[str] | None:
    try:
        return shlex.split(text)
    except ValueError:
        return None


def _join(words: list[str]) -> str:
    return " ".join(w if w == "*" or ("*" in w and " " not in w) else shlex.quote(w) for w in words)


def prefix(text: str, action: str) -> tuple[str, str | None] | None:
    """A command prefix (every command starting with these words) → (pattern, note)."""
    words = _words(text)
    if not words or any(c in words[0] for c in "*?["):
        return None
    if action in STRICT and len(words) > 1 and not words[-1].startswith("-"):
        # the source matches text: "npm run test" also starts "npm run test:unit"
        return _join([*words[:-1], words[-1] + "*", "*"]), None
    return _join([*words, "*"]), None


def glob(text: str, action: str) -> tuple[str, str | None] | None:
    """A whole-command glob (``git * main``, ``*rm -rf*``) → (pattern, note)."""
    stripped = text.strip()
    if stripped in ("", "*"):
        return "*", None
    core = stripped.strip("*").strip()
    leading = stripped.startswith("*")
    if leading:
        if action not in STRICT or not core:
            return None  # an allow of "anything containing X" has no safe narrowing
        words = _words(core)
        if not words:
            return None
        return _join([*words, "*"]), (
            f"'{text}' matches the text anywhere; Bastion matches each simple command "
            "(after sudo, xargs, bash -c…), so a mention inside a quoted string does "
            "not count"
        )
    words = _words(stripped)
    if not words:
        return None
    if stripped.endswith("*") and not stripped.endswith(" *") and action in STRICT:
        words = [*words, "*"]  # "git*" may go on with more words: a deny/ask takes them too
    return _join(words), None
