"""A checker's verdict, read strictly, and the one way it may change an Evaluation: up.

The verdict JSON is ``{"decision": "allow" | "ask" | "deny", "reason": "…"}``. Anything else
(not JSON, duplicate keys, another decision, a reason that is not text, unknown keys) is
malformed, and a malformed verdict changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bastion.errors import BastionError
from bastion.policy.decision import MARKER_DENIED, Decision, Evaluation, Reason

#: Longest verdict read from a checker; more is malformed (and never read into memory).
MAX_VERDICT_BYTES = 65536
#: Longest reason kept from a checker.
MAX_REASON_CHARS = 500
#: Rule ids of the reasons a second opinion adds (``second_opinion.<what>``).
RULE_PREFIX = "second_opinion."


class MalformedVerdict(BastionError):
    """The checker answered, but not with a verdict Bastion can read."""


@dataclass(frozen=True, slots=True)
class Verdict:
    decision: Decision
    reason: str


def parse_verdict(data: bytes | str) -> Verdict:
    """A verdict from the checker's output; MalformedVerdict says what is wrong."""
    from bastion.call.strict_json import loads
    from bastion.errors import CallError

    if len(data) > MAX_VERDICT_BYTES:
        raise MalformedVerdict(f"the verdict is longer than {MAX_VERDICT_BYTES} bytes")
    try:
        value = loads(data)
    except (CallError, ValueError, UnicodeDecodeError) as exc:
        raise MalformedVerdict(f"the verdict is not JSON ({exc})") from None
    if not isinstance(value, dict):
        raise MalformedVerdict("the verdict must be a JSON object")
    unknown = sorted(set(value) - {"decision", "reason"})
    if unknown:
        raise MalformedVerdict(f"unknown key(s) in the verdict: {', '.join(unknown)}")
    decision, reason = value.get("decision"), value.get("reason", "")
    if not isinstance(decision, str) or decision not in ("allow", "ask", "deny"):
        raise MalformedVerdict(f"the verdict's decision must be allow, ask or deny, not {decision!r}")
    if not isinstance(reason, str):
        raise MalformedVerdict("the verdict's reason must be text")
    return Verdict(Decision.parse(decision), reason.strip()[:MAX_REASON_CHARS])


def escalate(evaluation: Evaluation, verdict: Verdict, *, source: str, checker: str) -> Evaluation:
    """``evaluation`` with the verdict as a reason; the decision is the stricter of the two,
    so an ``allow`` verdict never loosens anything. A stricter verdict leads the reasons."""
    decision = max(evaluation.decision, verdict.decision)
    said = verdict.reason or "no reason given"
    if verdict.decision <= evaluation.decision:
        # It agrees (or is looser): the decision stands; the verdict is kept as a note.
        note = Reason(
            verdict.decision,
            f"{RULE_PREFIX}{verdict.decision.label}",
            source,
            checker,
            f"the second opinion ({checker}) said {verdict.decision.label}: {said}",
        )
        return replace(evaluation, reasons=(*evaluation.reasons, note))
    reason = Reason(
        decision,
        f"{RULE_PREFIX}{decision.label}",
        source,
        checker,
        f"the second opinion ({checker}) escalated this call to {decision.label}: {said}",
    )
    marker = MARKER_DENIED if decision is Decision.DENY else None
    return replace(
        evaluation,
        decision=decision,
        reasons=(reason, *evaluation.reasons),
        marker=marker,
        trace=(*evaluation.trace, f"second opinion: {decision.label} ({checker}): {said}"),
    )


def unavailable(evaluation: Evaluation, problem: str, *, source: str, checker: str) -> Evaluation:
    """The checker failed (error, timeout, malformed answer): the decision stands, noted."""
    note = Reason(
        evaluation.decision,
        f"{RULE_PREFIX}unavailable",
        source,
        checker,
        f"the second opinion ({checker}) gave no verdict ({problem}); the decision stands",
    )
    return replace(
        evaluation,
        reasons=(*evaluation.reasons, note),
        trace=(*evaluation.trace, f"second opinion: unavailable ({checker}): {problem}"),
    )
