"""The SQLite store keeps its counters in a file of their own, so a counter update never
waits for a write (and its fsync) on the state file, and the stores of one process queue
their writes to the state file on one lock."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bastion.approval.memory import MemoryStore
from bastion.approval.model import FailureRecord, Usage
from bastion.approval.sqlite import SqliteStore, counters_path
from bastion.state import open_stores


def test_the_counters_live_beside_the_state_file_and_commit_without_a_wal_sync(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "bastion.db"))
    store.admit_call("s", "t", 100.0)
    modes = (
        store.counters.conn.execute("PRAGMA synchronous").fetchone()[0],
        store.db.conn.execute("PRAGMA synchronous").fetchone()[0],
    )
    store.close()
    assert (counters_path(str(tmp_path / "bastion.db")), counters_path(":memory:"), modes) == (
        str(tmp_path / "bastion-counters.db"),
        ":memory:",
        (1, 2),
    )  # NORMAL, FULL


def test_a_counter_update_does_not_wait_for_a_write_transaction_on_the_state_file(tmp_path: Path) -> None:
    path = tmp_path / "bastion.db"
    store = SqliteStore(str(path))
    writer = sqlite3.connect(str(path), isolation_level=None, timeout=0)
    writer.execute("BEGIN IMMEDIATE")  # as the ledger holds it while it syncs a commit
    try:
        usage = (store.admit_call("s", "t", 100.0), store.admit_call("s", "t", 101.0))
        store.note_outcome("s", "k", failed=True, hard=False, at=101.0)
        record = store.failure_record("s", "k")
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    store.close()
    assert (usage, record.failures) == (
        (
            Usage(turn_calls=1, turn_started=100.0, minute_calls=1),
            Usage(turn_calls=2, turn_started=100.0, minute_calls=2),
        ),
        1,
    )


def test_counters_are_shared_by_every_store_opened_on_the_same_file(tmp_path: Path) -> None:
    one, two = SqliteStore(str(tmp_path / "bastion.db")), SqliteStore(str(tmp_path / "bastion.db"))
    one.admit_call("s", None, 100.0)
    two.admit_call("s", None, 110.0)
    two.refuse_call("s", 110.0)
    seen = one.peek_usage("s", None, 120.0)
    one.close()
    two.close()
    assert seen == Usage(turn_calls=0, turn_started=None, minute_calls=2, minute_refused=1)


def test_the_approval_store_and_the_ledger_of_one_process_share_one_write_lock(tmp_path: Path) -> None:
    stores = open_stores(None, str(tmp_path / "state"))
    approvals, ledger = stores.approvals, stores.ledger
    shared = approvals.db.write_lock is ledger.inner.db.write_lock  # type: ignore[attr-defined]
    counters_own = approvals.counters.write_lock is not approvals.db.write_lock  # type: ignore[attr-defined]
    stores.close()
    assert (shared, counters_own) == (True, True)


OPS = st.lists(
    st.tuples(
        st.sampled_from(["admit", "refuse", "peek"]),
        st.sampled_from(["s1", "s2"]),
        st.sampled_from([None, "t1", "t2"]),
        st.sampled_from([0.0, 0.5, 1.0, 30.0, 59.5, 60.0, 61.0]),
    ),
    max_size=40,
)


@given(OPS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_sqlite_counters_answer_what_the_memory_store_answers(
    tmp_path_factory: pytest.TempPathFactory, ops: list[tuple[str, str, str | None, float]]
) -> None:
    # The running per-session count must equal a count of the last minute's calls, through
    # expiries, refusals and two stores on one file.
    folder = tmp_path_factory.mktemp("counters")
    sqlite = [SqliteStore(str(folder / "bastion.db")), SqliteStore(str(folder / "bastion.db"))]
    memory = MemoryStore()
    now, seen, expected = 1000.0, [], []
    try:
        for n, (op, session, turn, step) in enumerate(ops):
            now += step
            store = sqlite[n % 2]
            if op == "admit":
                seen.append(store.admit_call(session, turn, now))
                expected.append(memory.admit_call(session, turn, now))
            elif op == "refuse":
                store.refuse_call(session, now)
                memory.refuse_call(session, now)
            else:
                seen.append(store.peek_usage(session, turn, now))
                expected.append(memory.peek_usage(session, turn, now))
    finally:
        for store in sqlite:
            store.close()
    assert seen == expected


def test_a_success_with_no_failure_on_record_writes_nothing_and_one_with_a_failure_clears_it(
    tmp_path: Path,
) -> None:
    store = SqliteStore(str(tmp_path / "bastion.db"))
    opened: list[str] = []
    transaction = store.counters.transaction

    def counting(**kw: bool) -> object:
        opened.append("transaction")
        return transaction(**kw)

    store.counters.transaction = counting  # type: ignore[method-assign,assignment]
    store.note_outcome("s", "clean", failed=False, hard=False, at=100.0)
    clean = list(opened)
    store.note_outcome("s", "k", failed=True, hard=False, at=100.0)
    store.note_outcome("s", "k", failed=False, hard=False, at=101.0)
    records = (store.failure_record("s", "clean"), store.failure_record("s", "k"))
    store.close()
    assert (clean, len(opened), records) == ([], 2, (FailureRecord(), FailureRecord()))
