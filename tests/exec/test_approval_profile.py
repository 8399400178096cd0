"""The approval card carries the profile the call will run in (issue #14): the person is
shown what it may touch, and a contained approved call runs with exactly that."""

from __future__ import annotations

from bastion.adapters.http.cards import card
from bastion.approval.model import ApprovalRequest
from bastion.call.effects import Effect
from bastion.policy.containment import Filesystem, Profile
from bastion.policy.decision import Decision, Evaluation, Reason

ASK = Reason(Decision.ASK, "approval.interactive_default", "built-in", "", "a person decides")


def _request(
    tool: str, effects: tuple[Effect, ...], argv: tuple[str, ...] | None, profile: Profile | None = None
) -> ApprovalRequest:
    return ApprovalRequest(
        id="r1", created=0.0, expires=60.0, tool=tool, summary="s", reason="why",
        evaluation=Evaluation(Decision.ASK, (ASK,), effects, profile=profile), call_key="k", project="/p",
        argv=argv,
    )  # fmt: skip


def test_a_shell_card_names_the_profile_its_decision_carries_and_the_hosts_it_may_reach() -> None:
    profile = Profile(Filesystem.READ_ONLY, ("api.example.com",))
    request = _request(
        "shell", (Effect.READ, Effect.NETWORK), ("curl", "-s", "https://api.example.com/x"), profile
    )

    assert request.to_json()["profile"] == {
        "filesystem": "read-only", "network": "hosts", "hosts": ["api.example.com"],
    }  # fmt: skip
    shown = card(request, csrf="c", now=0.0)
    assert (
        '<dd class="profile">sandbox <code>read-only</code>, network: <code>api.example.com</code></dd>'
        in shown
    )
    assert 'value="approve_uncontained"' in shown


def test_a_call_whose_decision_runs_it_as_written_says_so_and_claims_no_sandbox() -> None:
    # Before #30 the card derived "workspace-write" from the effects even for a call that
    # would run uncontained ([exec] contain = "allowed", or a caller that runs it itself).
    request = _request("code", (Effect.CODE,), None)

    shown = card(request, csrf="c", now=0.0)
    assert (request.to_json()["profile"], "approve_uncontained" in shown) == (None, False)
    assert '<dd class="profile">no sandbox: it runs as written</dd>' in shown


def test_the_profile_survives_the_requests_stored_form() -> None:
    profile = Profile(Filesystem.WORKSPACE_WRITE, ("registry.npmjs.org",))
    evaluation = Evaluation(Decision.ASK, (ASK,), (Effect.CODE, Effect.NETWORK), profile=profile)

    assert Evaluation.from_json(evaluation.to_json()).profile == profile


def test_a_card_for_a_call_that_runs_no_process_has_no_profile() -> None:
    assert _request("read", (Effect.READ,), None).to_json()["profile"] is None
