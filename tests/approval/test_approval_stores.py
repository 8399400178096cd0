"""Both Store implementations behave the same: conditional resolution, grants, counters."""

from __future__ import annotations

import dataclasses

from bastion.approval.model import FailureRecord, Grant, Scope, Usage
from bastion.approval.state import Action, RequestState
from bastion.approval.store import Resolution, Store
from tests.approval.conftest import MakeRequest


def test_a_created_request_reads_back_whole(store: Store, make_request: MakeRequest) -> None:
    request = make_request()
    store.create_request(request)
    assert store.get_request(request.id) == request
    assert store.get_request("nope") is None


def test_the_first_answer_wins_and_the_second_learns_the_winner(
    store: Store, make_request: MakeRequest
) -> None:
    request = make_request()
    store.create_request(request)
    first = store.resolve(request.id, Action.DENY, at=1001.0, resolver="person", feedback="use the stdlib")
    second = store.resolve(request.id, Action.APPROVE_ONCE, at=1002.0, resolver="person")
    denied = dataclasses.replace(
        request, state=RequestState.DENIED, resolved_at=1001.0, resolver="person", feedback="use the stdlib"
    )
    assert (first, second) == (Resolution(True, denied), Resolution(False, denied))


def test_an_answer_after_expiry_time_is_refused_and_the_request_stays_pending(
    store: Store, make_request: MakeRequest
) -> None:
    request = make_request(created=1000.0, ttl=10.0)
    store.create_request(request)
    assert store.resolve(request.id, Action.APPROVE_ONCE, at=1010.0, resolver="person") == Resolution(
        False, request
    )


def test_expiry_before_the_expiry_time_is_refused(store: Store, make_request: MakeRequest) -> None:
    request = make_request(created=1000.0, ttl=10.0)
    store.create_request(request)
    assert store.resolve(request.id, Action.EXPIRE, at=1009.9, resolver="timeout").won is False


def test_an_answer_persisted_before_expiry_is_honoured_over_the_late_expiry(
    store: Store, make_request: MakeRequest
) -> None:
    request = make_request(created=1000.0, ttl=10.0)
    store.create_request(request)
    store.resolve(request.id, Action.APPROVE_ONCE, at=1009.99, resolver="person")
    late = store.resolve(request.id, Action.EXPIRE, at=1010.0, resolver="timeout")
    assert (late.won, late.request.state if late.request else None) == (False, RequestState.APPROVED_ONCE)


def test_expire_due_expires_only_pending_requests_whose_time_is_up(
    store: Store, make_request: MakeRequest
) -> None:
    due, later, answered = make_request(ttl=5.0), make_request(ttl=50.0), make_request(ttl=5.0)
    for r in (due, later, answered):
        store.create_request(r)
    store.resolve(answered.id, Action.APPROVE_ONCE, at=1001.0, resolver="person")
    assert store.expire_due(1006.0) == [due.id]
    assert [r.state for r in (store.get_request(i) for i in (due.id, later.id, answered.id)) if r] == [
        RequestState.EXPIRED,
        RequestState.PENDING,
        RequestState.APPROVED_ONCE,
    ]


def test_listing_filters_by_state_newest_first(store: Store, make_request: MakeRequest) -> None:
    old, new = make_request(created=1000.0), make_request(created=2000.0)
    store.create_request(old)
    store.create_request(new)
    store.resolve(old.id, Action.CANCEL, at=1001.0, resolver="cancel")
    assert [r.id for r in store.list_requests()] == [new.id, old.id]
    assert [r.id for r in store.list_requests([RequestState.PENDING])] == [new.id]
    assert store.list_requests([]) == []


def test_approve_always_stores_its_grant_in_the_same_step(store: Store, make_request: MakeRequest) -> None:
    request = make_request()
    store.create_request(request)
    grant = Grant(
        id="g1",
        tool="shell",
        scope=Scope.PROJECT,
        scope_value=request.project,
        summary="git push origin *",
        created=1001.0,
        pattern="git push origin *",
        request_id=request.id,
    )
    outcome = store.resolve(request.id, Action.APPROVE_ALWAYS, at=1001.0, resolver="person", grant=grant)
    assert outcome.request is not None and outcome.request.grant_id == "g1"
    assert store.list_grants() == [grant]
    assert store.grants_for("shell") == [grant] and store.grants_for("fetch") == []


def test_a_losing_approve_always_stores_no_grant(store: Store, make_request: MakeRequest) -> None:
    request = make_request()
    store.create_request(request)
    store.resolve(request.id, Action.DENY, at=1001.0, resolver="person")
    grant = Grant(
        id="g1", tool="shell", scope=Scope.PROJECT, scope_value="p", summary="s", created=1.0, key="k"
    )
    assert (
        store.resolve(request.id, Action.APPROVE_ALWAYS, at=1002.0, resolver="person", grant=grant).won
        is False
    )
    assert store.list_grants() == []


def test_a_revoked_grant_is_gone(store: Store) -> None:
    grant = Grant(
        id="g1", tool="shell", scope=Scope.SESSION, scope_value="s1", summary="s", created=1.0, key="k"
    )
    store.add_grant(grant)
    assert (store.revoke_grant("g1"), store.revoke_grant("g1"), store.list_grants()) == (True, False, [])


def test_turn_and_minute_counters_count_admitted_calls(store: Store) -> None:
    assert store.peek_usage("s1", "t1", 100.0) == Usage(1, 100.0, 1)
    for at in (100.0, 110.0, 150.0):
        store.admit_call("s1", "t1", at)
    assert store.admit_call("s1", "t2", 165.0) == Usage(1, 165.0, 3)  # the call at 100 left the minute
    assert store.peek_usage("s1", "t1", 170.0) == Usage(4, 100.0, 3)  # window is (110, 170]
    assert store.peek_usage("s2", None, 170.0) == Usage(0, None, 1)


def test_counters_changed_inside_a_batch_count_as_they_would_one_by_one(store: Store) -> None:
    with store.batch():
        inside = [store.admit_call("s1", "t1", at) for at in (100.0, 110.0)]
        store.refuse_call("s1", 110.0)
        store.note_outcome("s1", "k", failed=True, hard=False, at=110.0)
    assert (inside, store.admit_call("s1", "t1", 120.0), store.failure_record("s1", "k")) == (
        [Usage(1, 100.0, 1), Usage(2, 100.0, 2)],
        Usage(3, 100.0, 2, 1),  # the refused call left calls_per_minute's count
        FailureRecord(1, 0, last=110.0),
    )


def test_failures_accumulate_per_session_and_call_and_a_success_clears_them(store: Store) -> None:
    store.note_outcome("s1", "k", failed=True, hard=False, at=1.0)
    store.note_outcome("s1", "k", failed=True, hard=True, at=2.0)
    assert (store.failure_record("s1", "k"), store.failure_record("s2", "k")) == (
        FailureRecord(2, 1, last=2.0),
        FailureRecord(0, 0),
    )
    store.note_outcome("s1", "k", failed=False, hard=False, at=3.0)
    assert store.failure_record("s1", "k") == FailureRecord(0, 0)
