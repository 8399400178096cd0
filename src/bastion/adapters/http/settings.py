"""Configuration values: the policy's ``[gateway]`` table (:func:`merge_gateway` folds the
layers' tables) and how one daemon is started."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bastion.errors import PolicyError
from bastion.policy.tighten import ignored

if TYPE_CHECKING:
    from bastion.policy.layer import Layer
    from bastion.policy.model import GatewaySection
    from bastion.policy.network import Resolver

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
    #: The explicit override: browsers on any origin may call the API (still with a key).
    allow_any_origin: bool = False
    #: What a rate-limited sender is told first (002's wording), with when to retry.
    cooldown_reply: str = "Please slow down."

    def __post_init__(self) -> None:
        for name in _INTS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"gateway.{name} must be a positive integer, got {value!r}")
        _seconds(self.request_timeout)
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
    def cors(self) -> bool:
        """Is CORS on at all (an origin listed, or any origin allowed)?"""
        return bool(self.cors_origins) or self.allow_any_origin

    @property
    def timeout_seconds(self) -> float:
        return _seconds(self.request_timeout)

    def tighter_than(self, old: GatewaySettings) -> bool:
        """Every limit as low or lower, and no origin ``old`` does not allow."""
        return (
            self.rate_limit_per_minute <= old.rate_limit_per_minute
            and self.max_body_bytes <= old.max_body_bytes
            and self.max_command_chars <= old.max_command_chars
            and self.max_session_id_chars <= old.max_session_id_chars
            and self.timeout_seconds <= old.timeout_seconds
            and set(self.cors_origins) <= set(old.cors_origins)
            and (old.allow_any_origin or not self.allow_any_origin)
        )


def _seconds(duration: str) -> float:
    # The schema module imports pydantic; a hook unpickling a cached Configuration (which
    # holds these settings) must not pay for it, so it is imported only when a value is read.
    from bastion.policy.model import parse_duration

    return parse_duration(duration)


def gateway_settings(section: GatewaySection, layer: Layer) -> GatewaySettings:
    """One layer's ``[gateway]``; a bad origin is a PolicyError naming file, line and key."""
    try:
        return GatewaySettings(
            rate_limit_per_minute=section.rate_limit_per_minute,
            max_body_bytes=section.max_body_bytes,
            max_command_chars=section.max_command_chars,
            max_session_id_chars=section.max_session_id_chars,
            request_timeout=section.request_timeout,
            cors_origins=tuple(section.cors_origins),
            allow_any_origin=section.allow_any_origin,
            cooldown_reply=section.cooldown_reply,
        )
    except ValueError as exc:
        key = str(exc).split(":")[0].split(" ")[0] if str(exc).startswith("gateway.") else "gateway"
        loc = tuple(key.split("."))
        line = layer.locator.line_of(loc) if layer.locator else None
        raise PolicyError(str(exc), file=layer.name, line=line, key=key) from exc


def merge_gateway(layers: Iterable[Layer]) -> tuple[GatewaySettings, tuple[str, ...]]:
    """The ``[gateway]`` of the layers in order: a trusted layer replaces it, an untrusted
    one only when it loosens no limit and adds no origin (else it is ignored, with a warning)."""
    current, warnings = GatewaySettings(), []
    for layer in layers:
        if layer.spec.gateway is None:
            continue
        candidate = gateway_settings(layer.spec.gateway, layer)
        if layer.trusted or candidate.tighter_than(current):
            current = candidate
        else:
            warnings.append(ignored(layer, "[gateway] (it loosens a limit or adds an origin)"))
    return current, tuple(warnings)


def is_loopback(host: str) -> bool:
    import ipaddress  # here: a hook unpickling these settings never needs it

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class ServerSettings:
    """What ``create_app`` needs: where the policy comes from and how the daemon behaves.

    ``gateway`` None means "from the policy's ``[gateway]`` table".
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
