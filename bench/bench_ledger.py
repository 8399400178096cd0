"""Ledger durable writes per second (SQLite, WAL, synchronous=FULL). Run by hand:

    .venv/bin/python bench/bench_ledger.py [--records N]

Shapes: one commit per record (what ``Gatekeeper.request`` does for each call), batches of
100 records per commit (``Ledger.append_many``), 4 processes appending one record per commit
at once (contention on the write lock), and 16 threads appending one record each through
``GroupCommitStore`` (each caller returns only once its record is committed). Every commit
is fsynced (synchronous=FULL); building each event (redaction + keyed hash) is included.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from bastion.audit.chain import Chain
from bastion.audit.config import AuditConfig
from bastion.audit.events import AuditEvent, EventKind, make_event
from bastion.audit.group import GroupCommitStore
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.sqlite import SqliteLedgerStore
from bastion.call.model import ToolCall
from bastion.policy.decision import Decision, Evaluation, Reason

CHAIN = Chain(b"c" * 32)

HASHER = ArgumentHasher(b"k" * 32)
ALLOWED = Evaluation(Decision.ALLOW, (Reason(Decision.ALLOW, "rule[3]", "/p/.bastion/policy.toml:12", "git",
                                            "git status is read-only"),))


def event(n: int) -> AuditEvent:
    call = ToolCall("shell", {"command": f"git status --short {n}"}, cwd="/p", session="bench", agent="a")
    return make_event(call, ALLOWED, kind=EventKind.DECIDED, decision_id=f"d{n}", resolver="policy",
                      time=time.time(), hasher=HASHER, config=AuditConfig())


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
    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(lambda n: ledger.append(event(n)), range(count)))
    elapsed = time.perf_counter() - start
    ledger.close()
    return count / elapsed


def through_gatekeeper(path: str, count: int, threads: int = 16) -> float:
    """The full decision path: 16 callers share one gatekeeper (as the daemon's threads, the
    gateway and the MCP proxy do); each call is decided and its record made durable before
    it returns. The stores come from ``open_gatekeeper`` (group commit included)."""
    import asyncio

    from bastion import load_policy_text
    from bastion.runtime import open_gatekeeper

    state = os.path.dirname(path)
    env = {"HOME": state, "BASTION_STATE_DIR": os.path.join(state, "gk-state")}
    policy = load_policy_text("", cwd=state, env=env)
    keeper = open_gatekeeper(policy, env)

    def one(n: int) -> None:
        call = ToolCall("shell", {"command": f"git status --short {n}"}, cwd=state,
                        session=f"s{n % threads}", agent="bench", interactive=False)
        asyncio.run(keeper.request(call))

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(one, range(count)))
    elapsed = time.perf_counter() - start
    written = len(keeper.ledger.events(limit=count + 10))
    keeper.close()
    assert written >= count, f"only {written} of {count} records written"
    return count / elapsed


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
        for name, fn in (("one record per commit", one_per_commit), ("100 records per commit", batched),
                         ("4 processes, one per commit", processes),
                         ("16 threads, group commit", group_commit),
                         ("16 threads, via the gatekeeper", through_gatekeeper)):
            path = os.path.join(folder, f"{name.split()[0]}.db")
            rate = fn(path, args.records)
            print(f"{name:32s} {rate:10,.0f} durable records/s  ({args.records} records)")
        one = SqliteLedgerStore(os.path.join(folder, "one.db"), chain=CHAIN)
        verdict = Ledger(one, hasher=HASHER).verify()
        print(f"verify: {verdict.ok}, {verdict.checked} records")


if __name__ == "__main__":
    main()
