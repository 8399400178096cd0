"""The approval Store behaves the same on SQLite and PostgreSQL: requests, exactly-once
resolution, expiry, grants, counters and the repeat guard."""

from __future__ import annotations

import asyncio
import dataclasses

from bastion.approval.model import ApprovalRequest, Deadline, FailureRecord, Grant, Scope, Usage, new_id
from bastion.approval.state import Action, RequestState
from bastion.approval.store import Resolution
from bastion.call.effects import Effect
from bastion.policy.decision import Decision, Evaluation, Reason
from bastion.state import Stores

ASKED = Evaluation(
    Decision.ASK,
    (Reason(Decision.ASK, "rule[1]", "policy.toml:3", "x", "a person decides"),),
    (Effect.NETWORK,),
)


def make_request(created: float = 1000.0, ttl: float = 300.0, **kw: object) -> ApprovalRequest:
    fields: dict[str, object] = {
        "id": new_id(),
        "created": created,
        "expires": created + ttl,
        "tool": "shell",
        "summary": "shell: git push origin main",
        "reason": "a person decides",
        "evaluation": ASKED,
        "call_key": "key-1",
        "project": "/proj/.bastion/policy.toml",
        "session": "s1",
        "argv": ("git", "push", "origin", "main"),
        "suggested_pattern": "git push origin *",
        "folder": "/proj",
        "deadline": Deadline.CALLER,
    }
    fields.update(kw)
    return ApprovalRequest(**fields)  # type: ignore[arg-type]


def grant_for(request: ApprovalRequest, created: float = 1001.0) -> Grant:
    return Grant(
        id=new_id(),
        tool="shell",
        scope=Scope.PROJECT,
        scope_value=request.project,
        summary=request.summary,
        created=created,
        key=request.call_key,
        request_id=request.id,
    )


def test_a_created_request_reads_back_whole(stores: Stores) -> None:
    request = make_request()
    stores.approvals.create_request(request)
    assert (stores.approvals.get_request(request.id), stores.approvals.get_request("nope")) == (request, None)


def test_a_request_whose_text_holds_a_nul_reads_back_exactly(stores: Stores) -> None:
    request = make_request(summary="shell: printf 'a\x00b'", argv=("printf", "a\x00b"), turn="t\x00")
    stores.approvals.create_request(request)
    assert stores.approvals.get_request(request.id) == request


def test_the_first_answer_wins_and_the_second_learns_the_winner(stores: Stores, other_stores: Stores) -> None:
    request = make_request()
    stores.approvals.create_request(request)
    first = stores.approvals.resolve(
        request.id, Action.DENY, at=1001.0, resolver="person", feedback="use the stdlib"
    )
    second = other_stores.approvals.resolve(request.id, Action.APPROVE_ONCE, at=1002.0, resolver="person")
    denied = dataclasses.replace(
        request, state=RequestState.DENIED, resolved_at=1001.0, resolver="person", feedback="use the stdlib"
    )
    assert (first, second) == (Resolution(True, denied), Resolution(False, denied))


def test_approve_uncontained_is_a_state_the_database_keeps(stores: Stores) -> None:
    # Migration 0004 widens the state check: the answer is stored as its own state.
    request = make_request()
    stores.approvals.create_request(request)
    done = stores.approvals.resolve(
        request.id, Action.APPROVE_UNCONTAINED, at=1001.0, resolver="person", approver="k1"
    )
    kept = stores.approvals.get_request(request.id)
    assert (done.won, kept.state if kept else None) == (True, RequestState.APPROVED_UNCONTAINED)


def test_resolving_an_unknown_request_reports_no_request(stores: Stores) -> None:
    assert stores.approvals.resolve("nope", Action.DENY, at=1.0, resolver="person") == Resolution(False, None)


def test_an_answer_at_the_expiry_time_is_refused_and_the_request_stays_pending(stores: Stores) -> None:
    request = make_request(created=1000.0, ttl=10.0)
    stores.approvals.create_request(request)
    assert stores.approvals.resolve(
        request.id, Action.APPROVE_ONCE, at=1010.0, resolver="person"
    ) == Resolution(False, request)


def test_an_answer_persisted_before_expiry_is_honoured_over_the_late_expiry(stores: Stores) -> None:
    request = make_request(created=1000.0, ttl=10.0)
    stores.approvals.create_request(request)
    stores.approvals.resolve(request.id, Action.APPROVE_ONCE, at=1009.99, resolver="person")
    late = stores.approvals.resolve(request.id, Action.EXPIRE, at=1010.0, resolver="timeout")
    assert (late.won, late.request.state if late.request else None) == (False, RequestState.APPROVED_ONCE)


def test_expire_due_expires_only_pending_requests_whose_time_is_up(stores: Stores) -> None:
    due, later, answered = make_request(ttl=5.0), make_request(ttl=50.0), make_request(ttl=5.0)
    for r in (due, later, answered):
        stores.approvals.create_request(r)
    stores.approvals.resolve(answered.id, Action.APPROVE_ONCE, at=1001.0, resolver="person")
    expired = stores.approvals.expire_due(1006.0)
    states = [stores.approvals.get_request(i).state for i in (due.id, later.id, answered.id)]  # type: ignore[union-attr]
    assert (expired, states) == (
        [due.id],
        [RequestState.EXPIRED, RequestState.PENDING, RequestState.APPROVED_ONCE],
    )


