"""The agent CLIs Bastion knows (the registry, ``bastion.agents``): executable names, how to
ask their version and help, and the config-override mechanisms they name. Anything else is
an unknown agent, read by the same generic reading of words (never refused for being unknown).

Only facts that the help cannot tell live here. Which flags exist and what they mean is
always read from the help of the command that will actually run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from bastion.agents.model import Agent, Override
from bastion.agents.registry import AGENTS
from bastion.launch.helptext import HelpText, parse_help

#: Runs ``argv`` without a terminal and returns what it printed (stdout then stderr).
Capture = Callable[[Sequence[str]], str]

_VERSION = re.compile(r"\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?")


def listed_in(override: Override, help_text: HelpText) -> bool:
    """Does the help list the override's mechanism, described with every one of its words?"""
    option = help_text.option(override.mechanism)
    text = option.description.lower() if option else ""
    return option is not None and all(w in text for w in override.words)


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


def _spec(record: Agent) -> AgentSpec:
    facts = record.launch
    return AgentSpec(record.name, facts.executables, facts.aliases, facts.overrides, True, facts.distrusted)


#: Every agent of the registry (``bastion.agents``), as launch reads it.
KNOWN: Mapping[str, AgentSpec] = MappingProxyType({a.name: _spec(a) for a in AGENTS})


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
