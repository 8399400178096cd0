"""The repeat-failure guard (seed 003's circuit breaker) and the per-session limits, pure.

Both read counters the Store keeps and return a DENY reason, or None to let the call on.
"""

from __future__ import annotations

from bastion.approval.config import LimitsConfig
from bastion.approval.model import FailureRecord, Usage
from bastion.policy.decision import Decision, Reason

#: A call that already got a hard reject (a marker) is halted on its first verbatim repeat.
HARD_REJECT_REPEAT_THRESHOLD = 1
#: Any call that already failed this many times is halted on its next repeat.
REPEAT_FAILURE_THRESHOLD = 3

STOP = "stop retrying this call: change approach, or stop and report back to the user"


def repeat_reason(record: FailureRecord, *, matched: str) -> Reason | None:
    if record.hard >= HARD_REJECT_REPEAT_THRESHOLD:
        return Reason(Decision.DENY, "breaker.hard-reject-repeat", "built-in", matched,
                      f"this exact call was already refused and will be refused again; {STOP}")
    if record.failures >= REPEAT_FAILURE_THRESHOLD:
        return Reason(Decision.DENY, "breaker.repeat-failure", "built-in", matched,
                      f"this exact call already failed {record.failures} times; {STOP}")
    return None


def limit_reason(usage: Usage, limits: LimitsConfig, *, now: float) -> Reason | None:
    """``usage`` counts the call being decided. Turn limits need a turn id; the rate needs
    a session (the caller passes no usage without one)."""
    source = limits.source
    if limits.max_calls_per_turn is not None and usage.turn_calls > limits.max_calls_per_turn:
        return Reason(Decision.DENY, "limits.max_calls_per_turn", source, str(usage.turn_calls),
                      f"this turn made more than {limits.max_calls_per_turn} tool calls; "
                      "stop and report back to the user")
    if (limits.max_turn_duration is not None and usage.turn_started is not None
            and now - usage.turn_started > limits.max_turn_duration):
        return Reason(Decision.DENY, "limits.max_turn_duration", source,
                      f"{now - usage.turn_started:.0f}s",
                      f"this turn has run longer than {limits.max_turn_duration:g}s; "
                      "stop and report back to the user")
    if limits.calls_per_minute is not None and usage.minute_calls > limits.calls_per_minute:
        return Reason(Decision.DENY, "limits.calls_per_minute", source, str(usage.minute_calls),
                      f"more than {limits.calls_per_minute} tool calls in the last minute; "
                      "slow down and retry later")
    return None
