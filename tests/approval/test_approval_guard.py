"""The repeat-failure guard and the per-session limits, as pure functions."""

from __future__ import annotations

import pytest

from bastion.approval.config import LimitsConfig
from bastion.approval.guard import limit_reason, repeat_reason
from bastion.approval.model import FailureRecord, Usage
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
        "this exact call was already refused and will be refused again; stop retrying this "
        "call: change approach, or stop and report back to the user",
    )


def test_a_call_that_failed_three_times_is_halted() -> None:
    assert repeat_reason(FailureRecord(3, 0), matched="shell: x") == Reason(
        Decision.DENY,
        "breaker.repeat-failure",
        "built-in",
        "shell: x",
        "this exact call already failed 3 times; stop retrying this call: change approach, "
        "or stop and report back to the user",
    )


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
        "more than 10 tool calls in the last minute; slow down and retry later",
    )


def test_the_rate_limit_is_off_by_default() -> None:
    assert limit_reason(Usage(1, 0.0, 10_000), LimitsConfig(), now=1.0) is None


@pytest.mark.parametrize("field", ["max_calls_per_turn", "max_turn_duration", "calls_per_minute"])
def test_a_limit_must_be_positive(field: str) -> None:
    with pytest.raises(ValueError) as raised:
        LimitsConfig(**{field: 0})  # type: ignore[arg-type]
    assert str(raised.value) == f"limits.{field} must be a positive number (or unset), got 0"
