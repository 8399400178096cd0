"""What a card states about a parked call: the agent by name (its tool-call id apart), and
the "approve always" choices only where they differ."""

from __future__ import annotations

from bastion.adapters.http.cards import agent_and_tool_call, card
from bastion.approval.model import ApprovalRequest
from bastion.call.effects import Effect
from bastion.policy.decision import Decision, Evaluation, Reason

ASK = Reason(Decision.ASK, "approval.interactive_default", "built-in", "", "a person decides")


def _request(summary: str, pattern: str | None, agent: str | None = None) -> ApprovalRequest:
    return ApprovalRequest(
        id="r1", created=0.0, expires=60.0, tool="shell", summary=summary, reason="why",
        evaluation=Evaluation(Decision.ASK, (ASK,), (Effect.WRITE,)), call_key="k", project="/p",
        agent=agent, grantable=True, suggested_pattern=pattern,
    )  # fmt: skip


def test_the_card_names_the_agent_and_shows_its_tool_call_id_apart() -> None:
    shown = card(_request("shell: make deploy", None, agent="claude/toolu_01AbC"), csrf="c", now=0.0)

    assert '<dt>Agent</dt><dd><span class="agent">claude</span></dd>' in shown
    assert '<dt>Tool call</dt><dd class="tool-call">toolu_01AbC</dd>' in shown
    assert agent_and_tool_call("codex") == ("codex", "") and agent_and_tool_call(None) == ("", "")


def test_a_pattern_that_is_the_exact_call_offers_no_second_covering_choice() -> None:
    same = card(_request("shell: make deploy prod", "make deploy prod"), csrf="c", now=0.0)
    wider = card(_request("shell: docker ps -a", "docker ps *"), csrf="c", now=0.0)

    assert ("<legend>Covering</legend>" in same, "<legend>Covering</legend>" in wider) == (False, True)
    assert '<span class="grant-what">this exact call, for this project' in same
    assert "commands matching <code>docker ps *</code> or this exact call" in wider
