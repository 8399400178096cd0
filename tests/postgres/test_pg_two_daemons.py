"""Two ``bastion serve`` processes on two ports sharing one PostgreSQL database.

Each daemon is a real ``bastion serve`` with its own state dir, as on two hosts, sharing
only the database (``BASTION_STATE_URL``).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from bastion.audit.store import LedgerQuery
from bastion.keys.model import Role
from bastion.postgres import migrations
from bastion.state import ENV_URL, open_stores
from tests.postgres.cluster import Cluster, create_database

ROOT = Path(__file__).resolve().parents[2]
POLICY = """
[approval]
ttl = "5m"

[limits]
calls_per_minute = 5

[gateway]
rate_limit_per_minute = {rate}

[[rule]]
tool = "shell"
pattern = "make deploy *"
action = "ask"
reason = "deploys need a person"
"""


@dataclass
class Daemon:
    url: str
    proc: subprocess.Popen[str]
    clients: list[httpx.Client] = field(default_factory=list)

    def client(self, key: str) -> httpx.Client:
        made = httpx.Client(base_url=self.url, headers={"X-API-Key": key}, timeout=60)
        self.clients.append(made)
        return made

    def stop(self) -> None:
        for made in self.clients:
            made.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


@dataclass
class Pair:
    a: Daemon
    b: Daemon
    keys: dict[str, str]
    db_url: str
    workspace: Path


def start_daemon(policy: Path, state_dir: Path, db_url: str, home: Path, workspace: Path) -> Daemon:
    env = {
        "HOME": str(home),
        "BASTION_STATE_DIR": str(state_dir),
        ENV_URL: db_url,
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": os.pathsep.join((str(ROOT / "src"), str(ROOT))),
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bastion.adapters.cli.main",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--policy",
            str(policy),
        ],
        cwd=workspace,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "listening on" not in line:
        proc.kill()
        raise AssertionError(f"the daemon did not start: {line!r}")
    url = line.split("listening on ", 1)[1].split()[0].rstrip("/")
    deadline = time.time() + 30
    while time.time() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                break
        time.sleep(0.05)
    return Daemon(url, proc)


PairFactory = Callable[..., Pair]


@pytest.fixture
def daemons(tmp_path: Path, home: Path, workspace: Path, pg_admin_url: str) -> Iterator[PairFactory]:
    started: list[Daemon] = []

    def build(admin_url: str = pg_admin_url, rate: int = 1000) -> Pair:
        db_url = create_database(admin_url)
        migrations.upgrade(db_url)
        policy = tmp_path / "policy.toml"
        policy.write_text(POLICY.format(rate=rate))
        stores = open_stores(db_url, str(tmp_path / "admin-state"))
        keys = {
            name: stores.keys.create(role, now=time.time(), label=name)[1]
            for name, role in (("agent", Role.AGENT), ("approver", Role.APPROVER))
        }
        stores.close()
        pair = [start_daemon(policy, tmp_path / f"host-{n}", db_url, home, workspace) for n in "ab"]
        started.extend(pair)
        return Pair(pair[0], pair[1], keys, db_url, workspace)

    yield build
    for daemon in started:
        daemon.stop()


def deploy(workspace: Path, session: str = "s1") -> dict[str, object]:
    return {
        "tool": "shell",
        "args": {"command": "make deploy prod"},
        "cwd": str(workspace),
        "session": session,
    }


def _allowed_within(client: httpx.Client, body: dict[str, object], *, seconds: float) -> httpx.Response:
    deadline = time.time() + seconds
    while True:
        response = client.post("/v1/requests", json=body)
        if (
            response.status_code == 200 and response.json().get("decision") == "allow"
        ) or time.time() > deadline:
            return response
        assert response.status_code >= 500 or response.json().get("decision") == "deny"
        time.sleep(0.5)


def read(workspace: Path, session: str) -> dict[str, object]:
    return {"tool": "read", "args": {"path": "README.md"}, "cwd": str(workspace), "session": session}


def test_a_call_parked_on_one_daemon_is_approved_through_the_other_and_its_waiter_resumes(
    daemons: PairFactory,
) -> None:
    pair = daemons()
    agent_a, approver_b = pair.a.client(pair.keys["agent"]), pair.b.client(pair.keys["approver"])
    parked = agent_a.post("/v1/requests", json=deploy(pair.workspace))
    request_id = parked.json()["id"]
    approved = approver_b.post(f"/v1/requests/{request_id}/approve", json={})
    waited = agent_a.get(f"/v1/requests/{request_id}", params={"wait": 30})
    stores = open_stores(pair.db_url, "/nonexistent")
    deadline = time.time() + 30  # A's waiter records the resolution just after it resumes
    while time.time() < deadline and not any(
        r.event.kind == "resolved"
        for r in stores.ledger.query(LedgerQuery())
        if r.event.decision_id == request_id
    ):
        time.sleep(0.05)
    kinds = [
        (r.event.kind, r.event.decision)
        for r in stores.ledger.query(LedgerQuery())
        if r.event.decision_id == request_id
    ]
    stores.close()
    assert (
        (parked.status_code, parked.json()["state"]),
        (approved.status_code, approved.json()["state"]),
        (waited.json()["state"], waited.json()["decision"]),
        kinds,
    ) == (
        (202, "pending"),
        (200, "approved_once"),
        ("approved_once", "allow"),
        [("requested", "ask"), ("resolved", "allow")],
    )


def test_a_second_answer_through_the_other_daemon_is_told_it_was_already_resolved(
    daemons: PairFactory,
) -> None:
    pair = daemons()
    agent_a = pair.a.client(pair.keys["agent"])
    request_id = agent_a.post("/v1/requests", json=deploy(pair.workspace)).json()["id"]
    first = pair.a.client(pair.keys["approver"]).post(
        f"/v1/requests/{request_id}/deny", json={"feedback": "not today"}
    )
    second = pair.b.client(pair.keys["approver"]).post(f"/v1/requests/{request_id}/approve", json={})
    assert (
        (first.status_code, first.json()["state"]),
        second.status_code,
        second.json()["error"]["code"],
    ) == ((200, "denied"), 409, "already_resolved")


def test_a_session_limit_of_5_per_minute_holds_across_both_daemons(daemons: PairFactory) -> None:
    pair = daemons()
    clients = [pair.a.client(pair.keys["agent"]), pair.b.client(pair.keys["agent"])]
    answers = [
        clients[n % 2].post("/v1/requests", json=read(pair.workspace, "limited")).json() for n in range(8)
    ]
    assert [
        (a["decision"], a["evaluation"]["reasons"][0]["rule"].startswith("limits.")) for a in answers
    ] == [("allow", False)] * 5 + [("deny", True)] * 3


def test_a_gateway_rate_limit_per_key_is_one_budget_across_both_daemons(daemons: PairFactory) -> None:
    pair = daemons(rate=6)
    if 60 - time.time() % 60 < 10:  # a fixed window: do not straddle a minute boundary
        time.sleep(60 - time.time() % 60 + 0.5)
    clients = [pair.a.client(pair.keys["agent"]), pair.b.client(pair.keys["agent"])]
    statuses = [
        clients[n % 2].post("/v1/decide", json=read(pair.workspace, "s")).status_code for n in range(10)
    ]
    assert sorted(statuses) == [200] * 6 + [429] * 4


def test_a_database_restart_denies_calls_meanwhile_and_both_daemons_recover(
    daemons: PairFactory, own_cluster: Cluster
) -> None:
    pair = daemons(admin_url=own_cluster.url)
    clients = [pair.a.client(pair.keys["agent"]), pair.b.client(pair.keys["agent"])]
    before = [c.post("/v1/requests", json=read(pair.workspace, f"s{n}")) for n, c in enumerate(clients)]
    own_cluster.stop()
    during = [c.post("/v1/requests", json=read(pair.workspace, f"s{n}")) for n, c in enumerate(clients)]
    own_cluster.start()
    # A pooled connection broken by the restart may fail the first call (a deny, never an
    # allow); both daemons must be allowing again within a few seconds.
    after = [_allowed_within(c, read(pair.workspace, f"s{n}"), seconds=15) for n, c in enumerate(clients)]
    allowed = [r.status_code == 200 and r.json().get("decision") == "allow" for r in before + during + after]
    assert allowed == [True, True, False, False, True, True]
    # An outage is not a permanent refusal: no marker, so the repeat guard lets the call retry.
    assert [r.json()["evaluation"]["marker"] for r in during if r.status_code == 200] == [
        None for r in during if r.status_code == 200
    ]
    assert all(r.status_code >= 500 or r.json().get("decision") == "deny" for r in during)
