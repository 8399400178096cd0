"""``Database.batch``: the transactions one thread opens inside it share one commit; each
still fails alone, and a batch that fails keeps none of them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bastion.audit.sqlite_db import Database
from bastion.errors import StoreError

SCHEMA = "CREATE TABLE IF NOT EXISTS t (n INTEGER PRIMARY KEY)"


def _rows(path: Path) -> list[int]:
    other = sqlite3.connect(str(path))  # another connection sees only what was committed
    try:
        return [n for (n,) in other.execute("SELECT n FROM t ORDER BY n")]
    finally:
        other.close()


def test_transactions_inside_a_batch_are_committed_together_when_it_ends(tmp_path: Path) -> None:
    path = tmp_path / "b.db"
    db = Database(str(path), SCHEMA)
    with db.batch():
        for n in (1, 2, 3):
            with db.transaction() as conn:
                conn.execute("INSERT INTO t (n) VALUES (?)", (n,))
        inside = (_rows(path), [r["n"] for r in db.read("SELECT n FROM t ORDER BY n")])
    after = _rows(path)
    db.close()
    assert (inside, after) == (([], [1, 2, 3]), [1, 2, 3])


def test_a_failing_transaction_inside_a_batch_is_undone_alone(tmp_path: Path) -> None:
    path = tmp_path / "b.db"
    db = Database(str(path), SCHEMA)
    with db.batch():
        with db.transaction() as conn:
            conn.execute("INSERT INTO t (n) VALUES (1)")
        with pytest.raises(StoreError), db.transaction() as conn:
            conn.execute("INSERT INTO t (n) VALUES (2)")
            conn.execute("INSERT INTO t (n) VALUES (1)")  # a constraint failure undoes 2 as well
        with db.transaction() as conn:
            conn.execute("INSERT INTO t (n) VALUES (3)")
    db.close()
    assert _rows(path) == [1, 3]


def test_a_batch_that_fails_keeps_none_of_its_transactions(tmp_path: Path) -> None:
    path = tmp_path / "b.db"
    db = Database(str(path), SCHEMA)
    with pytest.raises(RuntimeError), db.batch():
        with db.transaction() as conn:
            conn.execute("INSERT INTO t (n) VALUES (1)")
        raise RuntimeError("the leader failed")
    with db.transaction() as conn:  # and the file is usable again
        conn.execute("INSERT INTO t (n) VALUES (2)")
    db.close()
    assert _rows(path) == [2]


def test_a_batch_inside_a_batch_joins_it(tmp_path: Path) -> None:
    path = tmp_path / "b.db"
    db = Database(str(path), SCHEMA)
    with db.batch():
        with db.batch(), db.transaction() as conn:
            conn.execute("INSERT INTO t (n) VALUES (1)")
        joined = _rows(path)
    db.close()
    assert (joined, _rows(path)) == ([], [1])
