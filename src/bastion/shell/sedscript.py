"""Read a sed script the way GNU sed does, far enough to find the commands that are not reads.

``r``/``R`` read a file named in the script, ``w``/``W`` and the ``w`` flag of ``s`` write
one, ``e`` and the ``e`` flag of ``s`` run a shell command. A script this reader cannot
follow is reported as unknown (None), never as harmless.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Commands that take no argument (GNU sed 4.9).
_PLAIN = frozenset("=dDgGhHlnNpPxzF")
_LABEL = frozenset("btT:")
_FILE = frozenset("rRwW")
_TEXT = frozenset("aic")


@dataclass(frozen=True, slots=True)
class Command:
    letter: str  # r R w W e, or "s" for a substitution's w / e flag
    arg: str  # the file name or shell command ("" for a bare e)


def _skip_space(s: str, i: int) -> int:
    while i < len(s) and s[i] in " \t":
        i += 1
    return i


def _delimited(s: str, i: int, delim: str) -> int | None:
    """Index just past the closing ``delim`` of a regex / replacement starting at ``i``."""
    while i < len(s):
        if s[i] == "\\":
            i += 2
            continue
        if s[i] == delim:
            return i + 1
        if s[i] == "\n" and delim != "\n":
            return None
        i += 1
    return None


def _address(s: str, i: int) -> int | None:
    """Skip one address (``12``, ``$``, ``/re/I``, ``\\%re%``, ``first~step``, ``+N``)."""
    if i < len(s) and (s[i].isdigit() or s[i] in "+~"):
        i += 1
        while i < len(s) and (s[i].isdigit() or s[i] == "~"):
            i += 1
        return i
    if i < len(s) and s[i] == "$":
        return i + 1
    if i < len(s) and s[i] in "/\\":
        delim = s[i]
        if delim == "\\":
            if i + 1 >= len(s):
                return None
            i, delim = i + 1, s[i + 1]
        end = _delimited(s, i + 1, delim)
        if end is None:
            return None
        while end < len(s) and s[end] in "IM":
            end += 1
        return end
    return i


def _to_eol(s: str, i: int) -> tuple[str, int]:
    end = s.find("\n", i)
    end = len(s) if end < 0 else end
    return s[i:end], end


def parse(script: str) -> list[Command] | None:
    """The file and shell commands of ``script``; None when it cannot be followed."""
    out: list[Command] = []
    s, i = script, 0
    while i < len(s):
        i = _skip_space(s, i)
        if i >= len(s):
            break
        if s[i] in ";\n}":
            i += 1
            continue
        if s[i] == "#":
            i = _to_eol(s, i)[1]
            continue
        first = _address(s, i)
        if first is None:
            return None
        i = _skip_space(s, first)
        if i < len(s) and s[i] == ",":
            second = _address(s, _skip_space(s, i + 1))
            if second is None:
                return None
            i = second
        i = _skip_space(s, i)
        while i < len(s) and s[i] == "!":
            i = _skip_space(s, i + 1)
        if i >= len(s):
            return None
        letter = s[i]
        i += 1
        step = _command(s, i, letter, out)
        if step is None:
            return None
        i = step
    return out


def _command(s: str, i: int, letter: str, out: list[Command]) -> int | None:
    """Consume the rest of one command; the index after it, or None when unknown."""
    if letter == "{" or letter in _PLAIN:
        return i
    if letter in "qQLv":  # exit code / version argument
        while i < len(s) and s[i] not in ";\n}":
            i += 1
        return i
    if letter in _LABEL:
        while i < len(s) and s[i] not in ";\n":
            i += 1
        return i
    if letter in _FILE or letter == "e":
        arg, end = _to_eol(s, _skip_space(s, i))
        out.append(Command(letter, arg.strip()))
        return end
    if letter in _TEXT:
        return _to_text_end(s, i)
    if letter in "sy":
        return _substitute(s, i, letter, out)
    return None


def _to_text_end(s: str, i: int) -> int:
    """``a text``, ``a\\`` + lines ending in a backslash continue to the next line."""
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            i += 2
            continue
        if s[i] == "\n":
            return i
        i += 1
    return i


def _substitute(s: str, i: int, letter: str, out: list[Command]) -> int | None:
    if i >= len(s) or s[i] in "\\\n":
        return None
    delim = s[i]
    mid = _delimited(s, i + 1, delim)
    end = _delimited(s, mid, delim) if mid is not None else None
    if end is None:
        return None
    if letter == "y":
        return end
    while end < len(s) and s[end] not in ";\n}":
        flag = s[end]
        if flag == "w":
            arg, end = _to_eol(s, _skip_space(s, end + 1))
            out.append(Command("w", arg.strip()))
            return end
        if flag == "e":  # runs the pattern space: the replacement, when it is all literal text
            out.append(Command("e", _literal_replacement(s[mid : end - 1], delim)))
        elif not (flag.isdigit() or flag in "gpiImM "):
            return None
        end += 1
    return end


def _literal_replacement(text: str, delim: str) -> str:
    """The text an ``s`` replacement makes when it holds no ``&``, group or escape but the
    delimiter's (``cat ~\\/.pgpass`` → ``cat ~/.pgpass``); "" when it depends on the line."""
    plain = text.replace("\\" + delim, "\0")
    if "&" in plain or "\\" in plain or "\n" in plain:
        return ""
    return plain.replace("\0", delim)
