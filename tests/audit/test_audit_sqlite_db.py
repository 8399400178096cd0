"""Bastion's SQLite file stays consistent when one process holds several connections and
another process comes and goes (the POSIX-lock pitfall: closing any descriptor of the file
drops every lock the process holds on it)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from bastion.approval.sqlite import SqliteStore
from bastion.audit.chain import Chain
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.sqlite import SqliteLedgerStore
from bastion.audit.sqlite_db import open_db

CHAIN = Chain(b"c" * 32)

VISIT = "import sys; from bastion.approval.sqlite import SqliteStore; SqliteStore(sys.argv[1]).close()"


def test_a_second_connection_in_one_process_keeps_the_first_one_s_locks(tmp_path: Path) -> None:
    path = tmp_path / "bastion.db"
    store = SqliteStore(str(path))
    ledger = Ledger(SqliteLedgerStore(str(path), chain=CHAIN), hasher=ArgumentHasher(b"k" * 32))
    subprocess.run([sys.executable, "-c", VISIT, str(path)], check=True, timeout=60)
    wal_kept = (tmp_path / "bastion.db-wal").exists()
    store.expire_due(0.0)
    verdict = ledger.verify()
    store.close()
    ledger.close()
    assert (wal_kept, verdict.ok) == (True, True)


def test_the_database_is_created_private_with_wal_and_full_sync(tmp_path: Path) -> None:
    conn = open_db(str(tmp_path / "new" / "b.db"))
    modes = (
        conn.execute("PRAGMA journal_mode").fetchone()[0],
        conn.execute("PRAGMA synchronous").fetchone()[0],
    )
    conn.close()
    assert (
        modes,
        oct((tmp_path / "new" / "b.db").stat().st_mode & 0o777),
        oct((tmp_path / "new").stat().st_mode & 0o777),
    ) == (("wal", 2), "0o600", "0o700")


def test_only_bookkeeping_commits_skip_the_wal_sync_and_full_sync_is_restored_after(tmp_path: Path) -> None:
    from bastion.audit.sqlite_db import Database

    db = Database(str(tmp_path / "b.db"), "CREATE TABLE t (a INTEGER)")
    seen = []
    with db.transaction(durable=False) as conn:
        seen.append(conn.execute("PRAGMA synchronous").fetchone()[0])
    with db.transaction() as conn:
        seen.append(conn.execute("PRAGMA synchronous").fetchone()[0])
    try:
        with db.transaction(durable=False) as conn:
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    seen.append(db.conn.execute("PRAGMA synchronous").fetchone()[0])
    db.close()
    assert seen == [1, 2, 2]  # NORMAL inside a bookkeeping commit, FULL everywhere else


def _kinds_and_sync(ledger: Ledger, events: list[object]) -> list[tuple[str, int]]:
    """Each appended event's commit with its connection's synchronous setting (the store's
    connection, and the one it keeps for commits that skip the sync)."""
    store = ledger.store
    assert isinstance(store, SqliteLedgerStore)
    seen: list[tuple[str, int]] = []
    databases = [store.db, store._unsynced_db()]
    conns = [db.conn for db in databases]

    class Watching:
        def __init__(self, conn: sqlite3.Connection) -> None:
            self.conn = conn

        def execute(self, sql: str, *args: object) -> object:
            if sql == "COMMIT":
                seen.append(("commit", self.conn.execute("PRAGMA synchronous").fetchone()[0]))
            return self.conn.execute(sql, *args)

        def __getattr__(self, name: str) -> object:
            return getattr(self.conn, name)

    for db, conn in zip(databases, conns, strict=True):
        db.conn = Watching(conn)  # type: ignore[assignment]
    try:
        for item in events:
            ledger.append(item)  # type: ignore[arg-type]
    finally:
        for db, conn in zip(databases, conns, strict=True):
            db.conn = conn
    return seen


def test_a_decision_commits_with_its_sync_and_an_outcome_without_waiting_for_one(tmp_path: Path) -> None:
    from bastion.audit.events import EventKind, make_event
    from bastion.audit.settings import AuditConfig
    from bastion.call.model import ToolCall
    from bastion.policy.decision import Decision, Evaluation, Reason

    hasher = ArgumentHasher(b"k" * 32)
    allowed = Evaluation(Decision.ALLOW, (Reason(Decision.ALLOW, "r", "p:1", "x", "fine"),))
    call = ToolCall("shell", {"command": "true"}, cwd="/p")

    def made(kind: EventKind, n: int) -> object:
        return make_event(
            call,
            allowed,
            kind=kind,
            decision_id=f"d{n}",
            resolver="policy",
            time=float(n),
            hasher=hasher,
            config=AuditConfig(),
            exit_code=0 if kind is EventKind.EXECUTED else None,
        )

    ledger = Ledger(SqliteLedgerStore(str(tmp_path / "b.db"), chain=CHAIN), hasher=hasher)
    commits = _kinds_and_sync(
        ledger, [made(EventKind.DECIDED, 1), made(EventKind.EXECUTED, 1), made(EventKind.DECIDED, 2)]
    )
    kinds = [r.event.kind for r in ledger.events()]
    verdict = ledger.verify()
    ledger.close()
    # FULL (2) for the decisions; NORMAL (1) for the outcome, readable at once and made durable
    # by the next decision's synced commit (the WAL keeps the order).
    assert (commits, kinds, verdict.ok) == (
        [("commit", 2), ("commit", 1), ("commit", 2)],
        ["decided", "executed", "decided"],
        True,
    )


def test_an_outcome_through_a_store_that_cannot_skip_the_sync_is_simply_synced() -> None:
    import dataclasses

    from bastion.audit.group import GroupCommitStore
    from bastion.audit.store import MemoryLedgerStore
    from tests.audit.test_audit_ledger import event

    ledger = Ledger(GroupCommitStore(MemoryLedgerStore(CHAIN)), hasher=ArgumentHasher(b"k" * 32))
    record = ledger.append(dataclasses.replace(event(1), kind="executed"))
    assert ([r.event.kind for r in ledger.events()], record.seq, ledger.verify().ok) == (
        ["executed"],
        1,
        True,
    )
