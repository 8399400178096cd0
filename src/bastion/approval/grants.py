"""Standing grants as pure functions: patterns, what a grant covers, what to suggest.

A grant is the exact call by default. A *pattern* grant applies to shell calls only and
matches a single plain command whose words start with the pattern's words
(``git push origin *``) or equal them (no ``*``). A plain command has no operators,
redirections, substitutions, expansions or leading assignments: anything else can only be
granted exactly, so a grant for ``git push origin *`` never covers
``git push origin main && rm -rf ~``. A pattern of one program word (``git *``) is a "bare
program" grant: accepted only when a person types it, never suggested.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from bastion.approval.model import Grant, Scope
from bastion.call.model import ToolCall

WILDCARD = "*"
_SHELL_SPECIAL = set("$`\n\r\\") | {"\x00"}
_OPERATOR_CHARS = set(";&|<>()")
_GLOB_CHARS = set("*?[]{}~")


@dataclass(frozen=True, slots=True)
class CommandPattern:
    words: tuple[str, ...]
    prefix: bool  # ends with "*": any further arguments

    @property
    def bare_program(self) -> bool:
        return self.prefix and len(self.words) == 1

    @property
    def text(self) -> str:
        return " ".join([*map(shlex.quote, self.words), *([WILDCARD] if self.prefix else [])])

    def matches(self, argv: tuple[str, ...]) -> bool:
        if self.prefix:
            return argv[: len(self.words)] == self.words
        return argv == self.words


def plain_argv(command: str) -> tuple[str, ...] | None:
    """The words of a single plain command, or None when the command is anything more."""
    if not command.strip() or any(ch in _SHELL_SPECIAL for ch in command):
        return None
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = tuple(lexer)
    except ValueError:  # unbalanced quotes
        return None
    if not words or any(w and set(w) <= _OPERATOR_CHARS for w in words):
        return None
    if "=" in words[0] or words[0].startswith("-"):
        return None  # an assignment prefix (FOO=1 cmd) or a flag is not a program
    return words


def parse_pattern(text: str) -> CommandPattern:
    """``git push origin *`` → words + prefix flag; raises ValueError saying how to fix it."""
    argv = plain_argv(text)
    if argv is None:
        raise ValueError(f"pattern {text!r} must be one plain command (no ;, |, &&, >, $, `…`)")
    prefix = argv[-1] == WILDCARD
    words = argv[:-1] if prefix else argv
    if not words:
        raise ValueError("a pattern needs at least the program name, e.g. 'git push origin *'")
    for word in words:
        if set(word) & _GLOB_CHARS:
            raise ValueError(f"only a final '*' is a wildcard; {word!r} is not allowed in a pattern")
    return CommandPattern(words=words, prefix=prefix)


def shell_argv(call: ToolCall) -> tuple[str, ...] | None:
    command = call.args.get("command") if call.tool == "shell" else None
    return plain_argv(command) if isinstance(command, str) else None


def suggest_pattern(argv: tuple[str, ...] | None) -> str | None:
    """A subcommand-level prefix to offer: the leading non-option words minus the last
    (``git push origin main`` → ``git push origin *``); never a bare program."""
    if not argv:
        return None
    leading: list[str] = []
    for word in argv:
        if word.startswith("-") or set(word) & _GLOB_CHARS or "/" in word:
            break
        leading.append(word)
    # When options or paths follow, every leading word is the prefix; else all but the last.
    words = (leading if len(argv) > len(leading) else leading[:-1])[:3]
    return CommandPattern(tuple(words), prefix=True).text if len(words) >= 2 else None


def in_scope(grant: Grant, *, project: str, session: str | None) -> bool:
    if grant.scope is Scope.SESSION:
        return session is not None and grant.scope_value == session
    return grant.scope_value == project


def covers(grant: Grant, call: ToolCall, *, call_key: str, project: str) -> bool:
    """Does ``grant`` cover ``call``? (Scope, then exact key or pattern.)"""
    if grant.tool != call.tool or not in_scope(grant, project=project, session=call.session):
        return False
    if grant.pattern is None:
        return grant.key == call_key
    argv = shell_argv(call)
    if argv is None:
        return False
    try:
        return parse_pattern(grant.pattern).matches(argv)
    except ValueError:
        return False


def find_grant(grants: list[Grant], call: ToolCall, *, call_key: str, project: str) -> Grant | None:
    for grant in grants:
        if covers(grant, call, call_key=call_key, project=project):
            return grant
    return None