def test_listing_filters_by_state_newest_first(stores: Stores) -> None:
    old, new = make_request(created=1000.0), make_request(created=2000.0)
    stores.approvals.create_request(old)
    stores.approvals.create_request(new)
    stores.approvals.resolve(old.id, Action.CANCEL, at=1001.0, resolver="cancel")
    assert (
        [r.id for r in stores.approvals.list_requests()],
        [r.id for r in stores.approvals.list_requests([RequestState.PENDING])],
        stores.approvals.list_requests([]),
    ) == ([new.id, old.id], [new.id], [])


def test_approve_always_stores_its_grant_with_the_answer_and_a_loser_stores_none(stores: Stores) -> None:
    request = make_request()
    stores.approvals.create_request(request)
    grant, losing = grant_for(request), grant_for(request, created=1002.0)
    won = stores.approvals.resolve(
        request.id, Action.APPROVE_ALWAYS, at=1001.0, resolver="person", grant=grant
    )
    lost = stores.approvals.resolve(
        request.id, Action.APPROVE_ALWAYS, at=1002.0, resolver="person", grant=losing
    )
    assert (
        won.won,
        lost.won,
        stores.approvals.list_grants(),
        stores.approvals.grants_for("shell"),
        stores.approvals.grants_for("fetch"),
    ) == (True, False, [grant], [grant], [])


def test_grants_list_oldest_first_and_revoke_once(stores: Stores) -> None:
    request = make_request()
    second, first = grant_for(request, created=2000.0), grant_for(request, created=1000.0)
    stores.approvals.add_grant(second)
    stores.approvals.add_grant(first)
    listed = stores.approvals.list_grants()
    revoked = (stores.approvals.revoke_grant(first.id), stores.approvals.revoke_grant(first.id))
    assert (listed, revoked, stores.approvals.list_grants()) == ([first, second], (True, False), [second])


def test_admitted_calls_count_per_turn_and_per_sliding_minute(stores: Stores, other_stores: Stores) -> None:
    a = stores.approvals.admit_call("s1", "t1", 100.0)
    b = other_stores.approvals.admit_call("s1", "t1", 130.0)
    peek = stores.approvals.peek_usage("s1", "t1", 150.0)
    c = other_stores.approvals.admit_call("s1", "t2", 170.0)
    no_turn = stores.approvals.admit_call("s2", None, 170.0)
    assert (a, b, peek, c, no_turn) == (
        Usage(turn_calls=1, turn_started=100.0, minute_calls=1),
        Usage(turn_calls=2, turn_started=100.0, minute_calls=2),
        Usage(turn_calls=3, turn_started=100.0, minute_calls=3),
        Usage(turn_calls=1, turn_started=170.0, minute_calls=2),
        Usage(turn_calls=0, turn_started=None, minute_calls=1),
    )


def test_a_peek_records_nothing(stores: Stores) -> None:
    stores.approvals.peek_usage("s1", "t1", 100.0)
    assert stores.approvals.peek_usage("s1", "t1", 101.0) == Usage(
        turn_calls=1, turn_started=101.0, minute_calls=1
    )


def test_failures_count_up_per_call_and_a_success_clears_them(stores: Stores, other_stores: Stores) -> None:
    stores.approvals.note_outcome("s1", "k", failed=True, hard=True, at=1.0)
    other_stores.approvals.note_outcome("s1", "k", failed=True, hard=False, at=2.0)
    counted = stores.approvals.failure_record("s1", "k")
    other_stores.approvals.note_outcome("s1", "k", failed=False, hard=False, at=3.0)
    assert (
        counted,
        stores.approvals.failure_record("s1", "k"),
        stores.approvals.failure_record("s2", "k"),
    ) == (FailureRecord(2, 1, 2.0), FailureRecord(), FailureRecord())


def test_a_waiter_learns_an_answer_given_through_another_opening_of_the_state(
    stores: Stores, other_stores: Stores
) -> None:
    """The parked side (one daemon) resumes when another daemon answers: NOTIFY on
    PostgreSQL, the periodic re-read on SQLite; either way through the queue's wait."""
    from bastion.approval.clock import SystemClock
    from bastion.approval.queue import ApprovalQueue

    async def scenario() -> ApprovalRequest:
        clock = SystemClock()
        now = clock.now()
        request = make_request(created=now, ttl=60.0)
        queue = ApprovalQueue(stores.approvals, clock)
        watch = queue.submit(request)
        waiting = asyncio.ensure_future(queue.wait(request.id, request.expires, watch))
        await asyncio.sleep(0.05)
        ApprovalQueue(other_stores.approvals, clock).answer(request.id, approve=True, approver="k1")
        return await asyncio.wait_for(waiting, 30)

    final = asyncio.run(scenario())
    assert (final.state, final.resolver) == (RequestState.APPROVED_ONCE, "person")
