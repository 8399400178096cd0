"""The repeat-failure guard and the per-session limits, as pure functions."""

from __future__ import annotations

import pytest

from bastion.approval.guard import limit_reason, repeat_reason
from bastion.approval.model import FailureRecord, Usage
from bastion.approval.settings import LimitsConfig
from bastion.policy.decision import Decision, Reason


def test_a_call_without_failures_passes_the_guard() -> None:
    assert repeat_reason(FailureRecord(0, 0), matched="m") is None
    assert repeat_reason(FailureRecord(2, 0), matched="m") is None


def test_the_first_verbatim_repeat_of_a_hard_reject_is_halted() -> None:
    assert repeat_reason(FailureRecord(1, 1), matched="shell: x") == Reason(
        Decision.DENY,
        "breaker.hard-reject-repeat",
        "built-in",
        "shell: x",
        "this exact call was already refused and will be refused again; it stays refused for the "
        "rest of this session; stop retrying this call: change approach, or stop and report back to "
        "the user",
    )


def test_a_call_that_failed_three_times_is_halted() -> None:
    assert repeat_reason(FailureRecord(3, 0), matched="shell: x") == Reason(
        Decision.DENY,
        "breaker.repeat-failure",
        "built-in",
        "shell: x",
        "this exact call already failed 3 times; it stays refused for the rest of this session; stop "
        "retrying this call: change approach, or stop and report back to the user",
    )


def test_the_breaker_says_when_the_call_may_be_retried_during_its_cooldown() -> None:
    record = FailureRecord(3, 0, last=1000.0)
    assert repeat_reason(record, matched="shell: x", now=1010.0, cooldown=300.0, source="p:9") == Reason(
        Decision.DENY,
        "breaker.repeat-failure",
        "p:9",
        "shell: x",
        "this exact call already failed 3 times; it may be retried after 00:21:40 UTC (in 290s); stop "
        "retrying this call: change approach, or stop and report back to the user",
    )


def test_the_repeat_failure_breaker_recovers_after_its_cooldown_within_the_session() -> None:
    hard, failing = FailureRecord(1, 1, last=1000.0), FailureRecord(3, 0, last=1000.0)
    assert [
        repeat_reason(r, matched="m", now=now, cooldown=300.0) is None
        for r in (hard, failing)
        for now in (1299.9, 1300.0)
    ] == [False, True, False, True]


LIMITS = LimitsConfig(max_calls_per_turn=25, max_turn_duration=300.0, calls_per_minute=10, source="p:3")


def test_usage_within_every_limit_passes() -> None:
    assert limit_reason(Usage(25, 1000.0, 10), LIMITS, now=1300.0) is None


def test_the_26th_call_of_a_turn_is_refused() -> None:
    assert limit_reason(Usage(26, 1000.0, 1), LIMITS, now=1001.0) == Reason(
        Decision.DENY,
        "limits.max_calls_per_turn",
        "p:3",
        "26",
        "this turn made more than 25 tool calls; stop and report back to the user",
    )


def test_a_call_after_the_turn_ran_too_long_is_refused() -> None:
    assert limit_reason(Usage(2, 1000.0, 1), LIMITS, now=1300.5) == Reason(
        Decision.DENY,
        "limits.max_turn_duration",
        "p:3",
        "300s",
        "this turn has run longer than 300s; stop and report back to the user",
    )


def test_the_call_over_the_per_minute_rate_is_refused() -> None:
    assert limit_reason(Usage(0, None, 11), LIMITS, now=0.0) == Reason(
        Decision.DENY,
        "limits.calls_per_minute",
        "p:3",
        "11",
        "more than 10 tool calls were let through in the last minute; slow down and retry later",
    )


def test_the_rate_limit_reason_says_refused_calls_are_not_counted() -> None:
    reason = limit_reason(Usage(0, None, 11, minute_refused=40), LIMITS, now=0.0)
    assert reason is not None and reason.message == (
        "more than 10 tool calls were let through in the last minute (the 40 refused ones are not "
        "counted); slow down and retry later"
    )


def test_the_rate_limit_is_off_by_default() -> None:
    assert limit_reason(Usage(1, 0.0, 10_000), LimitsConfig(), now=1.0) is None


@pytest.mark.parametrize("field", ["max_calls_per_turn", "max_turn_duration", "calls_per_minute"])
def test_a_limit_must_be_positive(field: str) -> None:
    with pytest.raises(ValueError) as raised:
        LimitsConfig(**{field: 0})  # type: ignore[arg-type]
    assert str(raised.value) == f"limits.{field} must be a positive number (or unset), got 0"
