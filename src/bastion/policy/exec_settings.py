"""Runner settings: the policy's ``[exec]`` table as one small frozen value (used by bastion.exec)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

#: Variables a sandboxed child may inherit from Bastion's environment (nothing else).
DEFAULT_ENV_ALLOW: tuple[str, ...] = ("PATH", "HOME", "LANG", "LC_ALL", "TERM", "TZ")
#: A secret's name is also the variable it arrives in: a plain shell variable name.
SECRET_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")


@dataclass(frozen=True, slots=True)
class ExecConfig:
    """``[exec]``: ``timeout`` (s, per call), ``max_output_bytes`` (per stream),
    ``max_memory_mb`` / ``max_cpu_seconds`` (kernel ceilings, 0 = off), ``env_allow``
    (variables passed through) and ``secrets`` (names a call may ask to have injected)."""

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
        for name in self.secrets:
            if not SECRET_NAME.fullmatch(name):
                raise ValueError(f"exec.secrets: {name!r} is not a valid variable name")
