"""The Gatekeeper's containment stage: ``[exec] contain`` applied before the record, the
profile computed from what the gate judged, an uncontainable call asked about, and
"approve uncontained" as a person's explicit, recorded, one-call choice."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bastion.approval.queue import AnswerError
from bastion.approval.state import RequestState
from bastion.call.effects import Effect
from bastion.policy.containment import Contain, Filesystem, Profile
from bastion.policy.decision import Decision, Evaluation, Reason
from bastion.runtime import Gatekeeper
from bastion.runtime.contain import Containment
from tests.test_runtime import ALLOW, HARD_DENY, Keeper, keeper, ledger_rows, policy, run_answered, shell

__all__ = ["keeper", "policy"]  # the fixtures, shared with tests/test_runtime.py

WRITE_ASK = Evaluation(
    Decision.ASK,
    (Reason(Decision.ASK, "rule[1]", "/p/policy.toml:4", "make", "a person decides"),),
    (Effect.CODE, Effect.WRITE),
)
FETCH_ALLOW = Evaluation(
    Decision.ALLOW,
    (Reason(Decision.ALLOW, "rule[2]", "/p/policy.toml:6", "curl", "fine"),),
    (Effect.READ, Effect.NETWORK),
)


class Machine:
    """The answer to "can this profile be contained here?", and every profile asked about."""

    def __init__(self, problem: str | None = None) -> None:
        self.problem_text = problem
        self.asked: list[Profile] = []

    def problem(self, profile: Profile) -> str | None:
        self.asked.append(profile)
        return self.problem_text


def contained(keeper: Keeper, answer: Evaluation, mode: Contain = Contain.ALL, **kw: Any) -> Gatekeeper:
    machine = kw.pop("machine", Machine())
    return keeper(answer, containment=Containment(mode, machine), **kw)


def test_an_allowed_shell_call_carries_the_profile_of_what_the_gate_found(keeper: Keeper) -> None:
    k = contained(keeper, FETCH_ALLOW)

    final = asyncio.run(k.request(shell("curl -s https://Example.org/a.json")))

    assert (final.decision, final.profile) == (
        Decision.ALLOW,
        Profile(Filesystem.READ_ONLY, ("example.org",)),
    )
    assert ledger_rows(k) == [("decided", "allow", "policy", "rule[2]")]


def test_the_hosts_come_from_the_gates_own_analysis(keeper: Keeper) -> None:
    k = contained(keeper, FETCH_ALLOW)
    parsed: list[str] = []
    real = k.gate.analyze_shell

    def spy(command: str) -> Any:
        parsed.append(command)
        return real(command)

    k.gate.analyze_shell = spy  # type: ignore[method-assign]

    asyncio.run(k.request(shell("curl https://a.example/x")))

    assert parsed == ["curl https://a.example/x"]


def test_a_call_that_cannot_be_contained_asks_and_the_ledger_says_so(keeper: Keeper) -> None:
    k = contained(keeper, ALLOW, machine=Machine("bubblewrap ('bwrap') is not installed"))

    final = asyncio.run(k.request(shell("git status", interactive=False)))

    # Nobody can be asked here: the non-interactive default denies, with the cause first.
    assert (final.decision, [r.rule for r in final.reasons], final.profile) == (
        Decision.DENY,
        ["exec.uncontainable", "rule[2]", "approval.non_interactive_default"],
        None,
    )
    assert ledger_rows(k) == [("decided", "deny", "policy", "exec.uncontainable")]


def test_a_call_a_person_approves_runs_contained_under_all(keeper: Keeper) -> None:
    k = contained(keeper, WRITE_ASK)

    final = run_answered(k, shell("make test"), approve=True)

    assert (final.decision, final.reasons[0].rule, final.profile) == (
        Decision.ALLOW,
        "approval.person",
        Profile(Filesystem.WORKSPACE_WRITE, ()),
    )


def test_the_question_itself_carries_the_profile_the_card_shows(keeper: Keeper) -> None:
    k = contained(keeper, WRITE_ASK)

    run_answered(k, shell("make test"), approve=True)

    (request,) = k.store.list_requests([RequestState.APPROVED_ONCE])
    assert request.profile == {"filesystem": "workspace-write", "network": "none", "hosts": []}


def test_contain_allowed_leaves_an_approved_call_as_written(keeper: Keeper) -> None:
    k = contained(keeper, WRITE_ASK, Contain.ALLOWED)

    final = run_answered(k, shell("make test"), approve=True)

    assert (final.decision, final.profile) == (Decision.ALLOW, None)


def test_contain_off_contains_nothing(keeper: Keeper) -> None:
    k = contained(keeper, ALLOW, Contain.OFF)

    assert asyncio.run(k.request(shell("git status"))).profile is None


@pytest.mark.parametrize("answer", [HARD_DENY, ALLOW])
def test_a_denial_or_a_call_no_hook_can_rewrite_carries_no_profile(
    keeper: Keeper, answer: Evaluation
) -> None:
    k = contained(keeper, answer)
    from bastion.call.model import ToolCall

    call = shell("rm -rf ~") if answer is HARD_DENY else ToolCall("read", {"path": "/p/a"}, cwd="/p")

    assert asyncio.run(k.request(call)).profile is None


def test_a_caller_that_cannot_contain_gets_no_profile_and_no_question(keeper: Keeper) -> None:
    k = contained(keeper, ALLOW, machine=Machine("no bwrap"))

    final = asyncio.run(k.request(shell("git status"), contain=False))

    assert (final.decision, final.profile) == (Decision.ALLOW, None)


def test_approve_uncontained_runs_as_written_and_is_recorded_with_its_approver(keeper: Keeper) -> None:
    k = contained(keeper, WRITE_ASK)

    final = run_answered(k, shell("make test"), approve=True, uncontained=True)

    assert (final.decision, final.reasons[0].rule, final.profile) == (
        Decision.ALLOW,
        "approval.uncontained",
        None,
    )
    assert "to run uncontained, as written, outside the sandbox" in final.message
    resolved = [r.event for r in k.ledger.events() if r.event.kind == "resolved"]
    assert [(e.decision, e.rule, e.approver) for e in resolved] == [("allow", "approval.uncontained", "k1")]
    assert k.store.grants_for("shell") == []


@pytest.mark.parametrize("answer", [{"approve": True, "always": True}, {"approve": False}])
def test_approve_uncontained_is_never_a_standing_grant_nor_a_denial(
    keeper: Keeper, answer: dict[str, bool]
) -> None:
    k = contained(keeper, WRITE_ASK)

    with pytest.raises(AnswerError, match="never a standing grant"):
        run_answered(k, shell("make test"), uncontained=True, **answer)
