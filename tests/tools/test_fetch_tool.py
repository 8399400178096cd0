"""fetch against a local server: redirects re-checked, addresses pinned, size and time capped."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from bastion.exec import ExecConfig
from bastion.policy.network import StaticResolver
from bastion.policy.urls import IPAddress
from bastion.tools.fetch import UNTRUSTED_CLOSE, UNTRUSTED_OPEN
from tests.tools.conftest import ToolsFactory, run


class Handler(BaseHTTPRequestHandler):
    hits: list[tuple[str, str]]

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _send(self, status: int, body: bytes = b"", **headers: str) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self.server.hits.append((self.path, self.headers.get("Host", "")))  # type: ignore[attr-defined]
        port = self.server.server_address[1]
        try:
            if self.path == "/hello":
                self._send(200, b"hello there", Content_Type="text/plain; charset=utf-8")
            elif self.path == "/to-metadata":
                self._send(302, Location="http://169.254.169.254/latest/meta-data/")
            elif self.path == "/to-loopback":
                self._send(302, Location=f"http://127.0.0.1:{port}/secret")
            elif self.path == "/to-hello":
                self._send(301, Location="/hello")
            elif self.path == "/big":
                self._send(200, b"x" * 3_000_000)
            elif self.path == "/slow":
                self.send_response(200)
                self.send_header("Content-Length", "100")
                self.end_headers()
                for _ in range(100):
                    self.wfile.write(b".")
                    self.wfile.flush()
                    time.sleep(0.2)
            else:
                self._send(404, b"not here")
        except (BrokenPipeError, ConnectionResetError):
            pass


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[Server]:
    httpd = Server(("127.0.0.1", 0), Handler)
    httpd.hits = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def hits(server: Server) -> list[tuple[str, str]]:
    return list(server.hits)  # type: ignore[attr-defined]


POLICY = '[network]\nallow_private = true\nallow_hosts = ["svc.test"]\n'
LOCAL = StaticResolver({"svc.test": ["127.0.0.1"]})


def test_a_fetch_returns_the_body_marked_untrusted(make_tools: ToolsFactory, server: Server) -> None:
    port = server.server_address[1]
    url = f"http://svc.test:{port}/hello"
    result = run(make_tools(POLICY, resolver=LOCAL)["fetch"], {"url": url})
    assert (result["ok"], result["decision"], result["truncated"]) == (True, "allow", False)
    assert result["stdout"] == UNTRUSTED_OPEN.format(url=url) + "hello there" + UNTRUSTED_CLOSE
    assert result["data"] == {
        "url": url,
        "status": 200,
        "redirects": [],
        "untrusted": True,
        "content_type": "text/plain; charset=utf-8",
    }


def test_the_connection_goes_to_the_checked_address_with_the_host_name_in_host(
    make_tools: ToolsFactory, server: Server
) -> None:
    port = server.server_address[1]
    run(make_tools(POLICY, resolver=LOCAL)["fetch"], {"url": f"http://svc.test:{port}/hello"})
    assert hits(server) == [("/hello", f"svc.test:{port}")]


def test_a_redirect_within_the_policy_is_followed(make_tools: ToolsFactory, server: Server) -> None:
    port = server.server_address[1]
    result = run(make_tools(POLICY, resolver=LOCAL)["fetch"], {"url": f"http://svc.test:{port}/to-hello"})
    assert (result["ok"], result["data"]["url"]) == (True, f"http://svc.test:{port}/hello")
    assert result["data"]["redirects"] == [{"url": f"http://svc.test:{port}/to-hello", "status": 301}]


def test_a_redirect_to_the_metadata_endpoint_is_blocked(make_tools: ToolsFactory, server: Server) -> None:
    port = server.server_address[1]
    result = run(make_tools(POLICY, resolver=LOCAL)["fetch"], {"url": f"http://svc.test:{port}/to-metadata"})
    assert (result["ok"], result["decision"], result["stdout"]) == (False, "deny", "")
    assert result["data"]["blocked_url"] == "http://169.254.169.254/latest/meta-data/"
    assert "cloud metadata endpoint" in result["message"]


def test_a_redirect_to_a_loopback_address_not_allowed_is_blocked_before_any_request(
    make_tools: ToolsFactory, server: Server
) -> None:
    port = server.server_address[1]
    result = run(make_tools(POLICY, resolver=LOCAL)["fetch"], {"url": f"http://svc.test:{port}/to-loopback"})
    assert (result["ok"], result["decision"]) == (False, "deny")
    assert result["data"]["blocked_url"] == f"http://127.0.0.1:{port}/secret"
    assert [path for path, _ in hits(server)] == ["/to-loopback"]


def test_a_name_resolving_to_loopback_is_blocked_without_allow_private(
    make_tools: ToolsFactory, server: Server
) -> None:
    port = server.server_address[1]
    result = run(
        make_tools('[network]\nallow_hosts = ["svc.test"]\n', resolver=LOCAL)["fetch"],
        {"url": f"http://svc.test:{port}/hello"},
    )
    assert (result["ok"], result["decision"]) == (False, "deny")
    assert hits(server) == []


class RebindingResolver:
    """Answers a public address first, then the loopback address: DNS rebinding."""

    def __init__(self) -> None:
        self.calls = 0

    def resolve(self, host: str) -> Sequence[IPAddress]:
        self.calls += 1
        answer = "93.184.216.34" if self.calls == 1 else "127.0.0.1"
        return StaticResolver({host: [answer]}).resolve(host)


def test_dns_that_changes_between_check_and_connect_cannot_reach_a_private_address(
    make_tools: ToolsFactory, server: Server
) -> None:
    port = server.server_address[1]
    resolver = RebindingResolver()
    tools = make_tools('[network]\nallow_hosts = ["rebind.test"]\n', resolver=resolver)
    result = run(tools["fetch"], {"url": f"http://rebind.test:{port}/hello"})
    assert (result["ok"], result["decision"]) == (False, "allow")
    assert result["message"].startswith(
        "blocked at connect time: rebind.test resolves to 127.0.0.1, a loopback address"
    )
    assert (resolver.calls, hits(server)) == (2, [])


def test_an_oversized_response_is_cut_at_max_bytes(make_tools: ToolsFactory, server: Server) -> None:
    port = server.server_address[1]
    url = f"http://svc.test:{port}/big"
    result = run(make_tools(POLICY, resolver=LOCAL)["fetch"], {"url": url, "max_bytes": 1000})
    assert (result["ok"], result["truncated"]) == (True, True)
    assert result["stdout"] == (
        UNTRUSTED_OPEN.format(url=url)
        + "x" * 1000
        + "\n[bastion: content cut at 1000 bytes]"
        + UNTRUSTED_CLOSE
    )


def test_a_slow_response_times_out(make_tools: ToolsFactory, server: Server) -> None:
    port = server.server_address[1]
    tools = make_tools(POLICY, resolver=LOCAL, config=ExecConfig(timeout=1))
    result = run(tools["fetch"], {"url": f"http://svc.test:{port}/slow"})
    assert (result["ok"], result["timed_out"], result["stdout"]) == (False, True, "")
    assert result["message"] == "fetch timed out after 1s"


def test_a_url_the_policy_does_not_list_is_not_fetched(make_tools: ToolsFactory, server: Server) -> None:
    port = server.server_address[1]
    result = run(
        make_tools("[network]\nallow_private = true\n", resolver=LOCAL)["fetch"],
        {"url": f"http://svc.test:{port}/hello"},
    )
    assert (result["ok"], result["decision"]) == (False, "deny")
    assert hits(server) == []
