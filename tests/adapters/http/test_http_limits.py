"""Limits from ``[gateway]``: rate, body size, field lengths; request ids; CORS; bad input."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bastion.adapters.http import GatewaySettings
from bastion.adapters.http.middleware import sanitise_request_id
from bastion.configuration import load_text
from bastion.errors import PolicyError
from bastion.state.ratelimit import RateLimiter
from tests.adapters.http.conftest import GatewayFactory
from tests.adapters.http.helpers import Gateway, shell

SMALL = GatewaySettings(
    rate_limit_per_minute=3,
    max_body_bytes=2048,
    max_command_chars=100,
    max_session_id_chars=8,
    cors_origins=("https://app.example.com",),
)


@pytest.fixture
def small(gateway_factory: GatewayFactory) -> Gateway:
    return gateway_factory(gateway=SMALL)


def error(response: httpx.Response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def test_the_fourth_request_in_a_minute_is_rate_limited_with_retry_after(small: Gateway) -> None:
    agent = small.client("agent")
    codes = [agent.post("/v1/decide", json=shell("ls")).status_code for _ in range(4)]
    limited = agent.post("/v1/decide", json=shell("ls"))
    other_key = small.client("admin").post("/v1/decide", json=shell("ls"))
    assert codes == [200, 200, 200, 429]
    assert (error(limited), limited.headers["retry-after"]) == ((429, "rate_limited"), "20")
    assert other_key.status_code == 200


def test_a_rate_limited_sender_gets_the_cooldown_reply_first(gateway_factory: GatewayFactory) -> None:
    gateway = gateway_factory(gateway=GatewaySettings(rate_limit_per_minute=1, cooldown_reply="Easy there."))
    default = gateway_factory(gateway=GatewaySettings(rate_limit_per_minute=1))
    replies = []
    for gw in (gateway, default):
        agent = gw.client("agent")
        agent.post("/v1/decide", json=shell("ls"))
        replies.append(agent.post("/v1/decide", json=shell("ls")).json()["error"]["message"])
    assert replies == [
        "Easy there. Too many requests for this key: retry in 60 s",
        "Please slow down. Too many requests for this key: retry in 60 s",  # 002's wording
    ]


def test_allow_any_origin_is_an_explicit_override_of_the_origin_list(gateway_factory: GatewayFactory) -> None:
    listed = gateway_factory(gateway=SMALL).client("agent")
    anyone = gateway_factory(gateway=GatewaySettings(allow_any_origin=True)).client("agent")
    headers = {"Origin": "https://elsewhere.example"}
    assert [
        c.post("/v1/decide", json=shell("ls"), headers=headers).headers.get("access-control-allow-origin")
        for c in (listed, anyone)
    ] == [None, "*"]


def test_the_token_bucket_refills_with_time() -> None:
    now = [0.0]
    limiter = RateLimiter(60, clock=lambda: now[0])
    burst = [limiter.check("k") for _ in range(61)]
    now[0] += 1.0
    assert (burst[-1], limiter.check("k"), limiter.check("k")) == (1, 0, 1)


def test_a_body_over_the_limit_is_refused_whether_declared_or_streamed(small: Gateway) -> None:
    agent = small.client("agent")
    declared = agent.post(
        "/v1/decide", content=b"{" + b" " * 4096 + b"}", headers={"Content-Type": "application/json"}
    )

    def chunks() -> Iterator[bytes]:  # no Content-Length: chunked transfer encoding
        yield b'{"tool": "shell", "args": {"command": "'
        for _ in range(10):
            yield b"x" * 1024
        yield b'"}}'

    streamed = agent.post("/v1/decide", content=chunks())
    assert [error(declared), error(streamed)] == [(413, "body_too_large")] * 2


def test_long_commands_and_session_ids_are_invalid_calls(small: Gateway) -> None:
    agent = small.client("agent")
    long_command = agent.post("/v1/decide", json=shell("echo " + "a" * 200))
    long_session = agent.post("/v1/requests", json=shell("ls", session="s" * 9))
    fits = agent.post("/v1/decide", json=shell("ls", session="s" * 8))
    assert [error(long_command), error(long_session), fits.status_code] == [
        (422, "too_long"),
        (422, "too_long"),
        200,
    ]


def test_malformed_json_is_400_and_invalid_calls_are_422_with_a_stable_code(gateway: Gateway) -> None:
    agent = gateway.client("agent")
    results = [
        error(agent.post("/v1/decide", content=body))
        for body in (b"{not json", b"[1, 2]", b'{"tool": "shell", "args": []}', b'{"tool": "x", "bogus": 1}')
    ]
    assert results == [
        (400, "malformed_json"),
        (422, "invalid_call"),
        (422, "invalid_call"),
        (422, "invalid_call"),
    ]


def test_errors_are_json_even_for_unknown_routes_and_methods(gateway: Gateway) -> None:
    client = gateway.client("agent")
    assert [error(client.get("/v1/nothing")), error(client.put("/v1/decide"))] == [
        (404, "not_found"),
        (405, "method_not_allowed"),
    ]


def test_a_request_id_is_echoed_sanitised_or_generated_and_logged(
    gateway: Gateway, caplog: pytest.LogCaptureFixture
) -> None:
    client = gateway.client("agent")
    with caplog.at_level(logging.INFO, logger="bastion.http"):
        given = client.get("/health", headers={"X-Request-Id": "abc-123"}).headers["x-request-id"]
        dirty = client.get("/health", headers={"X-Request-Id": "a b<script>"}).headers["x-request-id"]
        made = client.get("/health").headers["x-request-id"]
    assert (given, dirty, len(made)) == ("abc-123", "abscript", 32)
    assert any(r.getMessage().startswith("abc-123 GET /health 200") for r in caplog.records)


def test_request_ids_are_cut_to_128_safe_characters() -> None:
    assert (sanitise_request_id("x" * 300), sanitise_request_id("!!!") != "") == ("x" * 128, True)


def test_cors_answers_only_configured_origins(small: Gateway) -> None:
    client = small.client()
    allowed = client.options(
        "/v1/decide",
        headers={
            "Origin": "https://app.example.com",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "x-api-key",
        },
    )
    other = client.options(
        "/v1/decide", headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}
    )
    simple = client.get("/health", headers={"Origin": "https://evil.example"})
    assert (allowed.status_code, allowed.headers["access-control-allow-origin"]) == (
        200,
        "https://app.example.com",
    )
    assert (
        other.status_code,
        "access-control-allow-origin" in other.headers,
        "access-control-allow-origin" in simple.headers,
    ) == (400, False, False)


def test_without_configured_origins_there_are_no_cors_headers(gateway: Gateway) -> None:
    response = gateway.client().get("/health", headers={"Origin": "https://app.example.com"})
    assert "access-control-allow-origin" not in response.headers


def test_gateway_settings_come_from_the_gateway_table_with_defaults_and_checks(tmp_path: Path) -> None:
    def gateway(text: str) -> GatewaySettings:
        env = {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "s")}
        return load_text(f"[gateway]\n{text}", cwd=str(tmp_path), env=env).gateway

    assert gateway("") == GatewaySettings(
        rate_limit_per_minute=60,
        max_body_bytes=65536,
        max_command_chars=32000,
        max_session_id_chars=128,
        request_timeout="120s",
        cors_origins=(),
    )
    assert gateway('request_timeout = "2m"\n').timeout_seconds == 120.0
    for bad in (
        "rate_limit_per_minute = 0\n",
        'request_timeout = "soon"\n',
        'colour = "red"\n',
        'cors_origins = ["app.example.com"]\n',
    ):
        with pytest.raises(PolicyError):
            gateway(bad)
