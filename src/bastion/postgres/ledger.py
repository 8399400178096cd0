"""The audit ledger on PostgreSQL: one linear hash chain, whatever the number of daemons.

An append takes ``pg_advisory_xact_lock(LEDGER_LOCK)`` first, then reads the last record
and inserts after it, all in one transaction: writers on every daemon queue on the lock,
so each record's ``prev`` is the hash of the record committed just before it and ``seq``
has no gaps (the primary key would refuse a fork anyway). The lock is released by the
commit, so it is held for one short transaction; batch with
:class:`~bastion.audit.group.GroupCommitStore` to share one commit between threads.

``scan`` returns the stored values exactly, so :func:`bastion.audit.ledger.verify_records`
(``bastion logs verify``) works unchanged: an edited, removed or reordered row is found.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from bastion.audit.events import EVENT_FIELDS, GENESIS, AuditEvent, LedgerRecord, chain
from bastion.audit.store import LedgerQuery
from bastion.postgres.connection import PgHandle, Row
from bastion.postgres.rows import decode, encode

#: Arbitrary 64-bit key of the advisory lock that serialises appends.
LEDGER_LOCK = 0x42A5_7105_1ED6
SCAN_PAGE = 2000

_COLUMNS = ("seq", "prev", "hash", *EVENT_FIELDS, "nul_fields")
_INSERT = f"INSERT INTO ledger ({', '.join(_COLUMNS)}) VALUES ({', '.join(['%s'] * len(_COLUMNS))})"


def _record(row: Row) -> LedgerRecord:
    fields = decode(row, EVENT_FIELDS)
    return LedgerRecord(seq=int(row["seq"]), prev=row["prev"], hash=row["hash"],
                        event=AuditEvent(**fields))


def _row(record: LedgerRecord) -> tuple[object, ...]:
    values, exact = encode(EVENT_FIELDS, tuple(getattr(record.event, n) for n in EVENT_FIELDS))
    return (record.seq, record.prev, record.hash, *values, exact)


class PgLedgerStore(PgHandle):
    """Implements :class:`bastion.audit.store.LedgerStore` on a shared PostgreSQL database."""

    def append(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        out: list[LedgerRecord] = []
        if not events:
            return out
        with self.db.transaction("appending to the audit ledger") as conn:
            with conn.pipeline():  # the lock and the read of the head in one round trip
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (LEDGER_LOCK,))
                last = conn.execute("SELECT seq, hash FROM ledger ORDER BY seq DESC LIMIT 1").fetchone()
            seq, prev = (int(last["seq"]), str(last["hash"])) if last else (0, GENESIS)
            for event in events:
                seq += 1
                record = chain(seq, prev, event)
                out.append(record)
                prev = record.hash
            with conn.cursor() as cursor:
                cursor.executemany(_INSERT, [_row(r) for r in out])
        return out

    def query(self, query: LedgerQuery) -> list[LedgerRecord]:
        sql, params = query.sql("%s")
        return [_record(r) for r in self.db.read(sql, params)]

    def scan(self) -> Iterator[LedgerRecord]:
        last = 0
        while True:
            rows = self.db.read("SELECT * FROM ledger WHERE seq > %s ORDER BY seq LIMIT %s",
                                (last, SCAN_PAGE))
            if not rows:
                return
            for row in rows:
                yield _record(row)
            last = int(rows[-1]["seq"])

    def count(self) -> int:
        row = self.db.one("SELECT count(*) AS n FROM ledger")
        return int(row["n"]) if row else 0

