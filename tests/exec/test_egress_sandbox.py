"""A real sandboxed ``curl`` behind the egress proxy: allowed, denied, asked, held."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bastion.approval.clock import SystemClock
from bastion.approval.memory import MemoryStore
from bastion.approval.model import ApprovalRequest
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.store import MemoryLedgerStore
from bastion.exec import BubblewrapRunner, ExecConfig
from bastion.exec.egress import EgressSession, StaticDialer
from bastion.policy.compiled import Policy
from bastion.policy.engine import Gate
from bastion.policy.network import StaticResolver
from bastion.runtime import Gatekeeper
from tests.exec.egress_helpers import FAKE_ADDRESSES, Seen, Upstream, start_upstream
from tests.exec.sandbox_helpers import spec_for

POLICY = '[network]\nallow_hosts = ["allowed.test", "held.test"]\ndeny_hosts = ["denied.test"]\n'
SECRET = "s3cr3t-token-value-9f2"


@pytest.fixture
def upstreams() -> Iterator[dict[str, Upstream]]:
    names = ("allowed.test", "asked.test", "denied.test", "held.test")
    servers = {name: start_upstream(name) for name in names}
    yield servers
    for server in servers.values():
        server.close()


def make_keeper(policy: Policy) -> Gatekeeper:
    return Gatekeeper(
        Gate(policy),
        store=MemoryStore(),
        clock=SystemClock(),
        ledger=Ledger(MemoryLedgerStore(), hasher=ArgumentHasher(b"k" * 32)),
    )


def session(keeper: Gatekeeper, upstreams: dict[str, Upstream], **kw: Any) -> EgressSession:
    resolver = StaticResolver({host: [FAKE_ADDRESSES[host]] for host in FAKE_ADDRESSES})
    table = {(FAKE_ADDRESSES[h], 80): ("127.0.0.1", u.port) for h, u in upstreams.items()}
    return EgressSession(keeper, resolver=resolver, dialer=StaticDialer(table), **kw)


def run(
    runner: BubblewrapRunner, policy: Policy, egress: EgressSession, env: dict[str, str], command: str
) -> tuple[int | None, str]:
    spec = spec_for(policy, command, environ=env, config=ExecConfig(timeout=60))
    result = runner.run(dataclasses.replace(spec, egress=egress.binding))
    return result.exit_code, result.stdout + result.stderr


def curl(
    runner: BubblewrapRunner,
    policy: Policy,
    egress: EgressSession,
    env: dict[str, str],
    url: str,
    *options: str,
) -> tuple[int | None, str]:
    line = " ".join(["curl -sS --max-time 50 -w ' [%{http_code}]'", *options, url])
    return run(runner, policy, egress, env, line)


class Approver:
    """Answers the first parked request from the test, once it is parked, through the
    approval queue - and notes what the upstream had seen at that moment."""

    def __init__(self, keeper: Gatekeeper, upstream: Upstream | None = None, *, approve: bool = True) -> None:
        self.keeper, self.upstream, self.approve = keeper, upstream, approve
        self.parked = threading.Event()
        self.requests: list[ApprovalRequest] = []
        self.seen_before: list[Seen] | None = None

    def on_parked(self, request: ApprovalRequest) -> None:
        self.requests.append(request)
        if self.upstream is not None:
            self.seen_before = list(self.upstream.seen)
        self.parked.set()

    def answer_in_background(self) -> threading.Thread:
        def answer() -> None:
            assert self.parked.wait(60), "the connection was never parked"
            self.keeper.queue.answer(self.requests[0].id, approve=self.approve)

        thread = threading.Thread(target=answer)
        thread.start()
        return thread


def test_a_sandboxed_curl_reaches_an_allowed_host_only_through_the_proxy(
    runner: BubblewrapRunner,
    make_policy: Callable[..., Policy],
    child_env: dict[str, str],
    upstreams: dict[str, Upstream],
) -> None:
    policy = make_policy(POLICY)
    keeper = make_keeper(policy)
    with session(keeper, upstreams) as egress:
        code, out = curl(runner, policy, egress, child_env, "http://allowed.test/x")
    assert (code, out) == (0, "hello from allowed.test GET /x\n [200]")


def test_a_sandboxed_curl_to_a_denied_host_gets_a_403_with_the_reason(
    runner: BubblewrapRunner,
    make_policy: Callable[..., Policy],
    child_env: dict[str, str],
    upstreams: dict[str, Upstream],
) -> None:
    policy = make_policy(POLICY)
    with session(make_keeper(policy), upstreams) as egress:
        code, out = curl(runner, policy, egress, child_env, "http://denied.test/x")
    assert (code, upstreams["denied.test"].seen) == (0, [])
    assert out == (
        "bastion egress: denied.test:80 refused: [policy-denied] denied.test matches [network] "
        "deny_hosts entry 'denied.test'\n [403]"
    )


def test_without_the_proxy_the_sandbox_has_no_route_out(
    runner: BubblewrapRunner,
    make_policy: Callable[..., Policy],
    child_env: dict[str, str],
    upstreams: dict[str, Upstream],
) -> None:
    policy = make_policy(POLICY)
    port = upstreams["allowed.test"].port
    with session(make_keeper(policy), upstreams) as egress:
        code, out = curl(runner, policy, egress, child_env, f"http://127.0.0.1:{port}/", "--noproxy '*'")
    assert (code, out.split(" after ")[0]) == (
        7,
        f" [000]curl: (7) Failed to connect to 127.0.0.1 port {port}",
    )
    assert upstreams["allowed.test"].seen == []


def test_an_asked_host_parks_the_connection_until_a_person_approves_it(
    runner: BubblewrapRunner,
    make_policy: Callable[..., Policy],
    child_env: dict[str, str],
    upstreams: dict[str, Upstream],
) -> None:
    policy = make_policy(POLICY)
    keeper = make_keeper(policy)
    approver = Approver(keeper, upstreams["asked.test"])
    with session(keeper, upstreams, on_parked=approver.on_parked) as egress:
        answering = approver.answer_in_background()
        code, out = curl(runner, policy, egress, child_env, "http://asked.test/a http://asked.test/b")
        answering.join()
    assert (code, out) == (0, "hello from asked.test GET /a\n [200]hello from asked.test GET /b\n [200]")
    assert [r.summary for r in approver.requests] == ["fetch: GET http://asked.test:80/"]  # asked once
    assert approver.seen_before == []
    assert [s.path for s in upstreams["asked.test"].seen] == ["/a", "/b"]


def test_an_asked_host_a_person_rejects_is_never_reached(
    runner: BubblewrapRunner,
    make_policy: Callable[..., Policy],
    child_env: dict[str, str],
    upstreams: dict[str, Upstream],
) -> None:
    policy = make_policy(POLICY)
    keeper = make_keeper(policy)
    approver = Approver(keeper, approve=False)
    with session(keeper, upstreams, on_parked=approver.on_parked) as egress:
        answering = approver.answer_in_background()
        code, out = curl(runner, policy, egress, child_env, "http://asked.test/a")
        answering.join()
    assert (code, out.endswith("[403]"), upstreams["asked.test"].seen) == (0, True, [])
    assert "refused" in out and "denied by a person" in out
