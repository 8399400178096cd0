"""The one interface every backend implements: ``Runner.run(RunSpec) -> RunResult``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from bastion.errors import BastionError

if TYPE_CHECKING:
    from bastion.exec.egress.binding import EgressBinding


class ExecError(BastionError):
    """A command could not be started (not: it ran and failed - that is a RunResult)."""


class SandboxUnavailable(ExecError):
    """No usable sandbox, and running without one was not explicitly allowed."""

    hint = (
        "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install "
        "bubblewrap); for local development only, BASTION_ALLOW_UNSANDBOXED=1 runs commands "
        "on the host without an OS boundary"
    )


@dataclass(frozen=True, slots=True)
class Limits:
    """Per-child ceilings. ``nice`` always applies; the prlimit ones only when > 0. The
    containment ones default to ``[exec]``'s defaults (0 / False: off)."""

    nice: int = 10
    max_memory_mb: int = 0
    max_cpu_seconds: int = 0
    max_processes: int = 512  # cgroup pids.max
    max_resident_mb: int = 4096  # cgroup memory limit
    tmp_size_mb: int = 512  # the private /tmp
    seccomp: bool = True


def _frozen(value: Mapping[str, str]) -> Mapping[str, str]:
    return MappingProxyType(dict(value))


@dataclass(frozen=True, slots=True)
class RunSpec:
    """What to run and the boundary around it.

    ``env`` is the child's whole environment (already filtered by the allow-list);
    ``secrets`` are added to it for this child only, are masked in its output and are
    kept out of ``repr`` so they cannot leak into a log line or an error message.
    """

    argv: tuple[str, ...]
    cwd: str
    env: Mapping[str, str] = field(default_factory=dict)
    stdin: bytes | None = None
    timeout: float = 30.0
    max_output_bytes: int = 10_000_000
    network: bool = False
    writable_roots: tuple[str, ...] = ()
    readonly_roots: tuple[str, ...] = ()
    hidden_paths: tuple[str, ...] = ()
    limits: Limits = Limits()
    secrets: Mapping[str, str] = field(default_factory=dict, repr=False)
    #: The egress proxy this run reaches the network through (bastion.exec.egress);
    #: needs ``network=False``: the proxy is then the only way out.
    egress: EgressBinding | None = None
    #: The only hosts the run may reach (through the egress proxy); see ``network``.
    hosts: tuple[str, ...] = ()
    #: Protected paths that did not exist: if the run creates one, it is moved to ``quarantine``.
    swept: tuple[str, ...] = ()
    quarantine: str = ""
    #: Protected symlinks (path, target): put back after the run if it replaced them.
    links: tuple[tuple[str, str], ...] = ()
    #: The profile's name, for the result and the ledger ("" when built without one).
    profile: str = ""

    def __post_init__(self) -> None:
        if not self.argv:
            raise ExecError("nothing to run: empty argv")
        if self.timeout <= 0 or self.max_output_bytes <= 0:
            raise ExecError("timeout and max_output_bytes must be positive")
        object.__setattr__(self, "argv", tuple(self.argv))
        object.__setattr__(self, "env", _frozen(self.env))
        object.__setattr__(self, "secrets", _frozen(self.secrets))

    def child_env(self) -> dict[str, str]:
        egress = self.egress.env if self.egress is not None else {}
        return {**self.env, **self.secrets, **egress}


@dataclass(frozen=True, slots=True)
class RunResult:
    """How a run ended. ``exit_code`` is None when the run was killed at the timeout;
    a child killed by a signal reports ``128 + signal`` like a shell does."""

    exit_code: int | None
    stdout: str
    stderr: str
    truncated: bool
    timed_out: bool
    duration: float
    runner: str
    #: Protected paths the run created, moved out of the way afterwards.
    swept: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "exit_code": self.exit_code,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "truncated": self.truncated,
            "timed_out": self.timed_out,
            "duration": round(self.duration, 6),
            "runner": self.runner,
            **({"swept": list(self.swept)} if self.swept else {}),
        }


class Runner(Protocol):
    """Runs one command to completion; never raises for a command that ran and failed."""

    #: Short backend name ("bubblewrap", "unsafe-host").
    name: str
    #: True when the child runs inside an OS boundary.
    sandboxed: bool

    def run(self, spec: RunSpec) -> RunResult: ...
