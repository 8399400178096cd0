"""Split a command's arguments into canonical flags and positionals.

``-rf`` becomes ``-r -f``, ``--opt=value`` is split, ``--`` ends the options, and aliases
from the knowledge base map every spelling to one canonical flag (``--recursive`` → ``-r``).
With the program's option table (``known``), an abbreviated long option resolves the way GNU
getopt does (``--out`` → ``--output`` when that is the only option it starts), so an
abbreviation cannot pass for an unknown harmless option; ``-20`` is the count ``-#``.
This is used only for classification and deny matching; ``argv`` keeps the words as written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bastion.shell.records import builder
from bastion.shell.words import Word, new_word

#: The canonical name of a `-NUM` count option.
NUMERIC = "-#"


@dataclass(frozen=True, slots=True)
class Flag:
    name: str  # canonical
    value: Word | None = None
    index: int = 0  # position of the word (in the list parsed) that holds the option
    inline: bool = False  # the value was attached (--opt=value, -n5)
    text: str = ""  # the option as written


@dataclass(frozen=True, slots=True)
class Parsed:
    flags: tuple[Flag, ...]
    positionals: tuple[Word, ...]

    def has(self, *names: str) -> bool:
        return any(f.name in names for f in self.flags)

    def values(self, *names: str) -> list[Word]:
        return [f.value for f in self.flags if f.name in names and f.value is not None]


_new_flag = builder(Flag)
_new_parsed = builder(Parsed)


def _lit(text: str) -> Word:
    return new_word(text, text, text)


def canonical(name: str, aliases: Mapping[str, str]) -> str:
    return aliases.get(name, name)


def _long_name(name: str, aliases: Mapping[str, str], known: frozenset[str] | None) -> str:
    """The canonical long option, resolving a unique abbreviation among the known ones."""
    name = aliases.get(name, name)
    if known is None or name in known:
        return name
    hits = {aliases.get(k, k) for k in (*known, *aliases) if k.startswith(name) and k.startswith("--")}
    return hits.pop() if len(hits) == 1 else name


def parse_args(
    words: Sequence[Word],
    takes_value: frozenset[str] = frozenset(),
    aliases: Mapping[str, str] | None = None,
    stop_at_positional: bool = False,
    known: frozenset[str] | None = None,
    numeric: bool = False,
    optional: frozenset[str] = frozenset(),
    pairs: frozenset[str] = frozenset(),
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
                return _new_parsed(tuple(flags), tuple(pos)), i
            pos.append(w)
            i += 1
            continue
        if v == "--":
            pos.extend(words[i + 1 :])
            return _new_parsed(tuple(flags), tuple(pos)), n
        if v.startswith("--"):
            raw, eq, val = v.partition("=")
            name = _long_name(raw, al, known)
            if eq:
                flags.append(_new_flag(name, _lit(val), i, True, v))
            elif name in pairs and i + 2 < n:  # --arg NAME VALUE: the value is the second
                flags.append(_new_flag(name, words[i + 2], i, False, v))
                i += 2
            elif name in takes_value and name not in optional and i + 1 < n:
                flags.append(_new_flag(name, words[i + 1], i, False, v))
                i += 1
            else:
                flags.append(_new_flag(name, None, i, False, v))
            i += 1
            continue
        whole = al.get(v, v)
        if whole != v or whole in takes_value or (known is not None and whole in known):
            if whole in takes_value and i + 1 < n:  # a known multi-letter single-dash option
                flags.append(_new_flag(whole, words[i + 1], i, False, v))
                i += 2
            else:
                flags.append(_new_flag(whole, None, i, False, v))
                i += 1
            continue
        body = v[1:]
        if numeric and body.isdigit():
            flags.append(_new_flag(NUMERIC, _lit(body), i, True, v))
            i += 1
            continue
        for j, ch in enumerate(body):
            short = "-" + ch
            name = al.get(short, short)
            if name in takes_value:
                rest = body[j + 1 :]
                if rest:
                    flags.append(_new_flag(name, _lit(rest), i, True, v))
                elif i + 1 < n:
                    flags.append(_new_flag(name, words[i + 1], i, False, v))
                    i += 1
                else:
                    flags.append(_new_flag(name, None, i, False, v))
                break
            flags.append(_new_flag(name, None, i, False, v))
        i += 1
    return _new_parsed(tuple(flags), tuple(pos)), n
