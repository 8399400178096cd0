"""The audit ledger on PostgreSQL: one linear keyed hash chain, whatever the number of daemons.

An append takes ``pg_advisory_xact_lock(LEDGER_LOCK)`` first, then reads the last record
and inserts after it, all in one transaction: writers on every daemon queue on the lock,
so each record's ``prev`` is the hash of the record committed just before it and ``seq``
has no gaps (the primary key would refuse a fork anyway). The lock is released by the
commit, so it is held for one short transaction; batch with
:class:`~bastion.audit.group.GroupCommitStore` to share one commit between threads.

The chain key is the one every daemon shares (derived from the shared argument-hash key).
A ledger written before migration 2 is re-keyed once, by the first daemon that opens it,
under the same lock (see :mod:`bastion.audit.chain`). ``scan_rows`` returns the stored
values exactly, so ``bastion logs verify`` finds an edited, removed or reordered row.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bastion.audit.chain import CHAIN_VERSION, Chain, LegacyBreak, rekey
from bastion.audit.events import EVENT_FIELDS, GENESIS, AuditEvent, LedgerRecord
from bastion.audit.store import LedgerQuery, is_resolution
from bastion.postgres.connection import Conn, PgDatabase, PgHandle, Row
from bastion.postgres.rows import decode, encode

#: Arbitrary 64-bit key of the advisory lock that serialises appends.
LEDGER_LOCK = 0x42A5_7105_1ED6
SCAN_PAGE = 2000

_COLUMNS = ("seq", "prev", "hash", *EVENT_FIELDS, "nul_fields")
_INSERT = f"INSERT INTO ledger ({', '.join(_COLUMNS)}) VALUES ({', '.join(['%s'] * len(_COLUMNS))})"
_META = (
    "INSERT INTO ledger_meta (name, value) VALUES (%s, %s) "
    "ON CONFLICT (name) DO UPDATE SET value = excluded.value"
)


def _record(row: Row) -> LedgerRecord:
    fields = decode(row, EVENT_FIELDS)
    return LedgerRecord(seq=int(row["seq"]), prev=row["prev"], hash=row["hash"], event=AuditEvent(**fields))


def _row(record: LedgerRecord) -> tuple[object, ...]:
    values, exact = encode(EVENT_FIELDS, tuple(getattr(record.event, n) for n in EVENT_FIELDS))
    return (record.seq, record.prev, record.hash, *values, exact)


def _stored(row: Row) -> dict[str, Any]:
    """A row's exact values, tolerating missing columns (``verify`` names them)."""
    values = {k: v for k, v in row.items() if k != "nul_fields"}
    extra = row.get("nul_fields")
    if extra:
        values.update(json.loads(extra))
    return values


class PgLedgerStore(PgHandle):
    """Implements :class:`bastion.audit.store.LedgerStore` on a shared PostgreSQL database."""

    def __init__(self, url: str, *, chain: Chain, db: PgDatabase | None = None) -> None:
        super().__init__(url, db=db)
        self.chain = chain
        self._migrate()

    def _migrate(self) -> None:
        with self.db.transaction("re-keying the audit ledger") as conn:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (LEDGER_LOCK,))
            meta = {r["name"]: r["value"] for r in conn.execute("SELECT name, value FROM ledger_meta")}
            if meta.get("chain") == CHAIN_VERSION:
                return
            rows = [_record(r) for r in conn.execute("SELECT * FROM ledger ORDER BY seq").fetchall()]

            def write(record: LedgerRecord) -> None:
                conn.execute(
                    "UPDATE ledger SET prev = %s, hash = %s WHERE seq = %s",
                    (record.prev, record.hash, record.seq),
                )

            broken = rekey(rows, self.chain, write)
            conn.execute(_META, ("chain", CHAIN_VERSION))
            if broken is not None:
                conn.execute(_META, ("legacy_bad_seq", str(broken.seq)))
                conn.execute(_META, ("legacy_problem", broken.problem))

    def _head(self, conn: Conn) -> Row | None:
        with conn.pipeline():  # the lock and the read of the head in one round trip
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (LEDGER_LOCK,))
            return conn.execute("SELECT seq, hash FROM ledger ORDER BY seq DESC LIMIT 1").fetchone()

    def _insert(self, conn: Conn, last: Row | None, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        seq, prev = (int(last["seq"]), str(last["hash"])) if last else (0, GENESIS)
        out: list[LedgerRecord] = []
        for event in events:
            seq += 1
            record = self.chain.link(seq, prev, event)
            out.append(record)
            prev = record.hash
        with conn.cursor() as cursor:
            cursor.executemany(_INSERT, [_row(r) for r in out])
        return out

    def append(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        if not events:
            return []
        with self.db.transaction("appending to the audit ledger") as conn:
            return self._insert(conn, self._head(conn), events)

    def append_once(self, event: AuditEvent) -> LedgerRecord:
        with self.db.transaction("appending to the audit ledger") as conn:
            last = self._head(conn)
            if is_resolution(event):
                found = conn.execute(
                    "SELECT * FROM ledger WHERE decision_id = %s AND kind = %s ORDER BY seq LIMIT 1",
                    (event.decision_id, event.kind),
                ).fetchone()
                if found is not None:
                    return _record(found)
            return self._insert(conn, last, [event])[0]

    def query(self, query: LedgerQuery) -> list[LedgerRecord]:
        sql, params = query.sql("%s")
        return [_record(r) for r in self.db.read(sql, params)]

    def scan_rows(self) -> Iterator[Mapping[str, Any]]:
        last = 0
        while True:
            rows = self.db.read(
                "SELECT * FROM ledger WHERE seq > %s ORDER BY seq LIMIT %s", (last, SCAN_PAGE)
            )
            if not rows:
                return
            for row in rows:
                yield _stored(row)
            last = int(rows[-1]["seq"])

    def scan(self) -> Iterator[LedgerRecord]:
        for row in self.scan_rows():
            yield LedgerRecord(
                seq=int(row["seq"]),
                prev=row["prev"],
                hash=row["hash"],
                event=AuditEvent(**{n: row.get(n) for n in EVENT_FIELDS}),  # type: ignore[arg-type]
            )

    def legacy_break(self) -> LegacyBreak | None:
        meta = {r["name"]: r["value"] for r in self.db.read("SELECT name, value FROM ledger_meta")}
        if meta.get("chain") != CHAIN_VERSION:
            return LegacyBreak(
                1,
                "the ledger is not keyed (its chain version is "
                f"{meta.get('chain')!r}, not {CHAIN_VERSION!r})",
            )
        if "legacy_bad_seq" in meta:
            return LegacyBreak(int(meta["legacy_bad_seq"]), meta.get("legacy_problem", ""))
        return None

    def count(self) -> int:
        row = self.db.one("SELECT count(*) AS n FROM ledger")
        return int(row["n"]) if row else 0
