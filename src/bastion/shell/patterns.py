"""Command patterns for ``[commands]`` allow / deny lists and shell ``[[rule]]`` entries.

A pattern is words: the program name, then literal words, ``*`` (exactly one word) and a final
``*`` (zero or more further words). A word with glob characters (``*.py``) is matched with
``fnmatch`` against one argv word. Matching uses each simple command's normalised argv after
unwrapping (``sudo``, ``xargs``, ``bash -c`` …), never the raw string.

* allow is strict: literal words in place, a non-final ``*`` takes one literal word, only the
  final ``*`` may absorb run-time words; dynamic commands and programs spelled by a path
  outside the standard bin dirs never match.
* deny is broad: flags are compared as canonical sets (``-rf`` = ``-fr`` = ``-r -f`` =
  ``--recursive --force`` per the knowledge base's aliases) in any order; non-flag words must
  be the command's leading positionals in order.
"""

from __future__ import annotations

import fnmatch
import posixpath
import shlex
from dataclasses import dataclass

from bastion.shell import paths as P
from bastion.shell.flags import parse_args
from bastion.shell.model import SimpleCommand
from bastion.shell.programs import Spec, lookup
from bastion.shell.programs import vcs as V
from bastion.shell.words import Word, literal_word

_GLOB = frozenset("*?[")


@dataclass(frozen=True, slots=True)
class CommandPattern:
    text: str
    program: str
    words: tuple[str, ...]  # after the program, without a final "*"
    rest: bool  # a final "*" absorbs zero or more further words

    def matches_allow(self, cmd: SimpleCommand) -> bool:
        if cmd.dynamic or cmd.program != self.program or not cmd.argv:
            return False
        head = cmd.argv[0]
        if "/" in head and posixpath.dirname(P.normalise(head)) not in P.STANDARD_BIN_DIRS:
            return False
        args = cmd.argv[1:]
        dyn = {i - 1 for i in cmd.dynamic_words if i > 0}
        if "xargs" in cmd.wrappers and not self.rest:
            return False  # xargs appends words only known at run time
        if len(args) < len(self.words) or (not self.rest and len(args) != len(self.words)):
            return False
        return all(i not in dyn and _word_matches(p, args[i]) for i, p in enumerate(self.words))

    def matches_deny(self, cmd: SimpleCommand) -> bool:
        if cmd.dynamic or cmd.program != self.program:
            return False
        want_pos, want_flags = _view(self.program, [literal_word(w) for w in self.words])
        have_pos, have_flags = _view(self.program, [literal_word(a) for a in cmd.argv[1:]])
        if not want_flags <= have_flags:
            return False
        if len(have_pos) < len(want_pos) or (not self.rest and len(have_pos) > len(want_pos)):
            return False
        return all(_word_matches(p, have_pos[i]) for i, p in enumerate(want_pos))


def _word_matches(pattern: str, word: str) -> bool:
    if pattern == "*":
        return True
    if _GLOB & set(pattern):
        return fnmatch.fnmatchcase(word, pattern)
    return pattern == word


def compile_pattern(text: str) -> CommandPattern:
    """Compile ``"git log *"``; raises ValueError with the reason on a bad pattern."""
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"bad command pattern {text!r}: {exc}") from None
    if not words:
        raise ValueError("empty command pattern")
    program = words[0]
    if program == "*" or _GLOB & set(program):
        raise ValueError(f"command pattern {text!r} must start with a program name, not a glob")
    if "/" in program:
        raise ValueError(f"command pattern {text!r}: give the program name, not a path")
    rest = len(words) > 1 and words[-1] == "*"
    return CommandPattern(text, program, tuple(words[1:-1] if rest else words[1:]), rest)


def _view(program: str, args: list[Word]) -> tuple[list[str], set[str]]:
    """Positionals (subcommands included) and canonical flags, per the knowledge base."""
    spec = lookup(program)
    if spec is None:
        parsed, _ = parse_args(args)
        return [w.value or w.text for w in parsed.positionals], {f.name for f in parsed.flags}
    positionals: list[str] = []
    flags: set[str] = set()
    if program == "git":
        top, stop = parse_args(args, V.GIT_GLOBAL_VALUES, stop_at_positional=True)
        flags.update(f.name for f in top.flags)
        if stop < len(args):
            sub_name = args[stop].value or ""
            positionals.append(sub_name)
            sub = V.GIT_SUBCOMMANDS.get(sub_name, Spec())
            parsed, _ = parse_args(args[stop + 1 :], sub.takes_value | V.GIT_SUB_VALUES,
                                   sub.aliases)
            flags.update(f.name for f in parsed.flags)
            positionals.extend(w.value or w.text for w in parsed.positionals)
            if sub_name == "push" and any(p.startswith("+") for p in positionals[2:]):
                flags.add("-f")  # `git push origin +main` is a force push
        return positionals, flags
    spec_now: Spec = spec
    rest = list(args)
    while spec_now.subcommands is not None:
        parsed, stop = parse_args(rest, spec_now.takes_value, spec_now.aliases,
                                  stop_at_positional=True)
        flags.update(f.name for f in parsed.flags)
        if stop >= len(rest):
            return positionals, flags
        sub_name = rest[stop].value or rest[stop].text
        positionals.append(sub_name)
        nxt = spec_now.subcommands.get(sub_name) or spec_now.other_sub or Spec()
        spec_now, rest = nxt, rest[stop + 1 :]
    parsed, _ = parse_args(rest, spec_now.takes_value, spec_now.aliases)
    flags.update(f.name for f in parsed.flags)
    positionals.extend(w.value or w.text for w in parsed.positionals)
    return positionals, flags


__all__ = ["CommandPattern", "compile_pattern"]
