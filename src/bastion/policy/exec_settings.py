"""Runner settings: the policy's ``[exec]`` table as one small frozen value (used by bastion.exec)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: Variables a sandboxed child may inherit from Bastion's environment (nothing else).
DEFAULT_ENV_ALLOW: tuple[str, ...] = ("PATH", "HOME", "LANG", "LC_ALL", "TERM", "TZ")
#: A secret's name is also the variable it arrives in: a plain shell variable name.
SECRET_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")


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
    (variables passed through), ``secrets`` (names a call may ask to have injected) and
    ``held`` (secrets that never enter the sandbox, see SecretHold; never in ``secrets``)."""

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

    def __post_init__(self) -> None:
        if isinstance(self.timeout, bool) or not (math.isfinite(self.timeout) and self.timeout > 0):
            raise ValueError("exec.timeout must be a positive number of seconds")
        for name in ("max_output_bytes", "max_memory_mb", "max_cpu_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"exec.{name} must be a whole number >= 0")
        if self.max_output_bytes == 0:
            raise ValueError("exec.max_output_bytes must be > 0")
        object.__setattr__(self, "env_allow", tuple(self.env_allow))
        object.__setattr__(self, "secrets", tuple(self.secrets))
        object.__setattr__(self, "held", tuple(self.held))
        # A held secret is never injectable: a call naming it must not get its value.
        if {h.name for h in self.held} & set(self.secrets):
            raise ValueError("exec: a held secret cannot also be injected")
        for name in self.secrets:
            if not SECRET_NAME.fullmatch(name):
                raise ValueError(f"exec.secrets: {name!r} is not a valid variable name")
