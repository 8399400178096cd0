"""The approval card carries the profile the call will run in (issue #14): the person is
shown what it may touch, and a contained approved call runs with exactly that."""

from __future__ import annotations

from bastion.approval.model import ApprovalRequest
from bastion.call.effects import Effect
from bastion.policy.decision import Decision, Evaluation, Reason

ASK = Reason(Decision.ASK, "approval.interactive_default", "built-in", "", "a person decides")


def _request(tool: str, effects: tuple[Effect, ...], argv: tuple[str, ...] | None) -> ApprovalRequest:
    return ApprovalRequest(
        id="r1", created=0.0, expires=60.0, tool=tool, summary="s", reason="why",
        evaluation=Evaluation(Decision.ASK, (ASK,), effects), call_key="k", project="/p", argv=argv,
    )  # fmt: skip


def test_a_shell_card_names_its_profile_and_the_hosts_it_may_reach() -> None:
    request = _request("shell", (Effect.READ, Effect.NETWORK), ("curl", "-s", "https://api.example.com/x"))

    assert request.to_json()["profile"] == {
        "filesystem": "read-only", "network": "hosts", "hosts": ["api.example.com"],
    }  # fmt: skip


def test_a_code_card_says_the_workspace_is_writable_and_there_is_no_network() -> None:
    request = _request("code", (Effect.CODE,), None)

    assert request.to_json()["profile"] == {"filesystem": "workspace-write", "network": "none", "hosts": []}


def test_a_card_for_a_call_that_runs_no_process_has_no_profile() -> None:
    assert _request("read", (Effect.READ,), None).to_json()["profile"] is None
