"""PostgreSQL only: waiters wake on LISTEN/NOTIFY, and a lost notification cannot strand them."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from bastion.approval.clock import SystemClock
from bastion.approval.queue import ApprovalQueue
from bastion.approval.state import Action, RequestState
from bastion.state import Stores, open_stores
from tests.postgres.test_pg_approval_behaviour import make_request


@pytest.fixture
def two(pg_url: str, tmp_path: Path) -> Iterator[tuple[Stores, Stores]]:
    here, there = open_stores(pg_url, str(tmp_path / "a")), open_stores(pg_url, str(tmp_path / "b"))
    yield here, there
    here.close()
    there.close()


def test_an_answer_on_another_daemon_sets_the_waiters_event_through_notify(
    two: tuple[Stores, Stores],
) -> None:
    here, there = two

    async def scenario() -> bool:
        request = make_request(created=SystemClock().now(), ttl=60.0)
        watch = here.approvals.watch(request.id)  # registered on `here` only: only NOTIFY reaches it
        here.approvals.create_request(request)
        there.approvals.resolve(request.id, Action.DENY, at=request.created + 1, resolver="person")
        await asyncio.wait_for(watch.event.wait(), 30)
        watch.close()
        return watch.event.is_set()

    assert asyncio.run(scenario()) is True


def test_observers_hear_new_and_resolved_requests_from_every_daemon(two: tuple[Stores, Stores]) -> None:
    here, there = two
    heard: list[tuple[str, str]] = []
    done = asyncio.Event()

    async def scenario() -> None:
        loop = asyncio.get_running_loop()

        def observer(kind: str, request_id: str) -> None:
            heard.append((kind, request_id))
            if kind == "resolved":
                loop.call_soon_threadsafe(done.set)

        undo = here.approvals.observe(observer)  # type: ignore[attr-defined]
        request = make_request(created=SystemClock().now(), ttl=60.0)
        there.approvals.create_request(request)
        there.approvals.resolve(request.id, Action.CANCEL, at=request.created, resolver="cancel")
        await asyncio.wait_for(done.wait(), 30)
        undo()
        assert heard == [("created", request.id), ("resolved", request.id)]

    asyncio.run(scenario())


def test_an_answer_written_without_a_notification_still_reaches_the_waiter(
    two: tuple[Stores, Stores], pg_url: str
) -> None:
    here, _ = two

    async def scenario() -> RequestState:
        clock = SystemClock()
        request = make_request(created=clock.now(), ttl=60.0)
        queue = ApprovalQueue(here.approvals, clock)
        watch = queue.submit(request)
        waiting = asyncio.ensure_future(queue.wait(request.id, request.expires, watch))
        with psycopg.connect(pg_url, autocommit=True) as conn:  # no pg_notify: a "lost" notification
            conn.execute(
                "UPDATE approval_requests SET state = 'approved_once', resolver = 'person', "
                "resolved_at = %s WHERE id = %s",
                (clock.now(), request.id),
            )
        return (await asyncio.wait_for(waiting, 30)).state

    assert asyncio.run(scenario()) is RequestState.APPROVED_ONCE
