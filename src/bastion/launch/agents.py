"""The agent CLIs Bastion knows: executable names, how to ask their version and help, and
the config-override mechanisms they name. Anything else is an unknown agent, read by the
same generic reading of words (never refused for being unknown).

Only facts that the help cannot tell live here. Which flags exist and what they mean is
always read from the help of the command that will actually run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bastion.launch.helptext import HelpText, parse_help

#: Runs ``argv`` without a terminal and returns what it printed (stdout then stderr).
Capture = Callable[[Sequence[str]], str]

_VERSION = re.compile(r"\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?")

_CLAUDE_SANDBOX = (
    '{"sandbox":{"enabled":true,"failIfUnavailable":true,"autoAllowBashIfSandboxed":false,'
    '"allowUnsandboxedCommands":false,"network":{"allowedDomains":[]}},'
    '"permissions":{"deny":["WebFetch","WebSearch"]}}'
)


@dataclass(frozen=True, slots=True)
class Override:
    """A dimension set through a config override rather than a flag of its own.

    Used only when the help lists ``mechanism`` and its description has every word of
    ``words``; ``requires`` are args the mapping must also pass for the override to hold.
    """

    mechanism: str
    words: tuple[str, ...]
    value: str
    network: str
    requires: tuple[str, ...]
    note: str
    #: Programs the agent needs on PATH for the override to work at all (Claude Code's
    #: sandbox on Linux is bubblewrap + socat: without them it refuses to start).
    helpers: tuple[str, ...] = ()

    def listed_in(self, help_text: HelpText) -> bool:
        option = help_text.option(self.mechanism)
        text = option.description.lower() if option else ""
        return option is not None and all(w in text for w in self.words)


@dataclass(frozen=True, slots=True)
class AgentSpec:
    name: str
    executables: tuple[str, ...]
    aliases: tuple[tuple[str, str], ...] = ()  # subcommand alias → subcommand
    overrides: tuple[Override, ...] = ()
    known: bool = True
    #: (flag, choice) → why its name cannot be trusted: seen to act looser than it reads.
    distrusted: tuple[tuple[str, str, str], ...] = ()

    def subcommand(self, top: HelpText, agent_args: Sequence[str]) -> str | None:
        """The subcommand ``agent_args`` run, when its first word is one the help lists."""
        if not agent_args or agent_args[0].startswith("-"):
            return None
        word = dict(self.aliases).get(agent_args[0], agent_args[0])
        return word if word in top.commands else None


#: What Claude Code's sandbox runs on: bubblewrap and socat on Linux (macOS has its own).
_CLAUDE_SANDBOX_HELPERS = ("bwrap", "socat") if sys.platform.startswith("linux") else ()

KNOWN: Mapping[str, AgentSpec] = {
    spec.name: spec
    for spec in (
        AgentSpec(
            "claude",
            ("claude",),
            overrides=(
                Override(
                    "--settings",
                    ("settings", "json"),
                    _CLAUDE_SANDBOX,
                    "denied",
                    (),
                    "network denied through a config override, not a flag: --settings with a "
                    "sandbox block (Bash runs in Claude's sandbox with no allowed domains and "
                    "may not leave it; WebFetch and WebSearch denied); MCP servers run outside "
                    "that sandbox, and Claude refuses to start if the sandbox cannot",
                    helpers=_CLAUDE_SANDBOX_HELPERS,
                ),
            ),
        ),
        AgentSpec(
            "codex",
            ("codex",),
            aliases=(("e", "exec"),),
            overrides=(
                Override(
                    "--config",
                    ("override", "configuration"),
                    "sandbox_workspace_write.network_access=false",
                    "denied",
                    ("--sandbox", "workspace-write"),
                    "network denied through a config override, not a flag: "
                    "-c sandbox_workspace_write.network_access=false (holds for commands in "
                    "Codex's workspace-write sandbox; MCP servers run outside it)",
                ),
            ),
        ),
        AgentSpec(
            "gemini",
            ("gemini",),
            distrusted=(
                (
                    "--approval-mode",
                    "plan",
                    "Gemini CLI overrides plan mode to default (which can write after asking) "
                    "in a folder it does not trust, and its help does not say so",
                ),
            ),
        ),
        AgentSpec("qwen", ("qwen",)),
        AgentSpec("opencode", ("opencode",)),
        AgentSpec("pi", ("pi",)),
        AgentSpec("copilot", ("copilot",)),
    )
}


def spec_for(name: str) -> AgentSpec:
    """The known spec, or a generic one whose executable is the name itself."""
    return KNOWN.get(name) or AgentSpec(name, (name,), known=False)


def locate(spec: AgentSpec, path: str | None) -> str | None:
    for executable in spec.executables:
        found = shutil.which(executable, path=path)
        if found:
            return os.path.abspath(found)
    return None


def capture_output(argv: Sequence[str], timeout: float = 30.0) -> str:
    """Run a probe (``--help``, ``--version``): no terminal, no colour, bounded in time."""
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb"}
    try:
        done = subprocess.run(
            list(argv),
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
            env=env,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"<could not run {argv[0]}: {exc}>"
    return done.stdout + done.stderr


def version_of(path: str, capture: Capture) -> str:
    text = capture([path, "--version"])
    found = _VERSION.search(text)
    if found:
        return found.group(0)
    first = text.strip().splitlines()[:1]
    return first[0][:40] if first else "unknown"


@dataclass(frozen=True, slots=True)
class HelpRead:
    """The help of the command that will run: ``subcommand`` None for the top level."""

    help: HelpText
    subcommand: str | None
    rest: tuple[str, ...]  # agent args after the subcommand word


def read_help(spec: AgentSpec, path: str, agent_args: Sequence[str], capture: Capture) -> HelpRead:
    top = parse_help(capture([path, "--help"]))
    sub = spec.subcommand(top, agent_args)
    if sub is None:
        return HelpRead(top, None, tuple(agent_args))
    return HelpRead(parse_help(capture([path, sub, "--help"])), sub, tuple(agent_args[1:]))
