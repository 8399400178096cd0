"""The ledger in Bastion's SQLite file: one row per record, every column under the hash."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence

from bastion.audit.events import EVENT_FIELDS, GENESIS, AuditEvent, LedgerRecord, chain
from bastion.audit.sqlite_db import Database
from bastion.audit.store import LedgerQuery

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS ledger (
    seq INTEGER PRIMARY KEY, prev TEXT NOT NULL, hash TEXT NOT NULL,
    {", ".join(f"{name}" for name in EVENT_FIELDS)});
CREATE INDEX IF NOT EXISTS ledger_session ON ledger(session, seq);
CREATE INDEX IF NOT EXISTS ledger_time ON ledger(time)
"""

_INSERT = (f"INSERT INTO ledger (seq, prev, hash, {', '.join(EVENT_FIELDS)}) "
           f"VALUES ({', '.join('?' * (len(EVENT_FIELDS) + 3))})")


def _record(row: sqlite3.Row) -> LedgerRecord:
    event = AuditEvent(**{name: row[name] for name in EVENT_FIELDS})
    return LedgerRecord(seq=row["seq"], prev=row["prev"], hash=row["hash"], event=event)


class SqliteLedgerStore:
    def __init__(self, path: str) -> None:
        self.path = path
        self.db = Database(path, SCHEMA)

    def append(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        out: list[LedgerRecord] = []
        if not events:
            return out
        with self.db.transaction() as conn:
            row = conn.execute("SELECT seq, hash FROM ledger ORDER BY seq DESC LIMIT 1").fetchone()
            seq, prev = (row["seq"], row["hash"]) if row else (0, GENESIS)
            for event in events:
                seq += 1
                record = chain(seq, prev, event)
                values = tuple(getattr(event, name) for name in EVENT_FIELDS)
                conn.execute(_INSERT, (record.seq, record.prev, record.hash, *values))
                out.append(record)
                prev = record.hash
        return out

    def query(self, query: LedgerQuery) -> list[LedgerRecord]:
        sql, params = query.sql("?")
        return [_record(r) for r in self.db.read(sql, tuple(params))]

    def scan(self) -> Iterator[LedgerRecord]:
        last = 0
        while True:
            rows = self.db.read("SELECT * FROM ledger WHERE seq > ? ORDER BY seq LIMIT 1000", (last,))
            if not rows:
                return
            for row in rows:
                yield _record(row)
            last = rows[-1]["seq"]

    def close(self) -> None:
        self.db.close()
