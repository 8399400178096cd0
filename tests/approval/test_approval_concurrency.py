"""Several processes on one SQLite file: every request is resolved exactly once, and a
parked call whose process is killed survives in the store and expires as a denial."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bastion.approval.sqlite import SqliteStore
from bastion.approval.state import Action, RequestState

REQUESTS = 40
ACTIONS = (
    Action.APPROVE_ONCE,
    Action.APPROVE_ALWAYS,
    Action.DENY,
    Action.EXPIRE,
    Action.APPROVE_ONCE,
    Action.DENY,
    Action.EXPIRE,
    Action.CANCEL,
)
STATE_OF = {
    Action.APPROVE_ONCE: RequestState.APPROVED_ONCE,
    Action.APPROVE_ALWAYS: RequestState.APPROVED_ALWAYS,
    Action.DENY: RequestState.DENIED,
    Action.EXPIRE: RequestState.EXPIRED,
    Action.CANCEL: RequestState.CANCELLED,
}


def _contend(path: str, worker: int, ids: list[str], barrier: object, out: object) -> None:
    store = SqliteStore(path)
    action = ACTIONS[worker]
    barrier.wait()  # type: ignore[attr-defined]
    wins = []
    for request_id in ids:
        # Answers are given "before expiry" (t=1001) and expiry "after it" (t=2000): both
        # are legitimate, and only the commit order decides.
        at = 2000.0 if action is Action.EXPIRE else 1001.0
        outcome = store.resolve(request_id, action, at=at, resolver=f"w{worker}")
        if outcome.won:
            wins.append(request_id)
    store.close()
    out.put((worker, wins))  # type: ignore[attr-defined]


def test_eight_processes_answering_and_expiring_the_same_requests_never_double_resolve(
    tmp_path: Path, make_request: object
) -> None:
    path = str(tmp_path / "bastion.db")
    store = SqliteStore(path)
    ids = []
    for _ in range(REQUESTS):
        request = make_request(created=1000.0, ttl=300.0)  # type: ignore[operator]
        store.create_request(request)
        ids.append(request.id)
    store.close()

    ctx = multiprocessing.get_context("fork")
    barrier, out = ctx.Barrier(len(ACTIONS)), ctx.Queue()
    workers = [ctx.Process(target=_contend, args=(path, n, ids, barrier, out)) for n in range(len(ACTIONS))]
    for w in workers:
        w.start()
    results = [out.get(timeout=60) for _ in workers]
    for w in workers:
        w.join(timeout=60)

    winners: dict[str, list[int]] = {i: [] for i in ids}
    for worker, wins in results:
        for request_id in wins:
            winners[request_id].append(worker)
    assert {i: len(w) for i, w in winners.items()} == dict.fromkeys(ids, 1)
    store = SqliteStore(path)
    final = {r.id: (r.state, r.resolver) for r in store.list_requests()}
    store.close()
    assert final == {i: (STATE_OF[ACTIONS[w[0]]], f"w{w[0]}") for i, w in winners.items()}
    assert [w.exitcode for w in workers] == [0] * len(ACTIONS)


PARK_SCRIPT = """
import asyncio, os, sys
from bastion import ToolCall, load_policy_text
from bastion.construct import open_gatekeeper
from bastion.configuration import Configuration
env = {"HOME": sys.argv[1], "BASTION_STATE_DIR": sys.argv[2]}
policy = load_policy_text('[approval]\\nttl = "1h"\\n', cwd=sys.argv[1], env=env)
keeper = open_gatekeeper(Configuration(policy), env)
call = ToolCall("fetch", {"url": "https://example.com/x?api_key=SECRET123"}, cwd=sys.argv[1],
                interactive=True, session="s1")
asyncio.run(keeper.request(call, on_parked=lambda r: print(r.id, flush=True)))
print("resumed", flush=True)
"""


def test_a_call_parked_by_a_killed_process_is_still_there_and_expires_as_a_denial(tmp_path: Path) -> None:
    home, state = tmp_path / "home", tmp_path / "state"
    home.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    with subprocess.Popen(
        [sys.executable, "-c", PARK_SCRIPT, str(home), str(state)], stdout=subprocess.PIPE, text=True, env=env
    ) as child:
        assert child.stdout is not None
        request_id = child.stdout.readline().strip()
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL

    restarted = SqliteStore(str(state / "bastion.db"))
    parked = restarted.get_request(request_id)
    assert parked is not None
    assert (parked.state, parked.tool, parked.summary, parked.expires - parked.created) == (
        RequestState.PENDING,
        "fetch",
        "fetch: https://example.com/x?api_key=***",
        3600.0,
    )
    assert restarted.expire_due(parked.expires - 1) == []
    assert restarted.expire_due(parked.expires) == [request_id]
    expired = restarted.get_request(request_id)
    assert expired is not None and (expired.state, expired.resolver) == (RequestState.EXPIRED, "timeout")
    assert restarted.resolve(request_id, Action.APPROVE_ONCE, at=time.time(), resolver="person").won is False
    restarted.close()
    assert "SECRET123" not in json.dumps(expired.to_json())
