"""``[[rule]]`` patterns: compiled once per family, matched per subject, self-tested at load.

A rule's ``pattern`` means, by ``tool``: shell — a command pattern matched against each
simple command's normalised argv; read/write/edit/list/glob/grep — a path glob; fetch — a
host pattern (``*.x.com``); mcp — ``SERVER/TOOL`` with globs; install — ``MANAGER PACKAGE``
globs (every package must match); code — a language glob; db — ``OPERATION TARGET`` globs.
No pattern matches every call of that tool.
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bastion.call.model import Family
from bastion.errors import PolicyError
from bastion.policy.globs import Glob, GlobError, compile_glob
from bastion.policy.network import Target, host_matches, host_pattern_error

if TYPE_CHECKING:
    from bastion.policy.compiled import Layer, Policy, Rule
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


def rule_matches_example(rule: Rule, example: str, policy: Policy) -> bool:
    """Does ``rule`` match the example call argument written in its ``match``/``not_match``?"""
    m = rule.matcher
    if m.family is Family.SHELL:
        from bastion.shell import analyze

        allow = rule.action in ("allow", "classify")
        return any(m.matches_command(c, allow=allow) for c in analyze(example).commands)
    if m.family in PATH_FAMILIES:
        expanded = policy.home + example[1:] if example.startswith("~") else example
        return m.matches_path(os.path.normpath(os.path.join(rule.base, expanded)))
    if m.family is Family.FETCH:
        from bastion.policy.network import UrlError, parse_target

        try:
            return m.matches_host(parse_target(example))
        except UrlError:
            return False
    if m.family is Family.MCP:
        return m.matches_words(example)
    return m.matches_words(*example.split())


def check_rule_examples(policy: Policy, layers: list[Layer]) -> None:
    """A policy tests itself: a failing ``match``/``not_match`` example is a load error."""
    for rule in policy.rules:
        for example in rule.match:
            if not rule_matches_example(rule, example, policy):
                _fail(rule, f"match example {example!r} does not match pattern {rule.pattern!r}")
        for example in rule.not_match:
            if rule_matches_example(rule, example, policy):
                _fail(rule, f"not_match example {example!r} matches pattern {rule.pattern!r}")


def _fail(rule: Rule, message: str) -> None:
    file, _, line = rule.source.rpartition(":")
    if not file or not line.isdigit():
        file, line = rule.source, ""
    raise PolicyError(message, file=file, line=int(line) if line else None, key=f"{rule.rule_id}.match")
