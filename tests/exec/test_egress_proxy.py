"""The egress proxy without a sandbox: raw requests on its Unix socket, decided by the
real Gatekeeper, answered by loopback upstreams through the test dialer."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bastion.approval.clock import SystemClock
from bastion.approval.memory import MemoryStore
from bastion.approval.model import ApprovalRequest
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.store import MemoryLedgerStore
from bastion.exec.egress import EgressSession, StaticDialer
from bastion.exec.egress.binding import SOCKET
from bastion.exec.egress.held import hold
from bastion.policy.compiled import Policy
from bastion.policy.engine import Gate
from bastion.policy.network import StaticResolver
from bastion.runtime import Gatekeeper, PermissionCallback
from tests.exec.egress_helpers import FAKE_ADDRESSES, Upstream, start_upstream

POLICY = '[network]\nallow_hosts = ["allowed.test", "held.test", "rebound.test", "*.internal.test"]\n'
SECRET = "s3cr3t-token-value-9f2"


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    server = start_upstream("allowed.test")
    yield server
    server.close()


def keeper_for(policy: Policy, on_permission: PermissionCallback | None = None) -> Gatekeeper:
    return Gatekeeper(
        Gate(policy),
        store=MemoryStore(),
        clock=SystemClock(),
        ledger=Ledger(MemoryLedgerStore(), hasher=ArgumentHasher(b"k" * 32)),
        on_permission=on_permission,
    )


def session_for(keeper: Gatekeeper, upstream: Upstream, **kw: Any) -> EgressSession:
    table = {host: [address] for host, address in FAKE_ADDRESSES.items()}
    table |= {
        "rebound.test": ["127.0.0.1"],
        "meta.internal.test": ["169.254.169.254"],
        "mixed.internal.test": ["1.1.1.10", "10.0.0.7"],
    }
    # Every fake address leads to the one upstream: what reaches it shows what was let through.
    dial = {(address, 80): ("127.0.0.1", upstream.port) for address in FAKE_ADDRESSES.values()}
    dial[("127.0.0.1", 80)] = ("127.0.0.1", upstream.port)
    return EgressSession(keeper, resolver=StaticResolver(table), dialer=StaticDialer(dial), **kw)


def exchange(egress: EgressSession, data: bytes) -> str:
    """Send raw bytes to the proxy's socket, read until it closes."""
    assert egress.binding is not None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.connect(os.path.join(egress.binding.public_dir, SOCKET))
        client.sendall(data)
        chunks = []
        while chunk := client.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", "replace")


def get(url: str, *headers: str) -> bytes:
    lines = [f"GET {url} HTTP/1.1", *headers, "", ""]
    return "\r\n".join(lines).encode()


def body(reply: str) -> str:
    return reply.partition("\r\n\r\n")[2]


def status(reply: str) -> str:
    return reply.split("\r\n", 1)[0]


def test_an_allowed_host_is_forwarded_in_origin_form_with_hop_headers_dropped(
    make_policy: Callable[..., Policy], upstream: Upstream
) -> None:
    with session_for(keeper_for(make_policy(POLICY)), upstream) as egress:
        reply = exchange(
            egress,
            get(
                "http://allowed.test/p?q=1",
                "Host: allowed.test",
                "Proxy-Authorization: Basic eA==",
                "Connection: keep-alive, X-Drop",
                "X-Drop: 1",
                "X-Keep: 2",
            ),
        )
    assert (status(reply), body(reply)) == ("HTTP/1.1 200 OK", "hello from allowed.test GET /p?q=1\n")
    (seen,) = upstream.seen
    assert seen.headers == {"Host": "allowed.test", "X-Keep": "2", "Connection": "close"}


@pytest.mark.parametrize(
    ("url", "rule"),
    [
        ("http://rebound.test/", "network.private"),  # allowed by name, resolves to loopback
        ("http://mixed.internal.test/", "network.private"),  # one public and one private answer
        ("http://meta.internal.test/", "hardline.metadata"),
        ("http://127.0.0.1/", "network.private"),
        ("http://169.254.169.254/latest/meta-data/", "hardline.metadata"),
        ("http://[::ffff:127.0.0.1]/", "network.private"),
        ("http://0x7f.1/", "network.private"),
        ("http://localhost/", "network.private"),
        ("http://nowhere.test/", "egress.resolve"),
    ],
)
def test_private_loopback_and_metadata_destinations_are_refused_after_resolution(
    make_policy: Callable[..., Policy], upstream: Upstream, url: str, rule: str
) -> None:
    keeper = keeper_for(make_policy('[network]\nallow_hosts = ["*"]\n'))
    with session_for(keeper, upstream) as egress:
        reply = exchange(egress, get(url))
    assert (status(reply), upstream.seen) == ("HTTP/1.1 403 Forbidden", [])
    (event,) = [r.event for r in keeper.ledger.events()]
    assert (event.kind, event.decision, event.rule) == ("decided", "deny", rule)
    assert body(reply).startswith("bastion egress: ") and event.message in body(reply)


