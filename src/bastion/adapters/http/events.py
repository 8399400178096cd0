"""The live feed behind ``GET /v1/events``: new requests and resolutions, as Server-Sent Events.

Requests are parked by this daemon *and* by other processes (the CLI, hooks) writing the
same store, so one task per daemon polls the store's pending set every ``interval``
(an indexed query; the store has no cross-process notification) and fans the differences
out to every subscriber. It also expires requests whose waiter died.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from bastion.approval.model import ApprovalRequest
from bastion.approval.state import RequestState
from bastion.approval.store import Store

log = logging.getLogger("bastion.http")

Event = tuple[str, dict[str, Any]]
KEEPALIVE = 15.0
QUEUE_SIZE = 1000


class EventHub:
    def __init__(
        self,
        store: Store,
        *,
        interval: float,
        render: Callable[[ApprovalRequest], dict[str, Any]],
        now: Callable[[], float],
        expire: Callable[[], object] | None = None,
    ) -> None:
        self.store = store
        #: Expires (and records in the ledger) what is due; the bare store's by default.
        self.expire = expire or (lambda: store.expire_due(now()))
        self.interval = interval
        self.render = render
        self.now = now
        self._known: set[str] = set()
        self._subscribers: set[asyncio.Queue[Event | None]] = set()

    def pending(self) -> list[ApprovalRequest]:
        return self.store.list_requests([RequestState.PENDING])

    def poll(self) -> list[Event]:
        """One round: expire what is due, then what appeared and what was resolved."""
        self.expire()
        current = {r.id: r for r in self.pending()}
        events: list[Event] = [
            ("request", self.render(r))
            for rid, r in sorted(current.items(), key=lambda item: item[1].created)
            if rid not in self._known
        ]
        for rid in sorted(self._known - current.keys()):
            gone = self.store.get_request(rid)
            if gone is not None:
                events.append(("resolved", self.render(gone)))
        self._known = set(current)
        return events

    def publish(self, events: list[Event]) -> None:
        for queue in list(self._subscribers):
            for event in events:
                try:
                    queue.put_nowait(event)
                except asyncio.QueueFull:  # a stuck reader loses its stream, not the daemon
                    self._subscribers.discard(queue)
                    break

    async def run(self) -> None:
        self._known = {r.id for r in self.pending()}
        while True:
            try:
                events = self.poll()
            except Exception as exc:  # a busy store is retried on the next round
                log.warning("event feed: cannot read the store: %s", exc)
                events = []
            if events:
                self.publish(events)
            await asyncio.sleep(self.interval)

    def subscribe(self) -> asyncio.Queue[Event | None]:
        queue: asyncio.Queue[Event | None] = asyncio.Queue(QUEUE_SIZE)
        for request in reversed(self.pending()):  # the current state first, oldest first
            queue.put_nowait(("request", self.render(request)))
        self._subscribers.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[Event | None]) -> None:
        self._subscribers.discard(queue)

    def close(self) -> None:
        for queue in list(self._subscribers):
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(None)
        self._subscribers.clear()


def sse(kind: str, data: dict[str, Any]) -> str:
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"event: {kind}\ndata: {body}\n\n"


async def stream(hub: EventHub, queue: asyncio.Queue[Event | None]) -> AsyncIterator[str]:
    """The SSE body: a retry hint, then events as they come, a comment every 15 s."""
    try:
        yield "retry: 2000\n: bastion events\n\n"
        while True:
            try:
                item = await asyncio.wait_for(queue.get(), KEEPALIVE)
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            if item is None:
                return
            yield sse(*item)
    finally:
        hub.unsubscribe(queue)
