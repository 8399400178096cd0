"""The ledger in Bastion's SQLite file: one row per record, every column under the keyed hash.

Opening a ledger written by an older Bastion migrates it in one transaction: the
``approver`` column is added, and an unkeyed (v1) chain is re-keyed
(:func:`bastion.audit.chain.rekey`), keeping where it was already broken in ``ledger_meta``.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bastion.audit.chain import CHAIN_VERSION, Chain, LegacyBreak, event_values, rekey
from bastion.audit.events import EVENT_FIELDS, GENESIS, AuditEvent, LedgerRecord
from bastion.audit.sqlite_db import Database
from bastion.audit.store import LedgerQuery, is_resolution

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS ledger (
    seq INTEGER PRIMARY KEY, prev TEXT NOT NULL, hash TEXT NOT NULL,
    {", ".join(f"{name}" for name in EVENT_FIELDS)});
CREATE INDEX IF NOT EXISTS ledger_session ON ledger(session, seq);
CREATE INDEX IF NOT EXISTS ledger_time ON ledger(time);
CREATE INDEX IF NOT EXISTS ledger_decision ON ledger(decision_id);
CREATE TABLE IF NOT EXISTS ledger_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)
"""

_INSERT = (
    f"INSERT INTO ledger (seq, prev, hash, {', '.join(EVENT_FIELDS)}) "
    f"VALUES ({', '.join('?' * (len(EVENT_FIELDS) + 3))})"
)


def _record(row: sqlite3.Row) -> LedgerRecord:
    keys = row.keys()
    event = AuditEvent(
        **{
            name: row[name] if name in keys else None  # type: ignore[arg-type]
            for name in EVENT_FIELDS
        }
    )
    return LedgerRecord(seq=row["seq"], prev=row["prev"], hash=row["hash"], event=event)


class SqliteLedgerStore:
    def __init__(self, path: str, *, chain: Chain, write_lock: threading.RLock | None = None) -> None:
        self.path = path
        self.chain = chain
        self.db = Database(path, SCHEMA, write_lock=write_lock)
        self._unsynced: Database | None = None
        self._unsynced_lock = threading.Lock()
        self._migrate()

    def _migrate(self) -> None:
        with self.db.transaction() as conn:
            columns = {row["name"] for row in conn.execute("PRAGMA table_info(ledger)")}
            for name in EVENT_FIELDS:
                if name not in columns:  # written by an older Bastion
                    conn.execute(f"ALTER TABLE ledger ADD COLUMN {name}")
            meta = dict(conn.execute("SELECT name, value FROM ledger_meta").fetchall())
            if meta.get("chain") == CHAIN_VERSION:
                return
            rows = [_record(r) for r in conn.execute("SELECT * FROM ledger ORDER BY seq").fetchall()]

            def write(record: LedgerRecord) -> None:
                conn.execute(
                    "UPDATE ledger SET prev = ?, hash = ? WHERE seq = ?",
                    (record.prev, record.hash, record.seq),
                )

            broken = rekey(rows, self.chain, write)
            conn.execute(
                "INSERT OR REPLACE INTO ledger_meta (name, value) VALUES ('chain', ?)", (CHAIN_VERSION,)
            )
            if broken is not None:
                conn.executemany(
                    "INSERT OR REPLACE INTO ledger_meta (name, value) VALUES (?, ?)",
                    [("legacy_bad_seq", str(broken.seq)), ("legacy_problem", broken.problem)],
                )

    def _insert(self, conn: sqlite3.Connection, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        row = conn.execute("SELECT seq, hash FROM ledger ORDER BY seq DESC LIMIT 1").fetchone()
        seq, prev = (row["seq"], row["hash"]) if row else (0, GENESIS)
        out: list[LedgerRecord] = []
        rows: list[tuple[Any, ...]] = []
        hash_values = self.chain.hash_values
        for event in events:  # the field values read once, for the hash and for the row
            seq += 1
            values = event_values(event)
            digest = hash_values(seq, prev, values)
            rows.append((seq, prev, digest, *values))
            out.append(LedgerRecord(seq=seq, prev=prev, hash=digest, event=event))
            prev = digest
        conn.executemany(_INSERT, rows)  # one statement for the batch, rows in chain order
        return out

    def append(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        if not events:
            return []
        with self.db.transaction() as conn:
            return self._insert(conn, events)

    def append_unsynced(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        """Committed without syncing the WAL: durable with the next synced commit (the WAL
        keeps the order). Only for records nothing waits on (see ``Ledger.append``)."""
        if not events:
            return []
        if self.path == ":memory:":  # a second connection would be another database
            with self.db.transaction(durable=False) as conn:
                return self._insert(conn, events)
        with self._unsynced_db().transaction() as conn:
            return self._insert(conn, events)

    def _unsynced_db(self) -> Database:
        """A second connection to the file, always synchronous=NORMAL, sharing this one's
        write lock: switching one connection's ``synchronous`` there and back cost two
        statements per record (~40 us of the MCP proxy's ~300 us per executed call)."""
        with self._unsynced_lock:
            if self._unsynced is None:
                self._unsynced = Database(self.path, "", write_lock=self.db.write_lock, bookkeeping=True)
            return self._unsynced

    def append_once(self, event: AuditEvent) -> LedgerRecord:
        with self.db.transaction() as conn:
            if is_resolution(event):
                found = conn.execute(
                    "SELECT * FROM ledger WHERE decision_id = ? AND kind = ? ORDER BY seq LIMIT 1",
                    (event.decision_id, event.kind),
                ).fetchone()
                if found is not None:
                    return _record(found)
            return self._insert(conn, [event])[0]

    def query(self, query: LedgerQuery) -> list[LedgerRecord]:
        sql, params = query.sql("?")
        return [_record(r) for r in self.db.read(sql, tuple(params))]

    def scan_rows(self) -> Iterator[Mapping[str, Any]]:
        last = 0  # seq is the INTEGER PRIMARY KEY (the rowid): always an integer here
        while True:
            rows = self.db.read("SELECT * FROM ledger WHERE seq > ? ORDER BY seq LIMIT 1000", (last,))
            if not rows:
                return
            for row in rows:
                yield dict(zip(row.keys(), tuple(row), strict=True))
            last = rows[-1]["seq"]

    def scan(self) -> Iterator[LedgerRecord]:
        for row in self.scan_rows():
            yield LedgerRecord(
                seq=row["seq"],
                prev=row["prev"],
                hash=row["hash"],
                event=AuditEvent(**{n: row.get(n) for n in EVENT_FIELDS}),  # type: ignore[arg-type]
            )

    def legacy_break(self) -> LegacyBreak | None:
        meta = dict((r["name"], r["value"]) for r in self.db.read("SELECT name, value FROM ledger_meta"))
        if meta.get("chain") != CHAIN_VERSION:
            return LegacyBreak(
                1,
                "the ledger is not keyed (its chain version is "
                f"{meta.get('chain')!r}, not {CHAIN_VERSION!r})",
            )
        if "legacy_bad_seq" in meta:
            return LegacyBreak(int(meta["legacy_bad_seq"]), meta.get("legacy_problem", ""))
        return None

    def close(self) -> None:
        if self._unsynced is not None:
            self._unsynced.close()
        self.db.close()
