"""Several Bastion processes on one PostgreSQL: recorded decisions/s and approval round trip.

    .venv/bin/python bench/bench_postgres.py [--seconds 10] [--rounds 200] [--url postgresql://…]

Without ``--url`` it starts a throwaway *durable* cluster (fsync on, synchronous_commit on)
from Debian's ``postgresql`` package, as the tests do. For 1, 2 and 4 daemon processes:

* decisions/s — each process runs a Gatekeeper on the shared database and calls
  ``request`` on an allowed call in a session, back to back: each decision counts the
  session's limits (one transaction) and is appended to the hash-chained ledger (one
  durable transaction under the ledger's advisory lock) before it returns.
* approval round trip — each process parks ASK calls one after another; one more process
  (the approver, as another host would be) hears each new request through LISTEN/NOTIFY
  and approves it at once; the figure is request → parked → approved → waiter resumed
  (with its ledger records written).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import queue
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bastion.approval.clock import SystemClock
from bastion.approval.queue import AnswerError, ApprovalQueue
from bastion.call.model import ToolCall
from bastion.configuration import load_text
from bastion.construct import open_gatekeeper
from bastion.policy.decision import Decision
from bastion.postgres import migrations
from bastion.state import ENV_URL, open_stores
from tests.postgres.cluster import create_database, start_cluster

POLICY = """
[limits]
calls_per_minute = 0
max_calls_per_turn = 0

[[rule]]
tool = "shell"
pattern = "make deploy *"
action = "ask"
reason = "deploys need a person"
"""


def _keeper(url: str, folder: str, name: str) -> Any:
    env = {"HOME": folder, "BASTION_STATE_DIR": os.path.join(folder, name), ENV_URL: url}
    os.makedirs(folder, exist_ok=True)
    return open_gatekeeper(load_text(POLICY, cwd=folder, env=env), env)


def _decider(url: str, folder: str, name: str, seconds: float, start: Any, out: Any) -> None:
    keeper = _keeper(url, folder, name)
    call = ToolCall("read", {"path": os.path.join(folder, "README.md")}, cwd=folder, session=name)

    async def run() -> int:
        start.wait()
        count, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            result = await keeper.request(call)
            assert result.decision is Decision.ALLOW, result.message
            count += 1
        return count

    out.put(asyncio.run(run()))
    keeper.close()


def _requester(url: str, folder: str, name: str, rounds: int, start: Any, out: Any) -> None:
    keeper = _keeper(url, folder, name)
    call = ToolCall("shell", {"command": "make deploy prod"}, cwd=folder, session=name, interactive=True)

    async def run() -> list[float]:
        start.wait()
        times = []
        for _ in range(rounds):
            begin = time.perf_counter()
            result = await keeper.request(call)
            times.append(time.perf_counter() - begin)
            assert result.decision is Decision.ALLOW, result.message
        return times

    out.put(asyncio.run(run()))
    keeper.close()


def _approver(url: str, folder: str, stop: Any, ready: Any) -> None:
    stores = open_stores(url, os.path.join(folder, "approver"))
    answers = ApprovalQueue(stores.approvals, SystemClock())
    heard: queue.Queue[str] = queue.Queue()
    stores.approvals.observe(lambda kind, rid: heard.put(rid) if kind == "created" else None)  # type: ignore[attr-defined]
    ready.set()
    while not stop.is_set():
        try:
            request_id = heard.get(timeout=0.1)
        except queue.Empty:
            continue
        with contextlib.suppress(AnswerError):
            answers.answer(request_id, approve=True, approver="bench")
    stores.close()


def decisions(url: str, folder: str, processes: int, seconds: float) -> float:
    ctx = multiprocessing.get_context("fork")
    start, out = ctx.Event(), ctx.Queue()
    procs = [
        ctx.Process(target=_decider, args=(url, folder, f"d{processes}-{n}", seconds, start, out))
        for n in range(processes)
    ]
    for p in procs:
        p.start()
    time.sleep(1.0)  # let every process open its pool
    start.set()
    total = sum(out.get(timeout=seconds + 60) for _ in procs)
    for p in procs:
        p.join()
    return total / seconds


def round_trips(url: str, folder: str, processes: int, rounds: int) -> list[float]:
    ctx = multiprocessing.get_context("fork")
    start, out, stop, ready = ctx.Event(), ctx.Queue(), ctx.Event(), ctx.Event()
    approver = ctx.Process(target=_approver, args=(url, folder, stop, ready))
    approver.start()
    ready.wait(30)
    procs = [
        ctx.Process(target=_requester, args=(url, folder, f"r{processes}-{n}", rounds, start, out))
        for n in range(processes)
    ]
    for p in procs:
        p.start()
    time.sleep(1.0)
    start.set()
    times = [t for _ in procs for t in out.get(timeout=600)]
    for p in procs:
        p.join()
    stop.set()
    approver.join()
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--url", default=None, help="an admin URL of a running server")
    args = parser.parse_args()
    cluster = None if args.url else start_cluster(durable=True)
    admin = args.url or (cluster.url if cluster else "")
    try:
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "README.md").write_text("hi\n")
            print(
                f"PostgreSQL: {admin} ({'durable throwaway cluster' if cluster else 'given'}); "
                f"{os.cpu_count()} CPUs"
            )
            print("| daemons | recorded decisions/s | approval round trip p50 (ms) | p99 (ms) |")
            print("| ---: | ---: | ---: | ---: |")
            for processes in (1, 2, 4):
                url = create_database(admin)
                migrations.upgrade(url)
                rate = decisions(url, folder, processes, args.seconds)
                times = sorted(round_trips(url, folder, processes, args.rounds))
                p50 = statistics.median(times) * 1000
                p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000
                print(f"| {processes} | {rate:,.0f} | {p50:.1f} | {p99:.1f} |", flush=True)
    finally:
        if cluster is not None:
            cluster.destroy()


if __name__ == "__main__":
    main()
