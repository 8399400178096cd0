"""``POST /v1/decide`` on its thin path answers exactly as the Starlette route would: the
same status, headers (in order), body and log line, for answers and for every error."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.responses import JSONResponse

from bastion.adapters.http import GatewaySettings, ServerSettings, create_app
from bastion.adapters.http.app import GatewayApp
from bastion.adapters.http.auth import COOKIE
from bastion.adapters.http.context import Context
from bastion.adapters.http.decide_path import _stdlib_dumps, render_evaluation
from bastion.adapters.http.middleware import sanitise_request_id
from bastion.errors import StoreError
from bastion.keys import Role, SqliteKeyStore
from bastion.policy.network import Resolver
from bastion.policy.urls import IPAddress
from tests.adapters.http.helpers import ASK_POLICY

LIMITS = GatewaySettings(rate_limit_per_minute=10_000, max_body_bytes=2048, max_command_chars=100)
Answer = tuple[int, list[tuple[str, str]], bytes]


def build(
    tmp_path: Path, home: Path, workspace: Path, gateway: GatewaySettings, resolver: Resolver | None = None
) -> tuple[GatewayApp, dict[str, str]]:
    state = tmp_path / "state"
    store = SqliteKeyStore.in_state_dir(str(state))
    keys = {}
    for role in (Role.AGENT, Role.APPROVER, Role.ADMIN):
        keys[role.value] = store.create(role, now=time.time(), label=role.value)[1]
    policy = tmp_path / "policy.toml"
    policy.write_text(ASK_POLICY)
    settings = ServerSettings(
        policy_path=str(policy),
        cwd=str(workspace),
        env={"HOME": str(home), "BASTION_STATE_DIR": str(state), "PATH": "/usr/bin:/bin"},
        gateway=gateway,
        sandboxed=False,
        resolver=resolver,
    )
    return create_app(settings, keys=store), keys


@pytest.fixture
def built(tmp_path: Path, home: Path, workspace: Path) -> tuple[GatewayApp, dict[str, str]]:
    return build(tmp_path, home, workspace, LIMITS)


async def post(app: GatewayApp, headers: dict[str, str], content: Any, path: str = "/v1/decide") -> Answer:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://gw") as client:
        response = await client.post(path, headers=headers, content=content)
    return response.status_code, list(response.headers.multi_items()), response.content


async def streamed() -> AsyncIterator[bytes]:  # no Content-Length: the limit is counted while reading
    yield b'{"tool": "shell", "args": {"command": "'
    for _ in range(4):
        yield b"x" * 1024
    yield b'"}}'


def requests(keys: dict[str, str], cookie: str) -> list[tuple[dict[str, str], Any]]:
    agent = {"X-API-Key": keys["agent"], "Content-Type": "application/json"}
    return [
        (agent, b'{"tool": "read", "args": {"path": "README.md"}}'),
        (agent, b'{"tool": "shell", "args": {"command": "make deploy prod"}, "session": "s1"}'),
        ({**agent, "X-Request-Id": "a b<script>"}, b'{"tool": "shell", "args": {"command": "ls"}}'),
        ({"Authorization": f"Bearer {keys['agent']}"}, b'{"tool": "shell", "args": {"command": "ls"}}'),
        (agent, b"{not json"),
        (agent, b'{"a": 1, "a": 2}'),
        (agent, b"[1, 2]"),
        (agent, b'{"tool": "x", "bogus": 1}'),
        (agent, b'{"tool": "shell", "args": {"command": "echo ' + b"a" * 200 + b'"}}'),
        (agent, b"{" + b" " * 4096 + b"}"),
        (agent, streamed),
        ({}, b'{"tool": "shell", "args": {"command": "ls"}}'),
        ({"X-API-Key": "bst_000000000000_" + "x" * 43}, b"{}"),
        ({"X-API-Key": keys["approver"]}, b'{"tool": "shell", "args": {"command": "ls"}}'),
        ({"Cookie": f"{COOKIE}={cookie}"}, b'{"tool": "shell", "args": {"command": "ls"}}'),
        ({"Cookie": f"{COOKIE}=expired"}, b'{"tool": "shell", "args": {"command": "ls"}}'),
        (agent, b'{"tool": "shell", "args": {"command": "echo \\ud800"}}'),  # a lone surrogate
    ]


async def answers(app: GatewayApp, cases: list[tuple[dict[str, str], Any]]) -> list[Answer]:
    out = []
    for number, (headers, content) in enumerate(cases):
        body = content() if callable(content) else content
        out.append(await post(app, {"X-Request-Id": f"req-{number}", **headers}, body))
    return out


def thin_and_route(app: GatewayApp, run: Any) -> tuple[Any, Any, int]:
    """``run(app)`` on the thin path (counting its calls), then on the Starlette route."""
    thin = app.decide
    assert thin is not None
    calls = []

    async def counted(scope: Any, receive: Any, send: Any) -> None:
        calls.append(scope["path"])
        await thin(scope, receive, send)

    async def both() -> tuple[Any, Any]:
        async with app.router.lifespan_context(app):
            app.decide = counted  # type: ignore[assignment]
            first = await run(app)
            app.decide = None
            return first, await run(app)

    first, second = asyncio.run(both())
    return first, second, len(calls)


def logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    lines = [
        r.getMessage() for r in caplog.records if r.name == "bastion.http" and " POST " in r.getMessage()
    ]
    return [re.sub(r" [\d.]+ms ", " ?ms ", line) for line in lines]


def test_the_thin_decide_path_answers_every_case_with_the_routes_status_headers_body_and_log_line(
    built: tuple[GatewayApp, dict[str, str]], caplog: pytest.LogCaptureFixture
) -> None:
    app, keys = built
    ctx = app.state.ctx
    assert isinstance(ctx, Context)
    admin = next(k for k in ctx.keys.list() if k.role is Role.ADMIN)
    cookie, _ = ctx.state.open_session(admin.id, now=time.time(), ttl=600)  # CSRF header missing: 403
    cases = requests(keys, cookie)
    with caplog.at_level(logging.INFO, logger="bastion.http"):
        thin, route, calls = thin_and_route(app, lambda a: answers(a, cases))
    lines = logged(caplog)
    assert calls == len(cases)
    assert [a[0] for a in thin] == [
        200,
        200,
        200,
        200,
        400,
        400,
        422,
        422,
        422,
        413,
        413,
        401,
        401,
        403,
        403,
        401,
        200,
    ]
    assert thin == route
    assert lines[: len(cases)] == lines[len(cases) :]


def test_an_unexpected_error_answers_as_on_the_route_a_500_then_raised_on_to_the_server(
    built: tuple[GatewayApp, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, keys = built
    ctx = app.state.ctx

    def broken(key_id: str) -> int:
        raise RuntimeError("limiter bug")

    monkeypatch.setattr(ctx.limiter, "check", broken)
    seen: list[BaseException] = []

    async def run(a: GatewayApp) -> Answer:
        try:
            return await post(a, {"X-API-Key": keys["agent"], "X-Request-Id": "r1"}, b"{}")
        except RuntimeError as exc:  # pragma: no cover - ASGITransport returns the 500 instead
            seen.append(exc)
            raise

    thin, route, calls = thin_and_route(app, run)
    assert (calls, thin[0], thin[2], seen) == (
        1,
        500,
        b'{"error":{"code":"internal","message":"internal error (request id r1)"}}',
        [],
    )
    assert thin == route


@pytest.mark.parametrize(
    ("where", "status", "code"),
    [("keys", 503, "state_unavailable"), ("service", 500, "internal")],
)
def test_a_store_error_reading_the_key_is_a_503_and_any_error_while_deciding_a_500_as_on_the_route(
    built: tuple[GatewayApp, dict[str, str]],
    monkeypatch: pytest.MonkeyPatch,
    where: str,
    status: int,
    code: str,
) -> None:
    app, keys = built
    ctx = app.state.ctx

    def down(*args: object) -> None:
        raise StoreError("database is locked")

    if where == "keys":
        monkeypatch.setattr(ctx.keys, "get", down)
    else:
        monkeypatch.setattr(ctx.service.holder.keeper, "decide", down)

    async def run(a: GatewayApp) -> Answer:
        body = b'{"tool": "shell", "args": {"command": "ls"}}'
        return await post(a, {"X-API-Key": keys["agent"], "X-Request-Id": "r2"}, body)

    thin, route, calls = thin_and_route(app, run)
    assert (calls, thin[0], code.encode() in thin[2]) == (1, status, True)
    assert thin == route


def test_the_thin_path_counts_against_the_keys_rate_limit_with_retry_after(
    tmp_path: Path, home: Path, workspace: Path
) -> None:
    app, keys = build(tmp_path, home, workspace, GatewaySettings(rate_limit_per_minute=3))

    async def run() -> list[Answer]:
        async with app.router.lifespan_context(app):
            body = b'{"tool": "shell", "args": {"command": "ls"}}'
            return [await post(app, {"X-API-Key": keys["agent"]}, body) for _ in range(4)]

    answered = asyncio.run(run())
    assert ([a[0] for a in answered], "retry-after" in dict(answered[3][1])) == ([200, 200, 200, 429], True)


def test_with_cors_configured_a_decide_keeps_the_route_and_carries_the_cors_headers(
    tmp_path: Path, home: Path, workspace: Path
) -> None:
    cors = GatewaySettings(rate_limit_per_minute=100, cors_origins=("https://app.example.com",))
    app, keys = build(tmp_path, home, workspace, cors)

    async def run() -> Answer:
        async with app.router.lifespan_context(app):
            headers = {"X-API-Key": keys["agent"], "Origin": "https://app.example.com"}
            return await post(app, headers, b'{"tool": "shell", "args": {"command": "ls"}}')

    status, headers, _ = asyncio.run(run())
    assert (app.decide, status, dict(headers).get("access-control-allow-origin")) == (
        None,
        200,
        "https://app.example.com",
    )


class SlowResolver:
    """Every lookup takes longer than the gateway's request timeout."""

    def resolve(self, host: str) -> Sequence[IPAddress]:
        time.sleep(1.5)
        return (ipaddress.ip_address("203.0.113.7"),)