def test_a_connect_tunnel_is_a_blind_byte_pipe_to_the_checked_address(
    make_policy: Callable[..., Policy], upstream: Upstream
) -> None:
    keeper = keeper_for(make_policy(POLICY))
    with session_for(keeper, upstream) as egress:
        reply = exchange(
            egress,
            b"CONNECT allowed.test:80 HTTP/1.1\r\n\r\n"
            + get("/inside", "Host: anything", "Connection: close"),
        )
    assert reply.startswith("HTTP/1.1 200 Connection established\r\n\r\nHTTP/1.1 200 OK\r\n")
    assert reply.endswith("hello from allowed.test GET /inside\n")
    decided, executed = [r.event for r in keeper.ledger.events()]
    assert (decided.kind, decided.decision, decided.summary) == (
        "decided",
        "allow",
        "fetch: CONNECT https://allowed.test:80/",
    )
    assert (executed.kind, executed.rule, executed.exit_code) == ("executed", "egress.connection", 0)
    sent = len(get("/inside", "Host: anything", "Connection: close"))
    received = len(reply) - len("HTTP/1.1 200 Connection established\r\n\r\n")
    assert executed.message == (
        f"https://allowed.test:80/ via 1.1.1.10: {sent} bytes sent, "
        f"{received} bytes received; allowed.test matches [network] "
        "allow_hosts entry 'allowed.test'"
    )


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (get("/relative"), "this is a proxy: send an absolute http:// URL or CONNECT"),
        (b"GET http://allowed.test/ HTTP/1.1\r\nBad Header\r\n\r\n", "bad header line 'Bad Header'"),
        (b"GET http://allowed.test/ HTTP/1.1\r\nX: a\r\n folded\r\n\r\n", "bad header line ' folded'"),
        (b"GET http://allowed.test/ HTTP/2.0\r\n\r\n", "bad request line"),
        (b"GET http://allowed.test/\nX: y\r\n\r\n", "bare CR or LF in the request head"),
        (b"CONNECT allowed.test HTTP/1.1\r\n\r\n", "CONNECT needs host:port"),
        (get("http://user:pw@allowed.test/"), "credentials in the destination are not forwarded"),
        (get("http://allowed.test\\@evil.test/"), "cannot read the destination"),
        (get("ftp://allowed.test/"), "this is a proxy"),
    ],
)
def test_a_request_the_proxy_cannot_read_exactly_is_refused(
    make_policy: Callable[..., Policy], upstream: Upstream, data: bytes, expected: str
) -> None:
    with session_for(keeper_for(make_policy(POLICY)), upstream) as egress:
        reply = exchange(egress, data)
    assert (status(reply), upstream.seen) == ("HTTP/1.1 400 Bad Request", [])
    assert body(reply).startswith(expected)


def test_a_host_header_naming_another_site_is_refused(
    make_policy: Callable[..., Policy], upstream: Upstream
) -> None:
    with session_for(keeper_for(make_policy(POLICY)), upstream) as egress:
        reply = exchange(egress, get("http://allowed.test/", "Host: denied.test"))
    assert (status(reply), upstream.seen) == ("HTTP/1.1 403 Forbidden", [])
    assert body(reply) == "the Host header names denied.test, but this request goes to allowed.test:80\n"


def test_an_unanswered_question_is_a_denial(make_policy: Callable[..., Policy], upstream: Upstream) -> None:
    keeper = keeper_for(make_policy(""))
    with session_for(keeper, upstream, timeout=0.0) as egress:
        reply = exchange(egress, get("http://other.test/"))
    assert (status(reply), upstream.seen) == ("HTTP/1.1 403 Forbidden", [])
    requested, resolved = [r.event for r in keeper.ledger.events()]
    assert (requested.kind, resolved.kind, resolved.decision, resolved.rule) == (
        "requested",
        "resolved",
        "deny",
        "approval.timeout",
    )


