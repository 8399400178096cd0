"""The ledger's storage boundary, and an in-memory twin for tests.

``append`` chains inside the store's own write transaction: reading the last hash and
inserting after it is atomic, so writers in several processes never fork the chain.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from bastion.audit.chain import Chain, LegacyBreak
from bastion.audit.events import GENESIS, AuditEvent, EventKind, LedgerRecord


@dataclass(frozen=True, slots=True)
class LedgerQuery:
    session: str | None = None
    since: float | None = None
    decision: str | None = None
    after_seq: int = 0
    limit: int | None = None
    #: The record kind (``EventKind`` value) and the exact agent column, when given.
    kind: str | None = None
    agent: str | None = None

    def sql(self, mark: str) -> tuple[str, list[object]]:
        """``SELECT`` over the ``ledger`` table for this query, with ``mark`` as the
        parameter placeholder (``?`` for SQLite, ``%s`` for PostgreSQL)."""
        where: list[str] = [f"seq > {mark}"]
        params: list[object] = [self.after_seq]
        for column, op, value in (
            ("session", "=", self.session),
            ("time", ">=", self.since),
            ("decision", "=", self.decision),
            ("kind", "=", self.kind),
            ("agent", "=", self.agent),
        ):
            if value is not None:
                where.append(f"{column} {op} {mark}")
                params.append(value)
        sql = f"SELECT * FROM ledger WHERE {' AND '.join(where)} ORDER BY seq"
        if self.limit is not None:
            sql += f" LIMIT {mark}"
            params.append(int(self.limit))
        return sql, params


class LedgerStore(Protocol):
    #: The keyed chain this store links (and ``logs verify`` checks) records with.
    chain: Chain

    def append(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        """Chain and store ``events`` in one durable transaction; returns the records."""
        ...

    def append_once(self, event: AuditEvent) -> LedgerRecord:
        """Append ``event`` unless it is a ``resolved`` event and one with its
        ``decision_id`` is stored already (then return that one): checked inside the
        append's own write transaction, so exactly one resolution per request is stored."""
        ...

    def scan_rows(self) -> Iterator[Mapping[str, Any]]:
        """Every record as its stored values (``seq``, ``prev``, ``hash``, the event's
        columns), in ``seq`` order, undecoded: what ``logs verify`` checks."""
        ...

    def legacy_break(self) -> LegacyBreak | None:
        """Where the chain was already broken when an unkeyed (v1) ledger was re-keyed."""
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
        and (query.kind is None or event.kind == query.kind)
        and (query.agent is None or event.agent == query.agent)
    )


def is_resolution(event: AuditEvent) -> bool:
    return event.kind == EventKind.RESOLVED.value


class MemoryLedgerStore:
    def __init__(self, chain: Chain | None = None) -> None:
        self._lock = threading.Lock()
        self.records: list[LedgerRecord] = []
        #: Nothing outlives the process, so a fresh key per store is enough.
        self.chain = chain or Chain(secrets.token_bytes(32))

    def _append(self, event: AuditEvent) -> LedgerRecord:
        last = self.records[-1] if self.records else None
        record = self.chain.link(last.seq + 1 if last else 1, last.hash if last else GENESIS, event)
        self.records.append(record)
        return record

    def append(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        with self._lock:
            return [self._append(event) for event in events]

    def append_once(self, event: AuditEvent) -> LedgerRecord:
        with self._lock:
            if is_resolution(event):
                for record in self.records:
                    if is_resolution(record.event) and record.event.decision_id == event.decision_id:
                        return record
            return self._append(event)

    def scan_rows(self) -> Iterator[Mapping[str, Any]]:
        for record in self.scan():
            yield {"seq": record.seq, "prev": record.prev, "hash": record.hash, **asdict(record.event)}

    def legacy_break(self) -> LegacyBreak | None:
        return None

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
