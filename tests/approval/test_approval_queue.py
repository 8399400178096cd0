"""The queue service: park and wait, answer, expire; answers that cannot apply say why."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from bastion.approval.clock import FakeClock
from bastion.approval.memory import MemoryStore
from bastion.approval.model import ApprovalRequest, Grant, Scope
from bastion.approval.queue import AnswerError, ApprovalQueue
from bastion.approval.state import Action, RequestState
from bastion.approval.store import Store
from tests.approval.conftest import ASKED, MakeRequest


def test_a_parked_request_resumes_with_the_answer(store: Store, make_request: MakeRequest) -> None:
    clock = FakeClock(1000.0)
    queue = ApprovalQueue(store, clock)
    request = make_request(created=1000.0)

    async def scenario() -> ApprovalRequest:
        watch = queue.submit(request)
        waiter = asyncio.ensure_future(queue.wait(request.id, request.expires, watch))
        await asyncio.sleep(0)
        queue.answer(request.id, approve=True, approver="k1")
        return await waiter

    final = asyncio.run(scenario())
    assert (final.state, final.resolver, final.resolved_at) == (RequestState.APPROVED_ONCE, "person", 1000.0)


class AnsweringStore(MemoryStore):
    """Answers every request the instant it is persisted, before anyone could start waiting."""

    def create_request(self, request: ApprovalRequest) -> None:
        super().create_request(request)
        self.resolve(request.id, Action.DENY, at=request.created, resolver="person", feedback="fast")


def test_an_answer_racing_the_insert_is_not_lost() -> None:
    clock = FakeClock(1000.0)
    store = AnsweringStore()
    queue = ApprovalQueue(store, clock)
    request = ApprovalRequest(
        id="r1",
        created=1000.0,
        expires=1300.0,
        tool="fetch",
        summary="s",
        reason="r",
        evaluation=ASKED,
        call_key="k",
        project="p",
    )

    async def scenario() -> ApprovalRequest:
        watch = queue.submit(request)
        assert watch.event.is_set()  # the waiter was registered before the row existed
        return await queue.wait(request.id, request.expires, watch)

    final = asyncio.run(scenario())
    assert (final.state, final.feedback, clock.now()) == (RequestState.DENIED, "fast", 1000.0)


def test_an_unanswered_request_expires_as_a_denial_at_its_deadline(
    store: Store, make_request: MakeRequest
) -> None:
    clock = FakeClock(1000.0)
    queue = ApprovalQueue(store, clock)
    request = make_request(created=1000.0, ttl=300.0)

    async def scenario() -> ApprovalRequest:
        return await queue.wait(request.id, request.expires, queue.submit(request))

    final = asyncio.run(scenario())
    assert (final.state, final.resolver, final.resolved_at) == (RequestState.EXPIRED, "timeout", 1300.0)


def test_cancelling_the_waiter_cancels_the_request(store: Store, make_request: MakeRequest) -> None:
    queue = ApprovalQueue(store, FakeClock(1000.0))
    request = make_request(created=1000.0, ttl=10_000.0)

    async def scenario() -> None:
        waiter = asyncio.ensure_future(queue.wait(request.id, request.expires, queue.submit(request)))
        await asyncio.sleep(0)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter

    asyncio.run(scenario())
    final = store.get_request(request.id)
    assert final is not None and (final.state, final.resolver) == (RequestState.CANCELLED, "cancel")


def test_approve_always_with_a_pattern_creates_a_project_grant(
    store: Store, make_request: MakeRequest
) -> None:
    queue = ApprovalQueue(store, FakeClock(1001.0))
    request = make_request()
    store.create_request(request)
    final = queue.answer(request.id, approve=True, always=True, pattern="git push origin *", approver="k1")
    [grant] = store.list_grants()
    assert grant == Grant(
        id=grant.id,
        tool="shell",
        scope=Scope.PROJECT,
        scope_value=request.project,
        summary="git push origin *",
        created=1001.0,
        pattern="git push origin *",
        request_id=request.id,
    )
    assert (final.state, final.grant_id) == (RequestState.APPROVED_ALWAYS, grant.id)


def test_approve_always_without_a_pattern_grants_the_exact_call(
    store: Store, make_request: MakeRequest
) -> None:
    queue = ApprovalQueue(store, FakeClock(1001.0))
    request = make_request()
    store.create_request(request)
    queue.answer(request.id, approve=True, always=True, scope=Scope.SESSION, approver="k1")
    [grant] = store.list_grants()
    assert (grant.kind, grant.key, grant.scope, grant.scope_value, grant.summary) == (
        "exact",
        "key-1",
        Scope.SESSION,
        "s1",
        request.summary,
    )


@pytest.mark.parametrize(
    ("changes", "kwargs", "message", "hint"),
    [
        (
            {"grantable": False},
            {},
            "this call involves a hardline class or raised privilege: never a standing grant",
            "approve it once (without --always), or deny it",
        ),
        (
            {"session": None},
            {"scope": Scope.SESSION},
            "this request has no session: a session grant is impossible",
            "use --scope project",
        ),
        (
            {},
            {"pattern": "git push upstream *"},
            "pattern 'git push upstream *' does not match the request's command",
            "the command is: git push origin main",
        ),
        (
            {"argv": None},
            {"pattern": "git *"},
            "this command is not one plain command, so no pattern can cover it",
            "omit --pattern to grant this exact call",
        ),
        (
            {"tool": "fetch", "argv": None},
            {"pattern": "x *"},
            "--pattern applies to shell calls only",
            "omit --pattern to grant this exact call",
        ),
    ],
)
def test_a_grant_that_cannot_be_made_is_refused_and_the_request_stays_pending(
    store: Store,
    make_request: MakeRequest,
    changes: dict[str, object],
    kwargs: dict[str, object],
    message: str,
    hint: str,
) -> None:
    queue = ApprovalQueue(store, FakeClock(1001.0))
    request = dataclasses.replace(make_request(), **changes)  # type: ignore[arg-type]
    store.create_request(request)
    with pytest.raises(AnswerError) as raised:
        queue.answer(request.id, approve=True, always=True, **kwargs, approver="k1")  # type: ignore[arg-type]
    assert (str(raised.value), raised.value.hint) == (message, hint)
    assert store.get_request(request.id) == request and store.list_grants() == []


def test_answering_a_resolved_request_says_who_resolved_it(store: Store, make_request: MakeRequest) -> None:
    queue = ApprovalQueue(store, FakeClock(1001.0))
    request = make_request()
    store.create_request(request)
    queue.answer(request.id, approve=False, feedback="no", approver="k1")
    with pytest.raises(AnswerError) as raised:
        queue.answer(request.id, approve=True, approver="k1")
    assert str(raised.value) == f"request {request.id} is already denied (by person)"


def test_answering_after_the_deadline_expires_the_request_and_says_so(
    store: Store, make_request: MakeRequest
) -> None:
    queue = ApprovalQueue(store, FakeClock(1400.0))
    request = make_request(created=1000.0, ttl=300.0)
    store.create_request(request)
    with pytest.raises(AnswerError) as raised:
        queue.answer(request.id, approve=True, approver="k1")
    assert (str(raised.value), raised.value.hint) == (
        f"request {request.id} expired before this answer",
        "the call was denied; ask the agent to retry it",
    )
    final = store.get_request(request.id)
    assert final is not None and final.state is RequestState.EXPIRED


def test_a_unique_id_prefix_finds_the_request_and_an_unknown_one_says_how_to_list(
    store: Store, make_request: MakeRequest
) -> None:
    queue = ApprovalQueue(store, FakeClock(1001.0))
    request = make_request(id="abcdef123")
    store.create_request(request)
    assert queue.find("abcdef") == request
    with pytest.raises(AnswerError) as raised:
        queue.find("zzzzzz")
    assert (str(raised.value), raised.value.hint) == (
        "no approval request 'zzzzzz'",
        "run 'bastion approvals list --all' to see request ids",
    )
