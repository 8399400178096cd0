"""What one policy layer may change, and how an untrusted layer may only tighten.

A project file arrives with a cloned repository, so until it is trusted its limits, runner
settings and gateway limits apply only where they are stricter, and a ceiling is only ever
lowered (never raised by a later file).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bastion.errors import PolicyError
from bastion.policy.ceiling import Ceiling
from bastion.policy.exec_settings import ExecConfig, secret_holds
from bastion.policy.settings import LimitsConfig

if TYPE_CHECKING:
    from bastion.policy.layer import Layer
    from bastion.policy.model import CeilingSection, ExecSection, LimitsSection


def limits(section: LimitsSection, layer: Layer, current: LimitsConfig, trusted: bool) -> LimitsConfig:
    from bastion.policy.model import parse_duration

    def off(value: float) -> float | None:
        return value or None

    new: tuple[float | None, ...] = (
        off(section.max_calls_per_turn),
        off(parse_duration(section.max_turn_duration)),
        off(section.calls_per_minute),
    )
    if not trusted:  # an untrusted layer may only lower a limit (None is no limit at all)
        old = (current.max_calls_per_turn, current.max_turn_duration, current.calls_per_minute)
        new = tuple(
            o if n is None else (n if o is None else min(n, o)) for n, o in zip(new, old, strict=True)
        )
    calls, duration, per_minute = new
    cooldown = off(parse_duration(section.breaker_cooldown))
    if not trusted:  # a longer cooldown is stricter; None (never recover) is the strictest
        old_cooldown = current.breaker_cooldown
        cooldown = None if cooldown is None or old_cooldown is None else max(cooldown, old_cooldown)
    return LimitsConfig(
        max_calls_per_turn=None if calls is None else int(calls),
        max_turn_duration=duration,
        calls_per_minute=None if per_minute is None else int(per_minute),
        breaker_cooldown=cooldown,
        source=layer.where("limits"),
    )


def tighter_gateway(new: dict[str, Any], old: dict[str, Any]) -> bool:
    from bastion.policy.model import GatewaySection, parse_duration

    base = GatewaySection(**old).model_dump() if old else GatewaySection().model_dump()
    numbers = ("rate_limit_per_minute", "max_body_bytes", "max_command_chars", "max_session_id_chars")
    return (
        all(new[k] <= base[k] for k in numbers)
        and parse_duration(new["request_timeout"]) <= parse_duration(base["request_timeout"])
        and set(new["cors_origins"]) <= set(base["cors_origins"])
    )


def exec_config(section: ExecSection, layer: Layer) -> ExecConfig:
    try:
        data = section.model_dump()
        if isinstance(data["secrets"], dict):  # [exec.secrets.NAME] tables
            data["held"] = secret_holds(data["secrets"])
            held = {h.name for h in data["held"]}
            data["secrets"] = tuple(name for name in data["secrets"] if name not in held)
        return ExecConfig(**data)
    except ValueError as exc:
        raise PolicyError(
            str(exc),
            file=layer.name,
            line=layer.locator.line_of(("exec",)) if layer.locator else None,
            key="exec",
        ) from exc


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
CONTAIN_ORDER = {"off": 0, "allowed": 1, "all": 2}


def merge_ceiling(current: Ceiling | None, new: CeilingSection) -> Ceiling:
    written = Ceiling.of(new.approval, new.filesystem, new.network)
    # A later file can only lower a ceiling set earlier: never raised by a rule or a layer.
    return written if current is None else current.meet(written)
