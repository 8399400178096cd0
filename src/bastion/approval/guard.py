"""The repeat-failure guard (seed 003's circuit breaker) and the per-session limits, pure.

Both read counters the Store keeps and return a DENY reason, or None to let the call on.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

from bastion.approval.model import FailureRecord, Usage
from bastion.approval.settings import LimitsConfig
from bastion.policy.decision import Decision, Reason

#: A call that already got a hard reject (a marker) is halted on its first verbatim repeat.
HARD_REJECT_REPEAT_THRESHOLD = 1
#: Any call that already failed this many times is halted on its next repeat.
REPEAT_FAILURE_THRESHOLD = 3

STOP = "stop retrying this call: change approach, or stop and report back to the user"


def _until(record: FailureRecord, cooldown: float | None, now: float) -> tuple[bool, str]:
    """(still tripped?, when it lets the call through again, for the reason)."""
    if cooldown is None or record.last is None:
        return True, "it stays refused for the rest of this session"
    reopens = record.last + cooldown
    if now >= reopens:
        return False, ""
    at = datetime.fromtimestamp(reopens, UTC).strftime("%H:%M:%S UTC")
    return True, f"it may be retried after {at} (in {math.ceil(reopens - now)}s)"


def repeat_reason(
    record: FailureRecord,
    *,
    matched: str,
    now: float = 0.0,
    cooldown: float | None = None,
    source: str = "built-in",
) -> Reason | None:
    """The breaker trips on a repeat of a call that failed (once, after a hard reject; else
    ``REPEAT_FAILURE_THRESHOLD`` times) and recovers ``cooldown`` seconds after the call's
    last failure; its own refusals are not failures, so waiting is enough to recover."""
    if record.hard >= HARD_REJECT_REPEAT_THRESHOLD:
        rule, why = (
            "breaker.hard-reject-repeat",
            "this exact call was already refused and will be refused again",
        )
    elif record.failures >= REPEAT_FAILURE_THRESHOLD:
        rule, why = "breaker.repeat-failure", f"this exact call already failed {record.failures} times"
    else:
        return None
    tripped, when = _until(record, cooldown, now)
    if not tripped:
        return None
    where = "built-in" if cooldown is None else source
    return Reason(Decision.DENY, rule, where, matched, f"{why}; {when}; {STOP}")


def limit_reason(usage: Usage, limits: LimitsConfig, *, now: float) -> Reason | None:
    """``usage`` counts the call being decided. Turn limits need a turn id; the rate needs
    a session (the caller passes no usage without one)."""
    source = limits.source
    if limits.max_calls_per_turn is not None and usage.turn_calls > limits.max_calls_per_turn:
        return Reason(
            Decision.DENY,
            "limits.max_calls_per_turn",
            source,
            str(usage.turn_calls),
            f"this turn made more than {limits.max_calls_per_turn} tool calls; "
            "stop and report back to the user",
        )
    if (
        limits.max_turn_duration is not None
        and usage.turn_started is not None
        and now - usage.turn_started > limits.max_turn_duration
    ):
        return Reason(
            Decision.DENY,
            "limits.max_turn_duration",
            source,
            f"{now - usage.turn_started:.0f}s",
            f"this turn has run longer than {limits.max_turn_duration:g}s; stop and report back to the user",
        )
    if limits.calls_per_minute is not None and usage.minute_calls > limits.calls_per_minute:
        refused = (
            f" (the {usage.minute_refused} refused ones are not counted)" if usage.minute_refused else ""
        )
        return Reason(
            Decision.DENY,
            "limits.calls_per_minute",
            source,
            str(usage.minute_calls),
            f"more than {limits.calls_per_minute} tool calls were let through in the last "
            f"minute{refused}; slow down and retry later",
        )
    return None
