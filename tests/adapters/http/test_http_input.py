"""Input framing and read timeouts at the gateway (issue 15, "Input framing"): a body is
strict JSON or a 400 that says why; no client holds a connection by sending slowly."""

from __future__ import annotations

import socket
import time
from urllib.parse import urlsplit

import httpx
import pytest

from tests.adapters.http.conftest import GatewayFactory
from tests.adapters.http.helpers import Gateway


def error(response: httpx.Response) -> tuple[int, str, str]:
    body = response.json()["error"]
    return response.status_code, body["code"], body["message"]


@pytest.fixture(params=["httptools", "h11"])
def quick(gateway_factory: GatewayFactory, request: pytest.FixtureRequest) -> Gateway:
    """Short timeouts, on each parser the gateway runs on (httptools, or h11 without it)."""
    return gateway_factory(head_timeout=0.5, body_timeout=0.5, parser=request.param)


def connect(gateway: Gateway) -> socket.socket:
    url = urlsplit(gateway.url)
    sock = socket.create_connection((url.hostname or "127.0.0.1", url.port or 80), timeout=30)
    return sock


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends before it closes; the 30 s socket timeout fails the test
    (never hangs it) if the server keeps the connection."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def test_duplicate_keys_in_a_body_are_a_400_naming_the_key_not_last_wins(gateway: Gateway) -> None:
    body = b'{"tool": "read", "args": {"path": "README.md", "path": "/root/.ssh/id_rsa"}}'

    response = gateway.client("agent").post("/v1/decide", content=body)

    assert error(response) == (
        400,
        "malformed_json",
        "the body is not strict JSON: duplicate key 'path' in a JSON object (one meaning per key)",
    )


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_nan_and_infinity_in_a_body_are_a_400(gateway: Gateway, constant: str) -> None:
    body = (
        b'{"tool": "code", "args": {"language": "python", "source": "", "timeout": %s}}' % constant.encode()
    )

    status, code, _ = error(gateway.client("agent").post("/v1/decide", content=body))

    assert (status, code) == (400, "malformed_json")


def test_deeply_nested_json_is_a_400_not_a_500(gateway: Gateway) -> None:
    deep = b'{"tool": "read", "args": {"path": "x", "n": ' + b"[" * 30000 + b"]" * 30000 + b"}}"
    shallow_but_over = b'{"tool": "read", "args": {"path": "x", "n": ' + b"[" * 70 + b"]" * 70 + b"}}"
    agent = gateway.client("agent")

    results = [error(agent.post("/v1/decide", content=body)) for body in (deep, shallow_but_over)]

    assert (
        results
        == [(400, "malformed_json", "the body is not strict JSON: JSON nested deeper than 64 levels")] * 2
    )


def test_a_client_that_connects_and_sends_nothing_is_disconnected(quick: Gateway) -> None:
    with connect(quick) as sock:
        assert read_until_closed(sock) == b""


def test_a_request_head_dripped_slowly_is_cut_off_although_bytes_keep_coming(quick: Gateway) -> None:
    with connect(quick) as sock:
        sock.sendall(b"POST /v1/decide HTTP/1.1\r\nHost: x\r\n")
        closed = False
        for _ in range(200):  # a byte at a time, each resetting uvicorn's own idle timer
            try:
                sock.sendall(b"X")
            except OSError:
                closed = True
                break
            sock.settimeout(0.05)
            try:
                closed = sock.recv(1) == b""
            except TimeoutError:
                continue
            if closed:
                break
        assert closed


def test_a_request_head_over_16_kib_is_a_400_and_the_connection_closes(quick: Gateway) -> None:
    with connect(quick) as sock:
        # 17 KiB of headers, never finished, in one write: loopback carries it as one
        # segment, so the server has read it all when it answers (no reset for unread data)
        pad = b"".join(b"X-Pad-%02d: " % i + b"a" * 1012 + b"\r\n" for i in range(17))
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n" + pad)
        answer = read_until_closed(sock)

    assert answer.split(b"\r\n")[0] == b"HTTP/1.1 400 Bad Request"


def test_a_request_head_just_under_16_kib_is_answered(quick: Gateway) -> None:
    with connect(quick) as sock:
        pad = b"".join(b"X-Pad-%d: " % i + b"a" * 1000 + b"\r\n" for i in range(15))
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + pad + b"\r\n")
        answer = read_until_closed(sock)

    assert answer.split(b"\r\n")[0] == b"HTTP/1.1 200 OK"


def test_a_request_body_that_never_completes_is_a_408(quick: Gateway) -> None:
    with connect(quick) as sock:
        sock.sendall(
            b"POST /v1/decide HTTP/1.1\r\nHost: x\r\nX-API-Key: "
            + quick.keys["agent"].encode()
            + b'\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"tool"'
        )
        answer = read_until_closed(sock)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == b"HTTP/1.1 408 Request Timeout"
    assert body == b'{"error":{"code":"body_timeout","message":"the request body took longer than 0.5 s"}}'


def test_a_prompt_client_is_still_answered_after_the_timeouts_are_in_place(quick: Gateway) -> None:
    response = quick.client("agent").post("/v1/decide", json={"tool": "read", "args": {"path": "README.md"}})

    assert (response.status_code, response.json()["decision"]) == (200, "allow")


def test_pipelined_requests_are_all_answered_before_an_idle_connection_is_closed(quick: Gateway) -> None:
    with connect(quick) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n" * 3)
        answer = read_until_closed(sock)

    assert answer.count(b"HTTP/1.1 200 OK") == 3


def test_each_keep_alive_request_gets_a_whole_head_deadline_from_the_previous_response(
    quick: Gateway,
) -> None:
    """Three requests 0.35 s apart on one connection (past the 0.5 s deadline of the first
    head): each answered, then the idle connection is closed."""
    answers = []
    with connect(quick) as sock:
        for number in range(3):
            if number:
                time.sleep(0.35)
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            data = b""
            while not data.endswith(b'{"status":"ok"}'):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
            answers.append(data.split(b"\r\n")[0])
        rest = read_until_closed(sock)
    assert (answers, rest) == ([b"HTTP/1.1 200 OK"] * 3, b"")
