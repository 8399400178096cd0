"""Ledger durable writes per second (SQLite, WAL, synchronous=FULL). Run by hand:

    .venv/bin/python bench/bench_ledger.py [--records N]

Shapes: one commit per record (one caller alone), batches of 100 records per commit
(``Ledger.append_many``), 4 processes appending one record per commit at once (contention on
the write lock), 16 threads appending one record each through ``GroupCommitStore`` (each
caller returns only once its record is committed), and 16 callers through
``Gatekeeper.request_sync`` on one gatekeeper, each caller a thread sending its calls one
after the other as the hook daemon's connections do (issue #17's target: >= 5,000/s), once with read
calls (a cheap decision: the figure is the gatekeeper's and the ledger's) and once with unique
shell commands (each one parsed). Every record's commit is fsynced (synchronous=FULL);
building each event (redaction + keyed hash) is included. The disk's own rate (bare synced
commits) is printed first: on these shared machines it ranges from ~200 to ~5,000/s.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from bastion.audit.chain import Chain
from bastion.audit.events import AuditEvent, EventKind, make_event
from bastion.audit.group import GroupCommitStore
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.settings import AuditConfig
from bastion.audit.sqlite import SqliteLedgerStore
from bastion.call.model import ToolCall
from bastion.policy.decision import Decision, Evaluation, Reason

CHAIN = Chain(b"c" * 32)

HASHER = ArgumentHasher(b"k" * 32)
ALLOWED = Evaluation(
    Decision.ALLOW,
    (Reason(Decision.ALLOW, "rule[3]", "/p/.bastion/policy.toml:12", "git", "git status is read-only"),),
)


def event(n: int) -> AuditEvent:
    call = ToolCall("shell", {"command": f"git status --short {n}"}, cwd="/p", session="bench", agent="a")
    return make_event(
        call,
        ALLOWED,
        kind=EventKind.DECIDED,
        decision_id=f"d{n}",
        resolver="policy",
        time=time.time(),
        hasher=HASHER,
        config=AuditConfig(),
    )


def one_per_commit(path: str, count: int) -> float:
    ledger = Ledger(SqliteLedgerStore(path, chain=CHAIN), hasher=HASHER)
    start = time.perf_counter()
    for n in range(count):
        ledger.append(event(n))
    elapsed = time.perf_counter() - start
    ledger.close()
    return count / elapsed


def batched(path: str, count: int, size: int = 100) -> float:
    ledger = Ledger(SqliteLedgerStore(path, chain=CHAIN), hasher=HASHER)
    start = time.perf_counter()
    for first in range(0, count, size):
        ledger.append_many([event(n) for n in range(first, min(first + size, count))])
    elapsed = time.perf_counter() - start
    ledger.close()
    return count / elapsed


def _worker(path: str, count: int, barrier: object) -> None:
    ledger = Ledger(SqliteLedgerStore(path, chain=CHAIN), hasher=HASHER)
    barrier.wait()  # type: ignore[attr-defined]
    for n in range(count):
        ledger.append(event(n))
    ledger.close()


def processes(path: str, count: int, workers: int = 4) -> float:
    Ledger(SqliteLedgerStore(path, chain=CHAIN), hasher=HASHER).close()
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(workers + 1)
    procs = [ctx.Process(target=_worker, args=(path, count // workers, barrier)) for _ in range(workers)]
    for p in procs:
        p.start()
    barrier.wait()
    start = time.perf_counter()
    for p in procs:
        p.join()
    return (count // workers * workers) / (time.perf_counter() - start)


def group_commit(path: str, count: int, threads: int = 16) -> float:
    ledger = Ledger(GroupCommitStore(SqliteLedgerStore(path, chain=CHAIN)), hasher=HASHER)
    start = time.perf_counter()
    callers(lambda n: ledger.append(event(n)), range(count), threads)
    elapsed = time.perf_counter() - start
    ledger.close()
    return count / elapsed


class _Counting:
    """Counts the commits under a GroupCommitStore (records per commit is the batching)."""

    def __init__(self, store: object) -> None:
        self.inner = store.inner  # type: ignore[attr-defined]
        self.commits = 0
        self._append = self.inner.append
        self.inner.append = self

    def __call__(self, events: list[AuditEvent]) -> object:
        self.commits += 1
        return self._append(events)


def _gatekeeper_calls(state: str, kind: str, count: int, threads: int) -> list[ToolCall]:
    if kind == "read":  # the decision itself is ~20 us: what is left is the gatekeeper and ledger
        return [
            ToolCall(
                "read",
                {"path": f"{state}/src/f{n}.py"},
                cwd=state,
                session=f"s{n % threads}",
                agent="bench",
                interactive=False,
            )
            for n in range(count)
        ]
    return [
        ToolCall(
            "shell",
            {"command": f"git status --short {n}"},
            cwd=state,
            session=f"s{n % threads}",
            agent="bench",
            interactive=False,
        )
        for n in range(count)
    ]


def callers(call: Callable[[Any], object], calls: Sequence[Any], threads: int) -> None:
    """``threads`` callers, each sending its share of ``calls`` one after the other (the hook
    daemon's thread per connection). A thread pool would add its own queue and a Future per
    call: ≈50 µs of hand-offs per call under the GIL that no caller of Bastion pays."""
    workers = [
        threading.Thread(target=lambda share=calls[k::threads]: [call(c) for c in share])
        for k in range(threads)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()


def through_gatekeeper(
    path: str, count: int, threads: int = 16, kind: str = "read"
) -> tuple[float, float, float, float]:
    """The full decision path: 16 callers share one gatekeeper, as the hook daemon's threads
    do (``request_sync``); each call is decided, counted (limits) and its record made durable
    before it returns. The stores come from ``open_gatekeeper`` (group commit included).
    Returns (records/s, records per commit, the same calls' decisions alone per second with
    the same threads: the bound the decision puts on the figure)."""
    from bastion.configuration import load_text
    from bastion.construct import open_gatekeeper

    state = os.path.dirname(path)
    env = {"HOME": state, "BASTION_STATE_DIR": os.path.join(state, f"gk-state-{kind}")}
    keeper = open_gatekeeper(load_text("", cwd=state, env=env), env)
    counting = _Counting(keeper.ledger.store)
    calls = _gatekeeper_calls(state, kind, count, threads)
    keeper.request_sync(calls[0])  # warm: imports, first open
    start, cpu = time.perf_counter(), time.process_time()
    callers(keeper.request_sync, calls[1:], threads)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    written = len(keeper.ledger.events(limit=count + 10))
    per_commit = (count - 1) / max(counting.commits - 1, 1)
    fresh = _gatekeeper_calls(state + "/other", kind, count, threads)  # unseen: no parse cache hits
    start = time.perf_counter()
    callers(keeper.gate.evaluate, fresh, threads)
    decisions = count / (time.perf_counter() - start)
    keeper.close()
    assert written >= count, f"only {written} of {count} records written"
    return (count - 1) / elapsed, per_commit, decisions, cpu / (count - 1)


def raw_fsync_commits(path: str, count: int) -> float:
    """The disk's own limit: empty-ish SQLite commits per second at synchronous=FULL."""
    from bastion.audit.sqlite_db import open_db

    conn = open_db(path)
    conn.execute("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)")
    start = time.perf_counter()
    for _ in range(count):
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t (b) VALUES ('x')")
        conn.execute("COMMIT")
    elapsed = time.perf_counter() - start
    conn.close()
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as folder:
        bare = raw_fsync_commits(os.path.join(folder, "raw.db"), 1000)
        print(f"{'disk: bare commits (FULL)':32s} {bare:10,.0f} commits/s")
        for name, fn in (
            ("one record per commit", one_per_commit),
            ("100 records per commit", batched),
            ("4 processes, one per commit", processes),
            ("16 threads, group commit", group_commit),
        ):
            path = os.path.join(folder, f"{name.split()[0]}.db")
            rate = fn(path, args.records)
            print(f"{name:32s} {rate:10,.0f} durable records/s  ({args.records} records)")
        for kind, label in (("read", "read calls"), ("shell", "unique shell commands")):
            rate, per_commit, decisions, cpu = through_gatekeeper(
                os.path.join(folder, "gk.db"), args.records, kind=kind
            )
            print(
                f"16 callers, via the gatekeeper, {label}: {rate:,.0f} durable records/s "
                f"({per_commit:.1f} records per commit; CPU {cpu * 1e6:.0f} µs per record; "
                f"the decisions alone: {decisions:,.0f}/s)"
            )
        one = SqliteLedgerStore(os.path.join(folder, "one.db"), chain=CHAIN)
        verdict = Ledger(one, hasher=HASHER).verify()
        print(f"verify: {verdict.ok}, {verdict.checked} records")


if __name__ == "__main__":
    main()
