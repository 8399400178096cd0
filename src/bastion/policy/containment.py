"""The sandbox profile a decision grants: what the file system and the network look like.

A value of the decision (``Evaluation.profile``), computed once by the Gatekeeper's
containment stage from what the gate judged: the effects it found and the hosts its shell
analysis saw. A reader sees the whole file system read-only, a writer gets the workspace
roots writable (protected paths stay read-only in every profile), and network exists only
for the hosts the decision allowed (through the egress proxy). ``bastion.exec`` runs a
profile; the agent adapters render it into their wire format. Pure values: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

from bastion.call.effects import Effect

if TYPE_CHECKING:
    from bastion.policy.decision import Evaluation
    from bastion.shell.model import ShellAnalysis


class Filesystem(StrEnum):
    READ_ONLY = "read-only"
    WORKSPACE_WRITE = "workspace-write"
    #: The workspace writable but its package environments (a venv, ``node_modules``) kept
    #: read-only: code the gate did not read (``shell.contained-code``) may change the project,
    #: which a person reviews, not what every later interpreter, editor and tool of the
    #: project loads unreviewed (a ``.pth`` file, ``.venv/bin/python``, ``node_modules/.bin``).
    WORKSPACE_CODE = "workspace-code"


class Network(StrEnum):
    NONE = "none"
    HOSTS = "hosts"


class Contain(StrEnum):
    """``[exec] contain``: which answers run contained."""

    ALL = "all"  # every allowed call and every call a person approves (the default)
    ALLOWED = "allowed"  # only calls allowed without a person; approved ones run as written
    OFF = "off"  # nothing runs contained


#: Effects that change nothing on disk: such a call runs with the file system read-only.
READ_ONLY_EFFECTS = frozenset({Effect.READ, Effect.DB_READ, Effect.NETWORK})


class ProfileError(ValueError):
    """A profile named on a command line or in JSON that is not one."""


@dataclass(frozen=True, slots=True)
class Profile:
    """``hosts`` is empty for no network; otherwise only these hosts, through the proxy
    (a host with a port, ``github.com:22``, is an ssh destination: that port only, with the
    ssh agent's socket, ``bastion.exec.egress.ssh``).
    ``writes``: absolute paths outside the workspace a person approved the call to write
    (the paths it names), writable in this run only; protected paths stay read-only."""

    filesystem: Filesystem = Filesystem.READ_ONLY
    hosts: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    #: ``agent:AGENT``: the agent CLI itself contained (``bastion.exec.agent_profile``).
    agent: str = ""

    @property
    def network(self) -> Network:
        return Network.HOSTS if self.hosts else Network.NONE

    @property
    def ssh_hosts(self) -> tuple[str, ...]:
        """The hosts named with a port (``github.com:22``): ssh destinations (an ssh remote)."""
        return tuple(h for h in self.hosts if ssh_port(h) is not None)

    @property
    def writable(self) -> bool:
        return self.filesystem is not Filesystem.READ_ONLY

    @property
    def packages_readonly(self) -> bool:
        """Do the workspace's package environments stay read-only (``workspace-code``)?"""
        return self.filesystem is Filesystem.WORKSPACE_CODE

    @property
    def label(self) -> str:
        """One line for a person: ``workspace-write, network: api.github.com``."""
        if self.agent:
            return f"agent:{self.agent}, network: egress proxy"
        net = ", ".join(self.hosts) if self.hosts else "none"
        also = f", also writes: {', '.join(self.writes)}" if self.writes else ""
        return f"{self.filesystem.value}, network: {net}{also}"

    def to_json(self) -> dict[str, Any]:
        data = {"filesystem": self.filesystem.value, "network": self.network.value, "hosts": list(self.hosts)}
        if self.writes:  # only when a person approved writes outside the workspace
            data["writes"] = list(self.writes)
        return data

    @classmethod
    def from_json(cls, data: Any) -> Profile:
        if not isinstance(data, dict):
            raise ProfileError("a sandbox profile must be an object")
        return parse_profile(
            str(data.get("filesystem", "")), data.get("hosts") or (), data.get("writes") or ()
        )

    def argv(self) -> list[str]:
        """The ``bastion sandbox run`` options that select this profile."""
        out = ["--profile", f"agent:{self.agent}" if self.agent else self.filesystem.value]
        for host in self.hosts:
            out += ["--host", host]
        for path in self.writes:
            out += ["--write", path]
        return out


class Prepared(Protocol):
    """A contained run built for one call before its answer is recorded
    (``bastion.exec.prepared.PreparedRun``): the agent runs :meth:`shell_command` instead of
    the call's command, a shell that execs bubblewrap with everything already decided, so
    no Python starts for the call."""

    @property
    def ref(self) -> str:
        """The run's id (its files under the state dir; its exit, once settled, in the ledger)."""
        ...

    def shell_command(self, original: str, timeout: float | None = None) -> str:
        """The line that runs ``original`` (byte for byte) in the sandbox, killed after
        ``timeout`` seconds (None: the configured limit)."""
        ...


def parse_profile(filesystem: str, hosts: Iterable[Any] = (), writes: Iterable[Any] = ()) -> Profile:
    """A profile from its name, hosts and extra writable paths; ProfileError for anything else.
    ``agent:NAME`` is the agent CLI itself contained, with no host or write of its own."""
    if filesystem.startswith("agent:"):
        agent = filesystem[len("agent:") :]
        if (
            not agent
            or not agent.replace("-", "").replace("_", "").isalnum()
            or tuple(hosts)
            or tuple(writes)
        ):
            raise ProfileError(
                f"{filesystem!r} is not an agent profile (agent:NAME, and no --host or --write)"
            )
        return Profile(Filesystem.WORKSPACE_WRITE, agent=agent)
    try:
        fs = Filesystem(filesystem)
    except ValueError:
        choices = ", ".join(f.value for f in Filesystem)
        raise ProfileError(f"unknown sandbox profile {filesystem!r} (one of: {choices})") from None
    names = []
    for host in hosts:
        if not isinstance(host, str) or not host or any(c in host for c in "/ \t\n@"):
            raise ProfileError(f"{host!r} is not a host name")
        names.append(host.lower())
    paths = []
    for path in writes:
        if not isinstance(path, str) or not path.startswith("/") or any(c in path for c in "\0\n"):
            raise ProfileError(f"{path!r} is not an absolute path")
        paths.append(path)
    return Profile(fs, tuple(dict.fromkeys(names)), tuple(dict.fromkeys(paths)))


def profile_for(evaluation: Evaluation, hosts: Sequence[str] = ()) -> Profile:
    """The profile of the effects ``evaluation`` found; network only when it found network
    and the hosts are known (unknown hosts: no network at all). (Workspace code the gate did
    not read is narrowed further: ``contained_code.code_profile``.)"""
    effects = set(evaluation.effects)
    fs = Filesystem.READ_ONLY if effects <= READ_ONLY_EFFECTS else Filesystem.WORKSPACE_WRITE
    granted = tuple(hosts) if Effect.NETWORK in effects else ()
    return Profile(fs, tuple(dict.fromkeys(h.lower() for h in granted)))


def analysis_hosts(analysis: ShellAnalysis) -> tuple[str, ...]:
    """The hosts a shell analysis found the command reaches (what the decision judged)."""
    return tuple(dict.fromkeys(host_of(str(h)) for cmd in analysis.commands for h in cmd.hosts))


def ssh_port(host: str) -> int | None:
    """The port of a profile host that names one (an ssh destination), else None."""
    head, colon, port = host.rpartition(":")
    if not colon or not port.isdigit() or (":" in head and not head.endswith("]")):
        return None
    return int(port)


def host_of(text: str) -> str:
    """A URL's host (the classifier records URLs or bare host names)."""
    if "://" in text:
        return (urlsplit(text).hostname or "").lower()
    return text.split("/", 1)[0].rsplit("@", 1)[-1].split(":", 1)[0].lower()
