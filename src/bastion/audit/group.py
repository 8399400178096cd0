"""Group commit: concurrent appends from many threads share one durable transaction.

The first caller to arrive becomes the leader and writes every queued event in one
transaction (one fsync), looping while more arrive; the others wait for the commit that
holds their events. Each caller returns only after its own events are durable, and a
failed commit fails every caller in it, so nothing acknowledged is ever lost.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bastion.audit.chain import Chain, LegacyBreak
from bastion.audit.events import AuditEvent, LedgerRecord
from bastion.audit.store import LedgerQuery, LedgerStore


class _Batch:
    """The events of one commit and its outcome, and a held lock per caller waiting on it,
    released once the commit is done (a Future per caller cost a condition and a wake-up
    each; an Event per batch woke every caller through one Condition, re-taken in turn)."""

    __slots__ = ("error", "events", "records", "waiters")

    def __init__(self) -> None:
        self.events: list[AuditEvent] = []
        self.records: list[LedgerRecord] = []
        self.error: BaseException | None = None
        self.waiters: list[threading.Lock] = []


class GroupCommitStore:
    def __init__(self, inner: LedgerStore) -> None:
        self.inner = inner
        self._lock = threading.Lock()
        self._open = _Batch()  # the batch arriving callers join
        self._writing = False

    def append(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        if not events:  # nothing to make durable; an empty batch would never be committed
            return []
        waiter = None
        with self._lock:
            batch = self._open
            start = len(batch.events)
            batch.events.extend(events)
            if self._writing:
                waiter = threading.Lock()
                waiter.acquire()
                batch.waiters.append(waiter)
            self._writing = True
        if waiter is None:
            self._drain()  # commits this caller's batch first, then any that formed meanwhile
        else:
            waiter.acquire()  # released once the commit holding these events is done
        if batch.error is not None:
            raise batch.error
        return batch.records[start : start + len(events)]

    def _drain(self) -> None:
        while True:
            with self._lock:
                batch = self._open
                if not batch.events:
                    self._writing = False
                    return
                self._open = _Batch()
                waiters = batch.waiters  # complete: nobody joins a batch no longer open
            try:
                batch.records = self.inner.append(batch.events)
            except BaseException as exc:
                batch.error = exc
            for waiter in waiters:
                waiter.release()

    @property
    def chain(self) -> Chain:
        return self.inner.chain

    @chain.setter
    def chain(self, chain: Chain) -> None:  # a verifier holding another key (tests, tools)
        self.inner.chain = chain

    def append_unsynced(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        """Not batched: it waits for no sync, so it has nothing to share (the inner store's,
        or a synced ``append`` when the inner store has none)."""
        unsynced = getattr(self.inner, "append_unsynced", None)
        if callable(unsynced):
            records: list[LedgerRecord] = unsynced(events)
            return records
        return self.append(events)

    def append_once(self, event: AuditEvent) -> LedgerRecord:
        """Not batched: the check for an existing resolution needs its own transaction."""
        return self.inner.append_once(event)

    def scan_rows(self) -> Iterator[Mapping[str, Any]]:
        return self.inner.scan_rows()

    def legacy_break(self) -> LegacyBreak | None:
        return self.inner.legacy_break()

    def query(self, query: LedgerQuery) -> list[LedgerRecord]:
        return self.inner.query(query)

    def scan(self) -> Iterator[LedgerRecord]:
        return self.inner.scan()

    def close(self) -> None:
        self.inner.close()