def test_a_decision_that_looks_a_host_up_past_the_request_timeout_is_a_504_as_on_the_route(
    tmp_path: Path, home: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gateway = GatewaySettings(rate_limit_per_minute=100, request_timeout="1s")
    app, keys = build(tmp_path, home, workspace, gateway, resolver=SlowResolver())
    ctx = app.state.ctx
    keeper = ctx.service.holder.keeper
    real = keeper.decide

    def looking_up(call: object) -> object:  # a decision that needs a host name
        with contextlib.suppress(OSError):  # on the loop: not in the cache, the answer is not used
            ctx.service.resolver.resolve("slow.example")
        return real(call)

    monkeypatch.setattr(keeper, "decide", looking_up)

    async def run(a: GatewayApp) -> Answer:
        body = b'{"tool": "shell", "args": {"command": "ls"}}'
        return await post(a, {"X-API-Key": keys["agent"], "X-Request-Id": "r3"}, body)

    thin, route, calls = thin_and_route(app, run)
    assert (calls, thin[0], thin[2]) == (
        1,
        504,
        b'{"error":{"code":"timeout","message":"no answer within 1s"}}',
    )
    assert thin == route


def test_a_generated_request_id_is_a_random_version_4_uuid_in_32_hex_digits() -> None:
    made = [sanitise_request_id(value) for value in (None, "", "<>")]
    parsed = [uuid.UUID(hex=m) for m in made]
    assert [(p.hex, p.version, p.variant) for p in parsed] == [(m, 4, uuid.RFC_4122) for m in made]
    assert len(set(made)) == 3


reason_text = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=30)


