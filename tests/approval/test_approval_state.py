"""The approval state machine, exhaustively: every (state, action) pair."""

from __future__ import annotations

import itertools

import pytest

from bastion.approval.state import TRANSITIONS, Action, IllegalTransition, RequestState, transition

LEGAL = {
    (RequestState.PENDING, Action.APPROVE_ONCE): RequestState.APPROVED_ONCE,
    (RequestState.PENDING, Action.APPROVE_ALWAYS): RequestState.APPROVED_ALWAYS,
    (RequestState.PENDING, Action.APPROVE_UNCONTAINED): RequestState.APPROVED_UNCONTAINED,
    (RequestState.PENDING, Action.DENY): RequestState.DENIED,
    (RequestState.PENDING, Action.EXPIRE): RequestState.EXPIRED,
    (RequestState.PENDING, Action.CANCEL): RequestState.CANCELLED,
}
ALL_PAIRS = list(itertools.product(RequestState, Action))


@pytest.mark.parametrize(("state", "action"), list(LEGAL))
def test_a_pending_request_moves_to_the_state_its_action_names(state: RequestState, action: Action) -> None:
    assert transition(state, action) is LEGAL[(state, action)]


@pytest.mark.parametrize(("state", "action"), [p for p in ALL_PAIRS if p not in LEGAL])
def test_every_other_transition_is_illegal_and_says_which(state: RequestState, action: Action) -> None:
    with pytest.raises(IllegalTransition) as raised:
        transition(state, action)
    assert (raised.value.state, raised.value.action) == (state, action)
    assert str(raised.value) == f"cannot {action.value.replace('_', ' ')} a request that is {state.value}"


def test_the_table_is_exactly_the_legal_transitions() -> None:
    assert dict(TRANSITIONS) == LEGAL


def test_only_pending_is_not_final_and_only_the_three_approvals_approve() -> None:
    assert {s for s in RequestState if not s.final} == {RequestState.PENDING}
    assert {s for s in RequestState if s.approved} == {
        RequestState.APPROVED_ONCE,
        RequestState.APPROVED_ALWAYS,
        RequestState.APPROVED_UNCONTAINED,
    }
