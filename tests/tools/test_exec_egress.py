"""An allowed shell call that names hosts runs behind the egress proxy, reaching those hosts
only: real bubblewrap, a real curl, loopback upstreams behind the proxy's test dialer."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bastion.approval.clock import SystemClock
from bastion.approval.memory import MemoryStore
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.store import MemoryLedgerStore
from bastion.configuration import Configuration
from bastion.exec import BubblewrapRunner, ExecConfig
from bastion.exec.egress import StaticDialer
from bastion.exec.egress.session import EgressSession
from bastion.policy.engine import Gate
from bastion.policy.network import StaticResolver
from bastion.runtime import Gatekeeper
from bastion.tools.base import ToolContext
from bastion.tools.job import JobTool
from bastion.tools.process_tools import ExecTool
from tests.conftest import PolicyFactory
from tests.exec.egress_helpers import Upstream, start_upstream
from tests.exec.sandbox_helpers import require_bwrap
from tests.tools.test_install_tool import Person

ADDRESSES = {"allowed.test": "1.1.1.30", "other.test": "1.1.1.31"}
POLICY = '[network]\nallow_hosts = ["allowed.test", "other.test"]\n'
CURL = "curl -sS -L --max-time 30 -w ' [%{http_code}]\\n' "


@pytest.fixture
def upstreams() -> Iterator[dict[str, Upstream]]:
    servers = {name: start_upstream(name) for name in ADDRESSES}
    yield servers
    for server in servers.values():
        server.close()


def keeper_for(make_policy: PolicyFactory, person: Person) -> Gatekeeper:
    policy = make_policy(POLICY)
    return Gatekeeper(
        Gate(policy, resolver=StaticResolver({h: [a] for h, a in ADDRESSES.items()}), sandboxed=True),
        store=MemoryStore(),
        clock=SystemClock(),
        ledger=Ledger(MemoryLedgerStore(), hasher=ArgumentHasher(b"k" * 32)),
        on_permission=person,
    )


def exec_tool(keeper: Gatekeeper, workspace: Path, home: Path, upstreams: dict[str, Upstream]) -> ExecTool:
    table = {(ADDRESSES[h], 80): ("127.0.0.1", u.port) for h, u in upstreams.items()}
    ctx = ToolContext(
        configuration=Configuration(keeper.policy, exec=ExecConfig(timeout=60)),
        authorizer=keeper,
        runner=BubblewrapRunner(),
        resolver=StaticResolver({h: [a] for h, a in ADDRESSES.items()}),
        cwd=str(workspace),
        environ={"HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
        interactive=True,
        dialer=StaticDialer(table),
    )
    return ExecTool(ctx)


def run(tool: ExecTool, command: str) -> dict[str, Any]:
    result: dict[str, Any] = asyncio.run(tool.run({"command": command}))
    return result


def test_a_shell_call_naming_a_host_reaches_it_and_only_it_through_the_proxy(
    make_policy: PolicyFactory, workspace: Path, home: Path, upstreams: dict[str, Upstream]
) -> None:
    require_bwrap()
    person = Person()
    keeper = keeper_for(make_policy, person)
    tool = exec_tool(keeper, workspace, home, upstreams)

    # The redirect leads to other.test: allowed by [network], but not a host the decision saw.
    result = run(tool, CURL + "http://allowed.test/redirect/other.test")

    assert [r.summary for r in person.asked] == ["shell: " + CURL + "http://allowed.test/redirect/other.test"]
    assert (result["ok"], result["decision"]) == (True, "allow")
    assert result["stdout"] == (
        "bastion egress: other.test:80 refused: [policy-denied] this run may reach only the hosts "
        "its decision saw (allowed.test), not other.test\n [403]\n"
    )
    assert [s.path for s in upstreams["allowed.test"].seen] == ["/redirect/other.test"]
    assert upstreams["other.test"].seen == []
    connections = [(e.event.tool, e.event.decision, e.event.rule) for e in keeper.ledger.events()]
    assert ("fetch", "allow", "network.allow_hosts") in connections  # allowed.test, decided again
    assert ("fetch", "deny", "exec.hosts-only") in connections


def test_a_job_naming_a_host_reaches_it_through_a_proxy_that_ends_with_the_job(
    make_policy: PolicyFactory,
    workspace: Path,
    home: Path,
    upstreams: dict[str, Upstream],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    require_bwrap()
    closed: list[object] = []
    real_exit = EgressSession.__exit__

    def exit_and_count(self: EgressSession, *exc: object) -> None:
        real_exit(self, *exc)
        closed.append(self)

    monkeypatch.setattr(EgressSession, "__exit__", exit_and_count)
    person = Person()
    keeper = keeper_for(make_policy, person)
    tool = JobTool(exec_tool(keeper, workspace, home, upstreams).ctx)
    try:
        start = asyncio.run(tool.run({"action": "start", "command": CURL + "http://allowed.test/job"}))
        assert (start["ok"], start["decision"], start["data"]["state"]) == (True, "allow", "running"), start
        ended = asyncio.run(tool.run({"action": "output", "job": start["data"]["job"], "wait": 60}))
    finally:
        tool.ctx.background.close()
    assert [r.summary for r in person.asked] == ["shell: " + CURL + "http://allowed.test/job"]
    assert (ended["ok"], ended["exit_code"], ended["stdout"], ended["data"]["state"]) == (
        True,
        0,
        "hello from allowed.test GET /job\n [200]\n",
        "exited",
    )
    assert [s.path for s in upstreams["allowed.test"].seen] == ["/job"]
    assert len(closed) == 1  # the job's proxy closed when its process ended, not later
    connections = [(e.event.tool, e.event.decision, e.event.rule) for e in keeper.ledger.events()]
    assert ("fetch", "allow", "network.allow_hosts") in connections  # decided again at the proxy