def test_a_held_secret_is_swapped_in_for_its_host_and_kept_out_of_the_ledger(
    make_policy: Callable[..., Policy], upstream: Upstream
) -> None:
    asked: list[ApprovalRequest] = []

    def approve(request: ApprovalRequest) -> dict[str, str]:
        asked.append(request)
        return {"kind": "once"}

    keeper = keeper_for(make_policy(POLICY), on_permission=approve)
    secret = hold("API_TOKEN", SECRET, ["held.test"], token=lambda n: "ab" * n)
    with session_for(keeper, upstream, held=[secret]) as egress:
        first = exchange(egress, get("http://held.test/1", f"Authorization: Bearer {secret.placeholder}"))
        second = exchange(egress, get("http://held.test/2", f"X-Key: {secret.placeholder}"))
        other = exchange(egress, get("http://allowed.test/3", f"X-Key: {secret.placeholder}"))
    assert [status(r) for r in (first, second, other)] == ["HTTP/1.1 200 OK"] * 3
    assert len(asked) == 1 and asked[0].evaluation.reasons[0].rule == "egress.hold"
    assert [(s.path, s.headers.get("Authorization") or s.headers["X-Key"]) for s in upstream.seen] == [
        ("/1", f"Bearer {SECRET}"),
        ("/2", SECRET),
        ("/3", "BASTION_HELD_" + "ab" * 16),
    ]
    ledger = json.dumps([record.to_json() for record in keeper.ledger.events()])
    assert SECRET not in ledger and "s3cr3t" not in ledger


def test_where_nobody_can_be_asked_an_asking_host_is_refused_at_once(
    make_policy: Callable[..., Policy], upstream: Upstream
) -> None:
    keeper = keeper_for(make_policy(""))
    with session_for(keeper, upstream, interactive=False) as egress:
        reply = exchange(egress, get("http://other.test/"))
    assert (status(reply), upstream.seen) == ("HTTP/1.1 403 Forbidden", [])
    (event,) = [r.event for r in keeper.ledger.events()]
    assert (event.kind, event.decision, event.rule) == (
        "decided",
        "deny",
        "network.unlisted",
    )  # the specific cause leads


def test_the_question_about_a_held_host_names_the_credential_at_stake(
    make_policy: Callable[..., Policy], upstream: Upstream
) -> None:
    asked: list[ApprovalRequest] = []

    def reject(request: ApprovalRequest) -> dict[str, str]:
        asked.append(request)
        return {"kind": "reject"}

    keeper = keeper_for(make_policy(""), on_permission=reject)  # other.test would ask anyway
    secret = hold("API_TOKEN", SECRET, ["other.test"])
    with session_for(keeper, upstream, held=[secret]) as egress:
        reply = exchange(egress, get("http://other.test/", f"X-Key: {secret.placeholder}"))
    assert (status(reply), upstream.seen) == ("HTTP/1.1 403 Forbidden", [])
    (request,) = asked
    assert [(r.rule, r.decision.label) for r in request.evaluation.reasons[:2]] == [
        ("egress.hold", "ask"),
        ("network.unlisted", "ask"),  # the specific cause leads the default
    ]
    assert request.reason == (
        "a person approves the first request to other.test, which receives the held credential "
        "API_TOKEN; other.test is not in [network] allow_hosts; a person decides"
    )


def test_only_the_public_directory_is_shared_and_everything_goes_at_the_end(
    make_policy: Callable[..., Policy], upstream: Upstream
) -> None:
    egress = session_for(keeper_for(make_policy(POLICY)), upstream)
    with egress:
        assert egress.binding is not None
        public = egress.binding.public_dir
        root = os.path.dirname(public)
        assert sorted(os.listdir(root)) == ["private", "public"]
        assert sorted(os.listdir(public)) == ["bundle.crt", "ca.crt", "forward.py", "proxy.sock"]
        assert [oct(os.stat(p).st_mode & 0o777) for p in (root, os.path.join(root, "private"))] == [
            "0o700"
        ] * 2
        assert egress.running
    assert (os.path.exists(root), egress.running) == (False, False)


def test_the_sandbox_environment_points_every_client_at_the_forwarder_and_the_bundle(
    make_policy: Callable[..., Policy], upstream: Upstream
) -> None:
    secret = hold("API_TOKEN", SECRET, ["held.test"], token=lambda n: "ef" * n)
    with session_for(keeper_for(make_policy(POLICY)), upstream, held=[secret]) as egress:
        assert egress.binding is not None
        env = dict(egress.binding.env)
    proxy, bundle = "http://127.0.0.1:3128", "/run/bastion-egress/bundle.crt"
    assert env == {
        **dict.fromkeys(
            ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"], proxy
        ),
        **dict.fromkeys(["SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "GIT_SSL_CAINFO"], bundle),
        "NODE_EXTRA_CA_CERTS": "/run/bastion-egress/ca.crt",
        "NO_PROXY": "",
        "no_proxy": "",
        "API_TOKEN": "BASTION_HELD_" + "ef" * 16,
        # git asks its credential helper, which answers a held host with the placeholder
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": "credential.helper",
        "GIT_CONFIG_VALUE_0": "!sh /run/bastion-egress/credential.sh",
        # and npm reads the placeholder as the held host's registry token
        "NPM_CONFIG_USERCONFIG": "/run/bastion-egress/npmrc",
    }
