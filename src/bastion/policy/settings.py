"""Small frozen values the policy carries for other stages: ``[limits]`` and ``[audit]``.

They live with the policy (which is parsed once, immutable); the approval guard and the
ledger import them from here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LimitsConfig:
    """Per-session limits; ``None`` turns one off. Durations are seconds.

    ``max_calls_per_turn`` and ``max_turn_duration`` apply to calls that carry a turn id;
    ``calls_per_minute`` to calls that carry a session id (agent adapters supply both) and
    counts the calls let through, never the refused ones.
    """

    max_calls_per_turn: int | None = 25
    max_turn_duration: float | None = 300.0
    calls_per_minute: int | None = None
    #: Seconds after an exact call's last failure before the repeat-failure breaker lets it
    #: through again (``None``: never, within the session).
    breaker_cooldown: float | None = 300.0
    source: str = "built-in"  # where the values come from, e.g. "policy.toml:12"

    def __post_init__(self) -> None:
        for name in ("max_calls_per_turn", "max_turn_duration", "calls_per_minute", "breaker_cooldown"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or value <= 0):
                raise ValueError(f"limits.{name} must be a positive number (or unset), got {value!r}")


@dataclass(frozen=True, slots=True)
class AuditConfig:
    #: Store the raw (unredacted) arguments next to the keyed hash. Off by default: the
    #: ledger keeps metadata only (a keyed hash and a redacted summary).
    store_raw_arguments: bool = False


@dataclass(frozen=True, slots=True)
class McpServerArgs:
    """``[mcp.servers.NAME]``: which argument keys carry paths and URLs."""

    paths: tuple[str, ...] = ()
    urls: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SecondOpinionConfig:
    """``[second_opinion]`` compiled: exactly one of ``command`` (argv) and ``url``; the
    family and effect names it applies to (empty: every call the policy allows); seconds."""

    command: tuple[str, ...] | None = None
    url: str | None = None
    families: frozenset[str] = frozenset()
    effects: frozenset[str] = frozenset()
    timeout: float = 10.0
    source: str = "built-in"  # where it is configured, e.g. "policy.toml:40"
