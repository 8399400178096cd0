"""The ledger's storage boundary, and an in-memory twin for tests.

``append`` chains inside the store's own write transaction: reading the last hash and
inserting after it is atomic, so writers in several processes never fork the chain.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from bastion.audit.events import GENESIS, AuditEvent, LedgerRecord, chain


@dataclass(frozen=True, slots=True)
class LedgerQuery:
    session: str | None = None
    since: float | None = None
    decision: str | None = None
    after_seq: int = 0
    limit: int | None = None

    def sql(self, mark: str) -> tuple[str, list[object]]:
        """``SELECT`` over the ``ledger`` table for this query, with ``mark`` as the
        parameter placeholder (``?`` for SQLite, ``%s`` for PostgreSQL)."""
        where: list[str] = [f"seq > {mark}"]
        params: list[object] = [self.after_seq]
        for column, op, value in (("session", "=", self.session), ("time", ">=", self.since),
                                  ("decision", "=", self.decision)):
            if value is not None:
                where.append(f"{column} {op} {mark}")
                params.append(value)
        sql = f"SELECT * FROM ledger WHERE {' AND '.join(where)} ORDER BY seq"
        if self.limit is not None:
            sql += f" LIMIT {mark}"
            params.append(int(self.limit))
        return sql, params


class LedgerStore(Protocol):
    def append(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        """Chain and store ``events`` in one durable transaction; returns the records."""
        ...

    def query(self, query: LedgerQuery) -> list[LedgerRecord]:
        """Records in chain order matching every given filter."""
        ...

    def scan(self) -> Iterator[LedgerRecord]:
        """Every record in ``seq`` order, as stored (for verification)."""
        ...

    def close(self) -> None: ...


def matches(record: LedgerRecord, query: LedgerQuery) -> bool:
    event = record.event
    return (
        record.seq > query.after_seq
        and (query.session is None or event.session == query.session)
        and (query.since is None or event.time >= query.since)
        and (query.decision is None or event.decision == query.decision)
    )


class MemoryLedgerStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.records: list[LedgerRecord] = []

    def append(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        out = []
        with self._lock:
            for event in events:
                last = self.records[-1] if self.records else None
                record = chain(last.seq + 1 if last else 1, last.hash if last else GENESIS, event)
                self.records.append(record)
                out.append(record)
        return out

    def query(self, query: LedgerQuery) -> list[LedgerRecord]:
        with self._lock:
            found = [r for r in self.records if matches(r, query)]
        return found[: query.limit] if query.limit is not None else found

    def scan(self) -> Iterator[LedgerRecord]:
        with self._lock:
            items = list(self.records)
        yield from items

    def close(self) -> None:
        return None
