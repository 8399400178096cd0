"""``[[rule]]`` patterns: compiled once per family, matched per subject, self-tested at load.

A rule's ``pattern`` means, by ``tool``: shell — a command pattern matched against each
simple command's normalised argv; read/write/edit/list/glob/grep — a path glob; fetch — a
host pattern (``*.x.com``); mcp — ``SERVER/TOOL`` with globs; install — ``MANAGER PACKAGE``
globs (every package must match); code — a language glob; db — ``OPERATION TARGET`` globs.
No pattern matches every call of that tool.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bastion.call.families import Family
from bastion.policy.globs import Glob, GlobError, compile_glob
from bastion.policy.network import Target, host_matches, host_pattern_error

if TYPE_CHECKING:
    from bastion.shell.model import SimpleCommand
    from bastion.shell.patterns import CommandPattern

PATH_FAMILIES = frozenset({Family.READ, Family.WRITE, Family.EDIT, Family.LIST, Family.GLOB, Family.GREP})


@dataclass(frozen=True, slots=True)
class RuleMatcher:
    family: Family
    text: str | None
    glob: Glob | None = None
    command: CommandPattern | None = None
    words: tuple[re.Pattern[str], ...] = ()

    def matches_path(self, path: str) -> bool:
        return self.glob is None or self.glob.regex.search(path.lstrip("/")) is not None

    def matches_command(self, cmd: SimpleCommand, *, allow: bool) -> bool:
        if self.command is None:
            return True
        return self.command.matches_allow(cmd) if allow else self.command.matches_deny(cmd)

    def matches_host(self, target: Target | None) -> bool:
        if self.text is None:
            return True
        return target is not None and host_matches(self.text, target)

    def matches_words(self, *words: str) -> bool:
        """For mcp/code/install/db: each pattern word globs the word at that position."""
        if not self.words:
            return True
        return len(words) == len(self.words) and all(
            p.fullmatch(w) is not None for p, w in zip(self.words, words, strict=True)
        )


def compile_matcher(tool: str, pattern: str | None, *, base: str, home: str) -> RuleMatcher:
    """Raises ValueError with a message for a bad tool name or pattern."""
    try:
        family = Family(tool)
    except ValueError:
        names = ", ".join(f.value for f in Family)
        raise ValueError(f"unknown tool {tool!r}: expected one of {names}") from None
    if pattern is None:
        return RuleMatcher(family, None)
    if not pattern.strip():
        raise ValueError("empty pattern: leave 'pattern' out to match every call of the tool")
    if family is Family.SHELL:
        from bastion.shell.patterns import compile_pattern

        return RuleMatcher(family, pattern, command=compile_pattern(pattern))
    if family in PATH_FAMILIES:
        try:
            return RuleMatcher(family, pattern, glob=compile_glob(pattern, source="", base=base, home=home))
        except GlobError as exc:
            raise ValueError(str(exc)) from exc
    if family is Family.FETCH:
        error = host_pattern_error(pattern)
        if error:
            raise ValueError(error)
        return RuleMatcher(family, pattern)
    if family is Family.MCP:
        if pattern.count("/") != 1:
            raise ValueError(f"mcp pattern {pattern!r} must be SERVER/TOOL (globs allowed)")
        return RuleMatcher(family, pattern, words=(_word(pattern),))
    return RuleMatcher(family, pattern, words=tuple(_word(w) for w in pattern.split()))


def _word(glob: str) -> re.Pattern[str]:
    return re.compile(fnmatch.translate(glob))
