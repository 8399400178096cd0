"""Split a command's arguments into canonical flags and positionals.

``-rf`` becomes ``-r -f``, ``--opt=value`` is split, ``--`` ends the options, and aliases
from the knowledge base map every spelling to one canonical flag (``--recursive`` → ``-r``).
This is used only for classification and deny matching; ``argv`` keeps the words as written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bastion.shell.words import Word


@dataclass(frozen=True, slots=True)
class Flag:
    name: str  # canonical
    value: Word | None = None


@dataclass(frozen=True, slots=True)
class Parsed:
    flags: tuple[Flag, ...]
    positionals: tuple[Word, ...]

    def has(self, *names: str) -> bool:
        return any(f.name in names for f in self.flags)

    def values(self, *names: str) -> list[Word]:
        return [f.value for f in self.flags if f.name in names and f.value is not None]


def _lit(text: str) -> Word:
    return Word(text=text, value=text, sketch=text)


def canonical(name: str, aliases: Mapping[str, str]) -> str:
    return aliases.get(name, name)


def parse_args(
    words: Sequence[Word],
    takes_value: frozenset[str] = frozenset(),
    aliases: Mapping[str, str] | None = None,
    stop_at_positional: bool = False,
) -> tuple[Parsed, int]:
    """Parse ``words`` (arguments, program excluded). Returns the parse and the index where
    parsing stopped (``len(words)`` unless ``stop_at_positional``)."""
    al = aliases or {}
    flags: list[Flag] = []
    pos: list[Word] = []
    i = 0
    n = len(words)
    while i < n:
        w = words[i]
        v = w.value
        if v is None or v == "-" or not v.startswith("-"):
            if stop_at_positional:
                return Parsed(tuple(flags), tuple(pos)), i
            pos.append(w)
            i += 1
            continue
        if v == "--":
            pos.extend(words[i + 1 :])
            return Parsed(tuple(flags), tuple(pos)), n
        if v.startswith("--"):
            name, eq, val = v.partition("=")
            name = canonical(name, al)
            if eq:
                flags.append(Flag(name, _lit(val)))
            elif name in takes_value and i + 1 < n:
                flags.append(Flag(name, words[i + 1]))
                i += 1
            else:
                flags.append(Flag(name))
            i += 1
            continue
        whole = canonical(v, al)
        if whole != v or whole in takes_value:  # a known multi-letter single-dash option
            if whole in takes_value and i + 1 < n:
                flags.append(Flag(whole, words[i + 1]))
                i += 2
            else:
                flags.append(Flag(whole))
                i += 1
            continue
        body = v[1:]
        for j, ch in enumerate(body):
            name = canonical("-" + ch, al)
            if name in takes_value:
                rest = body[j + 1 :]
                if rest:
                    flags.append(Flag(name, _lit(rest)))
                elif i + 1 < n:
                    flags.append(Flag(name, words[i + 1]))
                    i += 1
                else:
                    flags.append(Flag(name))
                break
            flags.append(Flag(name))
        i += 1
    return Parsed(tuple(flags), tuple(pos)), n