@settings(max_examples=300, deadline=None)
@given(
    texts=st.lists(reason_text, min_size=1, max_size=4), marker=st.none() | reason_text, shadow=st.booleans()
)
def test_an_evaluation_is_rendered_byte_for_byte_as_the_routes_json_response(
    texts: list[str], marker: str | None, shadow: bool
) -> None:
    content: dict[str, Any] = {
        "decision": "ask",
        "reasons": [
            {"rule": t, "source": "built-in", "matched": t[::-1], "message": t, "decision": "ask"}
            for t in texts
        ],
        "effects": ["read", "network"],
        "marker": marker,
    }
    if shadow:
        content.update(shadow=True, would="deny")
    try:
        expected: bytes | type[BaseException] = bytes(JSONResponse(content).body)
    except UnicodeEncodeError:  # a lone surrogate: the route's response fails, so does this
        expected = UnicodeEncodeError
    try:
        got: bytes | type[BaseException] = render_evaluation(content)
    except UnicodeEncodeError:
        got = UnicodeEncodeError
    try:  # the encoder used where orjson is not installed
        fallback: bytes | type[BaseException] = _stdlib_dumps(content)
    except UnicodeEncodeError:
        fallback = UnicodeEncodeError
    assert got == fallback == expected


def test_a_lone_surrogate_fails_the_render_as_it_fails_the_routes_response() -> None:
    with pytest.raises(UnicodeEncodeError):
        render_evaluation({"decision": "deny", "reasons": [], "effects": [], "marker": "\ud800"})
