"""The sandbox profile a decision grants: what the file system and the network look like.

A call runs in the profile of the effects the decision found, never in more: a reader sees
the whole file system read-only, a writer gets the workspace roots writable (protected paths
stay read-only in every profile), and network exists only for the hosts the decision
allowed (through the egress proxy, ``bastion.exec.egress``). ``[exec] contain`` chooses
which calls the agent hooks rewrite to run in their profile.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

from bastion.call.effects import Effect
from bastion.exec.runner import ExecError
from bastion.policy.decision import Decision, Evaluation


class Filesystem(StrEnum):
    READ_ONLY = "read-only"
    WORKSPACE_WRITE = "workspace-write"


class Network(StrEnum):
    NONE = "none"
    HOSTS = "hosts"


class Contain(StrEnum):
    """``[exec] contain``."""

    ALLOWED = "allowed"  # calls allowed without a person
    ALL = "all"  # and calls a person approves (the prompt shows the contained command)
    OFF = "off"  # nothing is rewritten


#: Effects that change nothing on disk: such a call runs with the file system read-only.
READ_ONLY_EFFECTS = frozenset({Effect.READ, Effect.DB_READ, Effect.NETWORK})


@dataclass(frozen=True, slots=True)
class Profile:
    """``hosts`` is empty for no network; otherwise only these hosts, through the proxy."""

    filesystem: Filesystem = Filesystem.READ_ONLY
    hosts: tuple[str, ...] = ()
    #: ``agent:AGENT``: the agent CLI itself contained (``bastion.exec.agent_profile``).
    agent: str = ""

    @property
    def network(self) -> Network:
        return Network.HOSTS if self.hosts else Network.NONE

    @property
    def writable(self) -> bool:
        return self.filesystem is Filesystem.WORKSPACE_WRITE

    @property
    def label(self) -> str:
        """One line for a person: ``workspace-write, network: api.github.com``."""
        net = ", ".join(self.hosts) if self.hosts else "none"
        if self.agent:
            return f"agent:{self.agent}, network: egress proxy"
        return f"{self.filesystem.value}, network: {net}"

    def to_json(self) -> dict[str, Any]:
        return {"filesystem": self.filesystem.value, "network": self.network.value, "hosts": list(self.hosts)}

    @classmethod
    def from_json(cls, data: Any) -> Profile:
        if not isinstance(data, dict):
            raise ExecError("a sandbox profile must be an object")
        return parse_profile(str(data.get("filesystem", "")), data.get("hosts") or ())

    def argv(self) -> list[str]:
        """The ``bastion sandbox run`` options that select this profile."""
        out = ["--profile", f"agent:{self.agent}" if self.agent else self.filesystem.value]
        for host in self.hosts:
            out += ["--host", host]
        return out


def parse_profile(filesystem: str, hosts: Iterable[Any] = ()) -> Profile:
    if filesystem.startswith("agent:"):  # the agent CLI itself (``exec.agent_profile``)
        agent = filesystem[6:]
        if not agent or not agent.replace("-", "").replace("_", "").isalnum() or tuple(hosts):
            raise ExecError(f"{filesystem!r} is not an agent profile (agent:NAME, and no --host)")
        return Profile(Filesystem.WORKSPACE_WRITE, agent=agent)
    try:
        fs = Filesystem(filesystem)
    except ValueError:
        choices = ", ".join(f.value for f in Filesystem)
        raise ExecError(f"unknown sandbox profile {filesystem!r} (one of: {choices})") from None
    names = []
    for host in hosts:
        if not isinstance(host, str) or not host or any(c in host for c in "/ \t\n@"):
            raise ExecError(f"{host!r} is not a host name")
        names.append(host.lower())
    return Profile(fs, tuple(dict.fromkeys(names)))


def profile_for(evaluation: Evaluation, hosts: Sequence[str] = ()) -> Profile:
    """The profile of the effects ``evaluation`` found; network only when it found network
    and the hosts are known (unknown hosts: no network at all)."""
    effects = set(evaluation.effects)
    fs = Filesystem.READ_ONLY if effects <= READ_ONLY_EFFECTS else Filesystem.WORKSPACE_WRITE
    granted = tuple(hosts) if Effect.NETWORK in effects else ()
    return Profile(fs, tuple(dict.fromkeys(h.lower() for h in granted)))


def contains(contain: str, decision: Decision, *, by_person: bool) -> bool:
    """Does ``[exec] contain`` rewrite a call with this outcome? A denied call never runs;
    an ASK (the agent's own prompt) and a person's approval are contained only under "all",
    where the person sees the contained command before saying yes."""
    mode = Contain(contain)
    if mode is Contain.OFF or decision is Decision.DENY:
        return False
    if decision is Decision.ALLOW and not by_person:
        return True
    return mode is Contain.ALL


def shell_hosts(command: str) -> tuple[str, ...]:
    """The hosts a shell command names (what the decision judged, and so may reach)."""
    from bastion.shell.analysis import analyze

    analysis = analyze(command)
    return tuple(dict.fromkeys(_host(str(h)) for cmd in analysis.commands for h in cmd.hosts))


def _host(text: str) -> str:
    """A URL's host (the classifier records URLs or bare host names)."""
    if "://" in text:
        return (urlsplit(text).hostname or "").lower()
    return text.split("/", 1)[0].rsplit("@", 1)[-1].split(":", 1)[0].lower()
