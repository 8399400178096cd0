"""Group commit: concurrent appends from many threads share one durable transaction.

The first caller to arrive becomes the leader and writes every queued event in one
transaction (one fsync), looping while more arrive; the others wait for the commit that
holds their events. Each caller returns only after its own events are durable, and a
failed commit fails every caller in it, so nothing acknowledged is ever lost.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Future
from typing import Any

from bastion.audit.chain import Chain, LegacyBreak
from bastion.audit.events import AuditEvent, LedgerRecord
from bastion.audit.store import LedgerQuery, LedgerStore


class GroupCommitStore:
    def __init__(self, inner: LedgerStore) -> None:
        self.inner = inner
        self._lock = threading.Lock()
        self._pending: list[tuple[Sequence[AuditEvent], Future[list[LedgerRecord]]]] = []
        self._writing = False

    def append(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        future: Future[list[LedgerRecord]] = Future()
        with self._lock:
            self._pending.append((events, future))
            leader = not self._writing
            self._writing = True
        if leader:
            self._drain()
        return future.result()

    def _drain(self) -> None:
        while True:
            with self._lock:
                batch, self._pending = self._pending, []
                if not batch:
                    self._writing = False
                    return
            try:
                records = self.inner.append([e for events, _ in batch for e in events])
            except BaseException as exc:
                for _, future in batch:
                    future.set_exception(exc)
                continue
            start = 0
            for events, future in batch:
                future.set_result(records[start : start + len(events)])
                start += len(events)

    @property
    def chain(self) -> Chain:
        return self.inner.chain

    @chain.setter
    def chain(self, chain: Chain) -> None:  # a verifier holding another key (tests, tools)
        self.inner.chain = chain

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
