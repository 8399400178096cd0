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

from bastion.approval.model import NON_GRANTABLE_EFFECTS, Grant, Scope, grantable
from bastion.call.effects import Effect
from bastion.call.model import ToolCall
from bastion.shell.programs.registry import lookup
from bastion.shell.programs.spec import Spec

__all__ = [
    "NON_GRANTABLE_EFFECTS",
    "CommandPattern",
    "covers",
    "find_grant",
    "grantable",
    "in_scope",
    "parse_pattern",
    "plain_argv",
    "shell_argv",
    "suggest_pattern",
]

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


#: A prefix is offered only for commands doing no more than this: for code, writes, deletes
#: and installs the later words pick *what* runs or changes (a script, a package).
_PREFIX_EFFECTS = frozenset({Effect.READ, Effect.NETWORK, Effect.DB_READ})


def _closed(spec: Spec) -> bool:
    """True when the knowledge base says no further argument changes what ``spec`` does:
    no handler deciding from the words, no flag that adds an effect, no path, host or
    package arguments, no subcommand still to choose, and only reading effects."""
    return (
        spec.handler is None
        and spec.subcommands is None
        and not spec.hosts
        and spec.args is None
        and not spec.dest_last
        and spec.effects <= _PREFIX_EFFECTS
        and not any(rule.effects or rule.args or rule.value for rule in spec.flags.values())
    )


def suggest_pattern(argv: tuple[str, ...] | None) -> str | None:
    """The narrowest pattern to offer for "approve always": the exact words by default. A
    prefix (``cargo build *``) only when the program and its subcommands are a *closed*
    entry of the knowledge base, so the ``*`` cannot reach a flag, path, host or package
    that raises the effect; never a bare program. The knowledge base is read, not changed."""
    if not argv or any(set(word) & _GLOB_CHARS for word in argv):
        return None  # a glob character cannot be written in a pattern
    exact = CommandPattern(argv, prefix=False).text
    spec = lookup(argv[0])
    consumed = 1
    while spec is not None and spec.subcommands is not None and consumed < len(argv):
        spec = spec.subcommands.get(argv[consumed])
        consumed += 1
    if spec is None or not _closed(spec) or consumed < 2 or consumed >= len(argv):
        return exact
    return CommandPattern(argv[:consumed], prefix=True).text


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
