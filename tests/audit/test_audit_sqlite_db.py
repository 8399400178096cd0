"""Bastion's SQLite file stays consistent when one process holds several connections and
another process comes and goes (the POSIX-lock pitfall: closing any descriptor of the file
drops every lock the process holds on it)."""

from __future__ import annotations

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
