"""Configuration values: the policy's ``[gateway]`` table and how one daemon is started."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from bastion.policy.model import parse_duration
from bastion.policy.network import Resolver

if TYPE_CHECKING:
    from bastion.policy.compiled import Policy

_INTS = ("rate_limit_per_minute", "max_body_bytes", "max_command_chars", "max_session_id_chars")


@dataclass(frozen=True, slots=True)
class GatewaySettings:
    """The ``[gateway]`` table; every field is enforced by the HTTP adapter."""

    rate_limit_per_minute: int = 60
    max_body_bytes: int = 65536
    max_command_chars: int = 32000
    max_session_id_chars: int = 128
    request_timeout: str = "120s"
    cors_origins: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in _INTS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"gateway.{name} must be a positive integer, got {value!r}")
        parse_duration(self.request_timeout)
        for origin in self.cors_origins:
            if (
                not isinstance(origin, str)
                or not origin.startswith(("http://", "https://"))
                or origin.rstrip("/") != origin
            ):
                raise ValueError(
                    f"gateway.cors_origins: {origin!r} is not an origin like 'https://app.example.com'"
                )

    @property
    def timeout_seconds(self) -> float:
        return parse_duration(self.request_timeout)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> GatewaySettings:
        """From a ``[gateway]`` table; unknown keys are errors, like every policy section."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown key(s) in [gateway]: {', '.join(sorted(unknown))}")
        values = dict(data)
        if "cors_origins" in values:
            values["cors_origins"] = tuple(values["cors_origins"])
        return cls(**values)

    @classmethod
    def from_policy(cls, policy: Policy) -> GatewaySettings:
        """The policy's ``[gateway]`` table (the defaults when it has none)."""
        return cls.from_mapping(policy.gateway) if policy.gateway else cls()


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class ServerSettings:
    """What ``create_app`` needs: where the policy comes from and how the daemon behaves.

    ``gateway`` None means "from the policy's ``[gateway]`` table" (defaults until wired).
    """

    policy_path: str | None = None
    cwd: str = field(default_factory=os.getcwd)
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    host: str = "127.0.0.1"
    port: int = 8765
    gateway: GatewaySettings | None = None
    reload_interval: float = 1.0  # seconds between policy mtime checks
    events_interval: float = 0.25  # seconds between store polls for the event feed
    session_ttl: float = 12 * 3600.0  # approvals-page login lifetime
    sandboxed: bool | None = None  # None: probe bubblewrap, as ``bastion check`` does
    resolver: Resolver | None = None  # None: the system's (tests inject a fixed table)
    body_timeout: float = 30.0  # seconds for a request body once its head is in (else 408)
    head_timeout: float = 10.0  # seconds for a request head (else the connection closes)
