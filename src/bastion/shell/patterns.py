"""Command patterns for ``[commands]`` allow / deny lists and shell ``[[rule]]`` entries.

A pattern is words: the program name, then literal words, ``*`` (exactly one word) and a final
``*`` (zero or more further words). A word with glob characters (``*.py``) is matched with
``fnmatch`` against one argv word. Matching uses each simple command's normalised argv after
unwrapping (``sudo``, ``xargs``, ``bash -c`` …), never the raw string.

* allow is strict: literal words in place, a non-final ``*`` takes one literal word, only the
  final ``*`` may absorb run-time words; dynamic commands and programs spelled by a path
  outside the standard bin dirs never match. An allow entry grants only the program's base
  effect class: a word the knowledge base maps to a stronger effect (``find . -delete``,
  ``sed '1e id'``, an unknown option) must be a literal word of the pattern
  (``find * -delete``), and an effect no word raised (an assignment such as
  ``LD_PRELOAD=…``) is never covered.
* deny is broad: flags are compared as canonical sets (``-rf`` = ``-fr`` = ``-r -f`` =
  ``--recursive --force`` per the knowledge base's aliases) in any order; non-flag words must
  be the command's leading positionals in order.
"""

from __future__ import annotations

import fnmatch
import posixpath
import shlex
from dataclasses import dataclass

from bastion.call.effects import HARDLINE_EFFECTS, Effect
from bastion.shell import paths as P
from bastion.shell.flags import parse_args
from bastion.shell.model import Access, SimpleCommand
from bastion.shell.programs import vcs as V
from bastion.shell.programs.registry import lookup
from bastion.shell.programs.spec import Spec
from bastion.shell.words import Word, literal_word

_GLOB = frozenset("*?[")


@dataclass(frozen=True, slots=True)
class CommandPattern:
    text: str
    program: str
    words: tuple[str, ...]  # after the program, without a final "*"
    rest: bool  # a final "*" absorbs zero or more further words

    def matches_allow(self, cmd: SimpleCommand) -> bool:
        return self._allow_shape(cmd) and self.uncovered(cmd) is None

    def uncovered(self, cmd: SimpleCommand) -> str | None:
        """Why this entry, though its words match, does not cover ``cmd``: the first word
        raising an effect above the program's base class that no literal word names, with
        an entry that would cover it; None when it covers every effect."""
        literal = {i + 1 for i, w in enumerate(self.words) if not _GLOB & set(w)}
        # what the program, and the words the entry names literally, do (`git stash *`)
        base = _base(cmd) | {e for i, e in cmd.raising if i in literal}
        for index, effect in cmd.raising:
            if effect in base:
                continue
            if 0 < index < len(cmd.argv):
                return (
                    f"'{self.text}' does not cover {cmd.argv[index]!r} ({effect.value}): "
                    f"an entry must name it, e.g. '{suggest(cmd, self)}'"
                )
            return f"'{self.text}' cannot cover {effect.value} that comes from no argument"
        raised = {e for _, e in cmd.raising}
        stray = cmd.effects - base - raised - _FLOORS - _redirected(cmd)
        if stray:
            names = ", ".join(sorted(e.value for e in stray))
            return (
                f"'{self.text}' cannot cover {names}: it comes from no argument "
                "(an assignment, a wrapper or the environment)"
            )
        return None

    def gap(self, cmd: SimpleCommand) -> str | None:
        """For explain: why an entry whose words match ``cmd`` still does not allow it."""
        return self.uncovered(cmd) if self._allow_shape(cmd) else None

    def _allow_shape(self, cmd: SimpleCommand) -> bool:
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


#: Hardline classes ask on their own whatever matches; a pattern never lifts them.
_FLOORS = frozenset({Effect.PRIVILEGE, *HARDLINE_EFFECTS})


def _base(cmd: SimpleCommand) -> frozenset[Effect]:
    """The effects an allow entry for ``cmd``'s program grants: its base class and reading."""
    if cmd.base_effects is not None:
        base = cmd.base_effects
    else:
        base = frozenset() if cmd.known else frozenset({Effect.UNKNOWN})
    return base | {Effect.READ}


def _redirected(cmd: SimpleCommand) -> frozenset[Effect]:
    """A redirection's write is checked by the path policy on its own target."""
    if any(p.access is Access.WRITE and p.why.startswith("redirection") for p in cmd.paths):
        return frozenset({Effect.WRITE})
    return frozenset()


def suggest(cmd: SimpleCommand, pattern: CommandPattern | None = None) -> str:
    """The narrowest entry covering ``cmd``: raising words literal, the others ``*``."""
    raising = {i for i, e in cmd.raising if e not in _base(cmd)}
    keep = len(pattern.words) if pattern else 0
    words = [cmd.program or cmd.argv[0]]
    for i, word in enumerate(cmd.argv[1:], 1):
        if i <= keep and pattern is not None and not _GLOB & set(pattern.words[i - 1]):
            words.append(word)
        else:
            words.append(word if i in raising else "*")
    trailing = len(words)
    while trailing > 1 and words[trailing - 1] == "*":
        trailing -= 1
    if trailing < len(words):  # the words after the last literal: one final `*`
        words = [*words[:trailing], "*"]
    return shlex.join(words).replace("'*'", "*")


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
            parsed, _ = parse_args(args[stop + 1 :], sub.takes_value | V.GIT_SUB_VALUES, sub.aliases)
            flags.update(f.name for f in parsed.flags)
            positionals.extend(w.value or w.text for w in parsed.positionals)
            if sub_name == "push" and any(p.startswith("+") for p in positionals[2:]):
                flags.add("-f")  # `git push origin +main` is a force push
        return positionals, flags
    spec_now: Spec = spec
    rest = list(args)
    while spec_now.subcommands is not None:
        parsed, stop = parse_args(rest, spec_now.takes_value, spec_now.aliases, stop_at_positional=True)
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
