"""A checker's verdict is read strictly, and it can only make a decision stricter."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bastion.call.effects import Effect
from bastion.opinion import MalformedVerdict, Verdict, escalate, parse_verdict
from bastion.opinion.verdict import MAX_VERDICT_BYTES, unavailable
from bastion.policy.decision import MARKER_DENIED, Decision, Evaluation, Reason

ALLOWED = Evaluation(
    Decision.ALLOW, (Reason(Decision.ALLOW, "rule[1]", "p.toml:3", "git", "fine"),), (Effect.READ,)
)
DENIED = Evaluation(
    Decision.DENY,
    (Reason(Decision.DENY, "rule[2]", "p.toml:7", "rm", "never"),),
    (Effect.DELETE,),
    marker=MARKER_DENIED,
)


def test_a_verdict_is_a_decision_and_a_reason() -> None:
    assert parse_verdict(b'{"decision": "ask", "reason": " looks odd "}') == Verdict(
        Decision.ASK, "looks odd"
    )
    assert parse_verdict('{"decision": "deny"}') == Verdict(Decision.DENY, "")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (b"fine by me", "not JSON"),
        (b'["deny"]', "must be a JSON object"),
        (b'{"decision": "maybe"}', "must be allow, ask or deny"),
        (b'{"decision": "DENY "}', "must be allow, ask or deny"),
        (b'{"reason": "no decision"}', "must be allow, ask or deny"),
        (b'{"decision": "ask", "reason": 3}', "reason must be text"),
        (b'{"decision": "allow", "decision": "deny"}', "not JSON"),
        (b'{"decision": "allow", "override": true}', "unknown key(s) in the verdict: override"),
        (b'{"decision": NaN}', "not JSON"),
        (b"\xff\xfe", "not JSON"),
        (b'{"decision": "deny", "reason": "' + b"x" * MAX_VERDICT_BYTES + b'"}', "longer than"),
    ],
)
def test_anything_else_is_a_malformed_verdict(text: bytes, problem: str) -> None:
    with pytest.raises(MalformedVerdict, match=problem.replace("(", r"\(").replace(")", r"\)")):
        parse_verdict(text)


def test_an_escalation_to_deny_leads_the_reasons_and_is_a_permanent_refusal() -> None:
    out = escalate(ALLOWED, Verdict(Decision.DENY, "exfiltration"), source="p.toml:20", checker="command c")
    assert out == Evaluation(
        Decision.DENY,
        (
            Reason(
                Decision.DENY,
                "second_opinion.deny",
                "p.toml:20",
                "command c",
                "the second opinion (command c) escalated this call to deny: exfiltration",
            ),
            *ALLOWED.reasons,
        ),
        (Effect.READ,),
        marker=MARKER_DENIED,
    )


def test_an_escalation_to_ask_carries_no_marker() -> None:
    out = escalate(ALLOWED, Verdict(Decision.ASK, ""), source="s", checker="c")
    assert (out.decision, out.marker, out.reasons[0].rule, out.reasons[0].message) == (
        Decision.ASK,
        None,
        "second_opinion.ask",
        "the second opinion (c) escalated this call to ask: no reason given",
    )


def test_an_allow_verdict_for_a_denied_call_changes_nothing_but_a_note() -> None:
    out = escalate(DENIED, Verdict(Decision.ALLOW, "looks harmless"), source="s", checker="c")
    assert (out.decision, out.marker, out.reasons[0], out.effects) == (
        Decision.DENY,
        MARKER_DENIED,
        DENIED.reasons[0],
        DENIED.effects,
    )
    assert out.reasons[1:] == (
        Reason(
            Decision.ALLOW,
            "second_opinion.allow",
            "s",
            "c",
            "the second opinion (c) said allow: looks harmless",
        ),
    )


def test_an_unavailable_checker_leaves_the_decision_and_says_why() -> None:
    out = unavailable(ALLOWED, "no verdict within 2s", source="s", checker="c")
    assert (out.decision, out.reasons[0], out.reasons[-1].rule) == (
        Decision.ALLOW,
        ALLOWED.reasons[0],
        "second_opinion.unavailable",
    )
    assert "no verdict within 2s" in out.message


decisions = st.sampled_from(list(Decision))


@given(before=decisions, said=decisions, reason=st.text(max_size=30))
def test_a_verdict_never_loosens_a_decision(before: Decision, said: Decision, reason: str) -> None:
    evaluation = Evaluation(
        before,
        (Reason(before, "rule[1]", "p", "m", "why"),),
        (Effect.WRITE,),
        marker=MARKER_DENIED if before is Decision.DENY else None,
    )
    out = escalate(evaluation, Verdict(said, reason), source="s", checker="c")
    assert out.decision == max(before, said)
    assert evaluation.reasons[0] in out.reasons
    assert [r.rule.startswith("second_opinion.") for r in out.reasons].count(True) == 1
    assert (out.marker is not None) == (out.decision is Decision.DENY)
