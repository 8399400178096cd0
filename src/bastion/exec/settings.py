"""Runner settings: the policy's ``[exec]`` table as one small frozen value, owned by the
runner (bastion.exec), and :func:`merge_exec`, which folds the layers' tables into it."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bastion.errors import PolicyError
from bastion.exec.profile import Contain
from bastion.policy.tighten import ignored

if TYPE_CHECKING:
    from bastion.policy.layer import Layer
    from bastion.policy.model import ExecSection

#: Variables a sandboxed child may inherit from Bastion's environment (nothing else).
DEFAULT_ENV_ALLOW: tuple[str, ...] = ("PATH", "HOME", "LANG", "LC_ALL", "TERM", "TZ")
#: A secret's name is also the variable it arrives in: a plain shell variable name.
SECRET_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")
#: Folder names the credential scan does not enter by default: generated trees, not where
#: keys are kept. A person may list others (``scan_skip``) when a tree is too big to scan.
DEFAULT_SCAN_SKIP: tuple[str, ...] = (
    ".git", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache", ".ruff_cache",
    ".pytest_cache", ".tox", "target", "dist", "build",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class SecretHold:
    """``[exec.secrets.NAME]`` with ``approval = "hold"``: the value never enters the
    sandbox; the egress proxy puts it into requests to ``hosts`` once a person approved
    the first request to that host (bastion.exec.egress)."""

    name: str
    hosts: tuple[str, ...]

    def __post_init__(self) -> None:
        from bastion.policy.network import host_pattern_error

        if not SECRET_NAME.fullmatch(self.name):
            raise ValueError(f"exec.secrets: {self.name!r} is not a valid variable name")
        object.__setattr__(self, "hosts", tuple(self.hosts))
        if not self.hosts:
            raise ValueError(f"exec.secrets.{self.name}: a held secret needs hosts = [...]")
        for host in self.hosts:
            error = host_pattern_error(host)
            if error is not None or host == "*":
                raise ValueError(f"exec.secrets.{self.name}.hosts: {error or 'not every host'}")


def secret_holds(table: Mapping[str, Mapping[str, object]]) -> tuple[SecretHold, ...]:
    """The held bindings of a ``[exec.secrets.NAME]`` table; ``hosts`` without
    ``approval = "hold"`` is an error (a host list only means something for a held secret)."""
    holds = []
    for name, spec in table.items():
        hosts = spec.get("hosts") or ()
        if spec.get("approval") == "hold":
            assert isinstance(hosts, Sequence)
            holds.append(SecretHold(name, tuple(str(h) for h in hosts)))
        elif hosts:
            raise ValueError(f'exec.secrets.{name}: hosts only apply with approval = "hold"')
    return tuple(holds)


@dataclass(frozen=True, slots=True)
class ExecConfig:
    """``[exec]``: ``timeout`` (s, per call), ``max_output_bytes`` (per stream),
    ``max_memory_mb`` / ``max_cpu_seconds`` (kernel ceilings, 0 = off), ``env_allow``
    (variables passed through), ``secrets`` (names a call may ask to have injected),
    ``held`` (secrets that never enter the sandbox, see SecretHold; never in ``secrets``), and
    the containment settings below (which calls, process/memory/tmp caps, seccomp, scan)."""

    timeout: float = 30.0
    max_output_bytes: int = 10_000_000
    # Off by default (seed 002): ``prlimit --as`` caps address space, not resident memory,
    # and V8 reserves far more than it uses (tsc aborts at a 1 GB cap while using 250 MB).
    # A cap low enough to protect a small machine kills every build; one high enough
    # to let builds run protects nothing. Children always run at nice 10 instead.
    max_memory_mb: int = 0
    max_cpu_seconds: int = 0
    env_allow: tuple[str, ...] = DEFAULT_ENV_ALLOW
    secrets: tuple[str, ...] = ()
    held: tuple[SecretHold, ...] = ()
    #: "all" (the default): every allowed call and every call a person approves runs
    #: contained; "allowed": only calls allowed without a person (an approved call runs as
    #: written); "off": the hooks leave every call as the agent wrote it.
    contain: Contain = Contain.ALL
    #: Processes (and threads) one sandboxed run may have at once (cgroup pids.max).
    max_processes: int = 512
    #: Resident memory of one run (cgroup memory limit; 0 = off). Unlike max_memory_mb it
    #: counts pages used, not address space reserved, so it does not break V8 or the JVM.
    max_resident_mb: int = 4096
    #: Size of the private /tmp (MiB); it lives in RAM, so it is always capped.
    tmp_size_mb: int = 512
    #: The kernel filter (ptrace, keyctl, mount, bpf, new user namespaces… are refused).
    seccomp: bool = True
    #: Entries the credential/protected-path scan may visit; past it the run asks.
    scan_max_entries: int = 200_000
    scan_skip: tuple[str, ...] = DEFAULT_SCAN_SKIP

    def __post_init__(self) -> None:
        if isinstance(self.timeout, bool) or not (math.isfinite(self.timeout) and self.timeout > 0):
            raise ValueError("exec.timeout must be a positive number of seconds")
        if self.contain not in tuple(Contain):
            raise ValueError(f"exec.contain must be one of {', '.join(Contain)}")
        object.__setattr__(self, "contain", Contain(self.contain))
        if not isinstance(self.seccomp, bool):
            raise ValueError("exec.seccomp must be true or false")
        for name in (
            "max_output_bytes", "max_memory_mb", "max_cpu_seconds", "max_processes",
            "max_resident_mb", "tmp_size_mb", "scan_max_entries",
        ):  # fmt: skip
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"exec.{name} must be a whole number >= 0")
        for name in ("max_output_bytes", "max_processes", "tmp_size_mb", "scan_max_entries"):
            if getattr(self, name) == 0:
                raise ValueError(f"exec.{name} must be > 0")
        object.__setattr__(self, "scan_skip", tuple(self.scan_skip))
        for name in self.scan_skip:
            if not name or "/" in name or name in (".", ".."):
                raise ValueError(f"exec.scan_skip: {name!r} must be a plain folder name")
        object.__setattr__(self, "env_allow", tuple(self.env_allow))
        object.__setattr__(self, "secrets", tuple(self.secrets))
        object.__setattr__(self, "held", tuple(self.held))
        # A held secret is never injectable: a call naming it must not get its value.
        if {h.name for h in self.held} & set(self.secrets):
            raise ValueError("exec: a held secret cannot also be injected")
        for name in self.secrets:
            if not SECRET_NAME.fullmatch(name):
                raise ValueError(f"exec.secrets: {name!r} is not a valid variable name")


def exec_config(section: ExecSection, layer: Layer) -> ExecConfig:
    """One layer's ``[exec]`` table; a bad value is a PolicyError naming file, line and key."""
    try:
        data = section.model_dump()
        if isinstance(data["secrets"], dict):  # [exec.secrets.NAME] tables
            data["held"] = secret_holds(data["secrets"])
            held = {h.name for h in data["held"]}
            data["secrets"] = tuple(name for name in data["secrets"] if name not in held)
        return ExecConfig(**data)
    except ValueError as exc:
        line = layer.locator.line_of(("exec",)) if layer.locator else None
        raise PolicyError(str(exc), file=layer.name, line=line, key="exec") from exc


