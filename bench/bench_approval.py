"""Approval round trip: request parks → another process approves → the waiter resumes.

    .venv/bin/python bench/bench_approval.py [--rounds N]

The approver process polls for pending requests every 2 ms and approves at once, so the
figure is dominated by the waiter's cross-process poll (SqliteStore.poll_interval, 50 ms)
plus the ledger's two durable writes (requested, resolved). The in-process figure answers
from the same event loop: the waiter is woken by its event, not by polling.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import statistics
import tempfile
import time

from bastion.approval.clock import SystemClock
from bastion.approval.queue import AnswerError, ApprovalQueue
from bastion.approval.sqlite import SqliteStore
from bastion.approval.state import RequestState
from bastion.call.model import ToolCall
from bastion.configuration import load_text
from bastion.construct import open_gatekeeper
from bastion.runtime import Gatekeeper


def _approver(path: str, stop: object) -> None:
    store = SqliteStore(path)
    queue = ApprovalQueue(store, SystemClock())
    while not stop.is_set():  # type: ignore[attr-defined]
        for request in store.list_requests([RequestState.PENDING]):
            with contextlib.suppress(AnswerError):  # answered already
                queue.answer(request.id, approve=True, approver="bench")
        time.sleep(0.002)
    store.close()


def _keeper(folder: str) -> tuple[Gatekeeper, ToolCall]:
    env = {"HOME": folder, "BASTION_STATE_DIR": os.path.join(folder, "state")}
    config = load_text("", cwd=folder, env=env)
    call = ToolCall("write", {"path": "/opt/elsewhere", "content": "x"}, cwd=folder, interactive=True)
    return open_gatekeeper(config, env), call


def cross_process(folder: str, rounds: int) -> list[float]:
    keeper, call = _keeper(folder)
    ctx = multiprocessing.get_context("fork")
    stop = ctx.Event()
    approver = ctx.Process(target=_approver, args=(os.path.join(folder, "state", "bastion.db"), stop))
    approver.start()
    times = []
    try:
        for _ in range(rounds):
            start = time.perf_counter()
            result = keeper.request_sync(call)
            times.append(time.perf_counter() - start)
            assert result.reasons[0].rule == "approval.person", result
    finally:
        stop.set()
        approver.join()
        keeper.close()
    return times


def in_process(folder: str, rounds: int) -> list[float]:
    keeper, call = _keeper(folder)

    async def one() -> float:
        start = time.perf_counter()
        task = asyncio.ensure_future(keeper.request(call))
        while not keeper.store.list_requests([RequestState.PENDING]):
            await asyncio.sleep(0)
        keeper.queue.answer(
            keeper.store.list_requests([RequestState.PENDING])[0].id, approve=True, approver="bench"
        )
        await task
        return time.perf_counter() - start

    times = [asyncio.run(one()) for _ in range(rounds)]
    keeper.close()
    return times


def report(name: str, times: list[float]) -> None:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    print(
        f"{name:34s} p50 {statistics.median(ms):6.1f} ms   p95 {p95:6.1f} ms   max {ms[-1]:6.1f} ms"
        f"   ({len(ms)} rounds)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        report("approve from another process", cross_process(os.path.join(folder, "x"), args.rounds))
    with tempfile.TemporaryDirectory() as folder:
        report("approve in the same process", in_process(os.path.join(folder, "y"), args.rounds))


if __name__ == "__main__":
    main()
