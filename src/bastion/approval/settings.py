"""``[limits]``: the per-session limits the Gatekeeper's guard enforces
(bastion.approval.guard), and :func:`merge_limits`, which folds the layers' tables."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bastion.policy.layer import Layer
    from bastion.policy.model import LimitsSection


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


def merge_limits(layers: Iterable[Layer]) -> tuple[LimitsConfig, tuple[str, ...]]:
    """The ``[limits]`` of the layers in order. An untrusted layer only ever lowers a limit
    (and lengthens the breaker's cooldown), so it never needs a warning."""
    current = LimitsConfig()
    for layer in layers:
        if layer.spec.limits is not None:
            current = _limits(layer.spec.limits, layer, current)
    return current, ()


def _limits(section: LimitsSection, layer: Layer, current: LimitsConfig) -> LimitsConfig:
    from bastion.policy.model import parse_duration

    def off(value: float) -> float | None:
        return value or None

    new: tuple[float | None, ...] = (
        off(section.max_calls_per_turn),
        off(parse_duration(section.max_turn_duration)),
        off(section.calls_per_minute),
    )
    if not layer.trusted:  # an untrusted layer may only lower a limit (None is no limit at all)
        old = (current.max_calls_per_turn, current.max_turn_duration, current.calls_per_minute)
        new = tuple(
            o if n is None else (n if o is None else min(n, o)) for n, o in zip(new, old, strict=True)
        )
    calls, duration, per_minute = new
    cooldown = off(parse_duration(section.breaker_cooldown))
    if not layer.trusted:  # a longer cooldown is stricter; None (never recover) is the strictest
        old_cooldown = current.breaker_cooldown
        cooldown = None if cooldown is None or old_cooldown is None else max(cooldown, old_cooldown)
    return LimitsConfig(
        max_calls_per_turn=None if calls is None else int(calls),
        max_turn_duration=duration,
        calls_per_minute=None if per_minute is None else int(per_minute),
        breaker_cooldown=cooldown,
        source=layer.where("limits"),
    )