def merge_exec(layers: Iterable[Layer]) -> tuple[ExecConfig, tuple[str, ...]]:
    """The ``[exec]`` of the layers in order: a trusted layer replaces it, an untrusted one
    only when every value is as tight or tighter (else it is ignored, with a warning)."""
    current, warnings = ExecConfig(), []
    for layer in layers:
        if layer.spec.exec is None:
            continue
        candidate = exec_config(layer.spec.exec, layer)
        if layer.trusted or tighter_exec(candidate, current):
            current = candidate
        else:
            warnings.append(ignored(layer, "[exec] (it loosens a limit, a variable or a secret)"))
    return current, tuple(warnings)


def tighter_exec(new: ExecConfig, old: ExecConfig) -> bool:
    def cap(n: int, o: int) -> bool:  # 0 means no cap: any cap is tighter than none
        return (n > 0 and (o == 0 or n <= o)) or n == o

    return (
        new.timeout <= old.timeout
        and new.max_output_bytes <= old.max_output_bytes
        and cap(new.max_memory_mb, old.max_memory_mb)
        and cap(new.max_cpu_seconds, old.max_cpu_seconds)
        and set(new.env_allow) <= set(old.env_allow)
        and set(new.secrets) <= set(old.secrets)
        and _tighter_holds(new, old)
        and CONTAIN_ORDER[new.contain] >= CONTAIN_ORDER[old.contain]
        and new.max_processes <= old.max_processes
        and cap(new.max_resident_mb, old.max_resident_mb)
        and new.tmp_size_mb <= old.tmp_size_mb
        and new.seccomp >= old.seccomp
        and new.scan_max_entries <= old.scan_max_entries
        and set(new.scan_skip) <= set(old.scan_skip)
    )


def _tighter_holds(new: ExecConfig, old: ExecConfig) -> bool:
    """Holding an injected secret is tighter; a held secret may lose hosts, never gain
    them, and never turn back into an injected one (that fails the secrets check above)."""
    before = {h.name: set(h.hosts) for h in old.held}
    known = set(old.secrets) | set(before)
    return all(h.name in known and (h.name not in before or set(h.hosts) <= before[h.name]) for h in new.held)


#: ``[exec] contain`` from loosest to strictest: a project layer may only move right.
CONTAIN_ORDER = {Contain.OFF: 0, Contain.ALLOWED: 1, Contain.ALL: 2}
