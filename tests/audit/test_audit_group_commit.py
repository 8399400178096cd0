"""Group commit: callers waiting together share one transaction; each gets its own records."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bastion.audit.chain import Chain
from bastion.audit.events import AuditEvent, LedgerRecord
from bastion.audit.group import GroupCommitStore
from bastion.audit.ledger import Ledger
from bastion.audit.sqlite import SqliteLedgerStore
from bastion.audit.store import MemoryLedgerStore
from bastion.errors import StoreError
from tests.audit.test_audit_ledger import HASHER, event

CHAIN = Chain(b"c" * 32)


class GatedStore(MemoryLedgerStore):
    """Holds its first commit until released, and remembers each commit's size."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.entered = threading.Event()
        self.commits: list[int] = []

    def append(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        self.entered.set()
        self.release.wait(timeout=30)
        self.commits.append(len(events))
        return super().append(events)


def test_appends_arriving_during_a_commit_share_the_next_one() -> None:
    inner = GatedStore()
    store = GroupCommitStore(inner)
    with ThreadPoolExecutor(max_workers=6) as pool:
        first = pool.submit(store.append, [event(0)])
        assert inner.entered.wait(timeout=30)
        rest = [pool.submit(store.append, [event(n)]) for n in range(1, 6)]
        while len(store._open.events) < 5:  # all five queued behind the held commit
            threading.Event().wait(0.001)
        inner.release.set()
        results = [first.result(timeout=30), *(f.result(timeout=30) for f in rest)]
    assert inner.commits == [1, 5]
    assert sorted(r.event.decision_id for [r] in results) == [f"d{n}" for n in range(6)]
    assert [r.seq for r in inner.records] == [1, 2, 3, 4, 5, 6]


class FailingStore(MemoryLedgerStore):
    def append(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        raise StoreError("disk full")


def test_a_failed_commit_fails_every_caller_in_it() -> None:
    store = GroupCommitStore(FailingStore())
    with pytest.raises(StoreError, match="disk full"):
        store.append([event(1)])
    assert store._writing is False


def test_many_threads_through_group_commit_lose_nothing_and_the_chain_holds(tmp_path: Path) -> None:
    ledger = Ledger(GroupCommitStore(SqliteLedgerStore(str(tmp_path / "b.db"), chain=CHAIN)), hasher=HASHER)
    with ThreadPoolExecutor(max_workers=8) as pool:
        returned = list(pool.map(lambda n: ledger.append(event(n)), range(400)))
    stored = ledger.events()
    verdict = ledger.verify()
    ledger.close()
    assert (sorted(r.seq for r in returned), verdict.ok, verdict.checked) == (list(range(1, 401)), True, 400)
    assert sorted(returned, key=lambda r: r.seq) == stored


def test_an_empty_append_returns_at_once_with_nothing_stored() -> None:
    inner = GatedStore()
    inner.release.set()
    store = GroupCommitStore(inner)
    pool = ThreadPoolExecutor(max_workers=1)  # a hang fails the test instead of stalling the run
    try:
        first = pool.submit(store.append, []).result(timeout=30)
    finally:
        pool.shutdown(wait=False)
    second = store.append([event(1)])
    assert (first, inner.commits, second[0].seq) == ([], [1], 1)  # the empty one made no commit


class GatedFailingStore(GatedStore):
    """Holds its first commit until released; its second commit fails."""

    def append(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        if self.commits:
            self.commits.append(len(events))
            raise StoreError("disk full")
        return super().append(events)


def test_callers_waiting_on_a_commit_that_fails_all_get_its_error_and_none_a_record() -> None:
    inner = GatedFailingStore()
    store = GroupCommitStore(inner)
    with ThreadPoolExecutor(max_workers=5) as pool:
        first = pool.submit(store.append, [event(0)])
        assert inner.entered.wait(timeout=30)
        rest = [pool.submit(store.append, [event(n)]) for n in range(1, 5)]
        while len(store._open.events) < 4:  # all four queued behind the held commit
            threading.Event().wait(0.001)
        inner.release.set()
        errors = [type(f.exception(timeout=30)).__name__ for f in rest]
        kept = first.result(timeout=30)
    assert (errors, [r.seq for r in kept], inner.commits, [r.seq for r in inner.records]) == (
        ["StoreError"] * 4,
        [1],
        [1, 4],
        [1],
    )
    assert store._writing is False
