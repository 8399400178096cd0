"""``POST /v1/decide`` as one plain ASGI callable: the call every agent makes, without the
Starlette request, response, routing and middleware objects around it.

It answers as the Starlette route does, step for step: the request id (as
``RequestIdMiddleware``), the declared and the streamed body limit (``BodyLimitMiddleware``),
the body deadline (``BodyTimeoutMiddleware``), key, rate limit, role and CSRF
(``principal_for``), the request timeout and the error mapping (as ``bounded``), errors
rendered by ``errors``, and anything unexpected answered as Starlette's
``ServerErrorMiddleware`` does (a 500, then raised on to the server). ``GatewayApp`` sends
every other request through Starlette, this route too when CORS is configured.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from bastion.adapters.http.api import call_of, parse_json
from bastion.adapters.http.context import Context, internal, principal_for, timed_out
from bastion.adapters.http.errors import (
    ApiError,
    error_response,
    render_store_error,
    render_unexpected,
    too_large,
)
from bastion.adapters.http.middleware import header, log_request, sanitise_request_id
from bastion.adapters.http.service import evaluation_object
from bastion.adapters.http.timeouts import body_timeout_error
from bastion.errors import StoreError

__all__ = ["DecideEndpoint", "render_evaluation"]


Headers = list[tuple[bytes, bytes]]
Answer = tuple[int, Headers, bytes]
_JSON = (b"content-type", b"application/json")
#: JSONResponse's encoding: compact, UTF-8, no NaN.
_encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode


def _stdlib_dumps(content: Any) -> bytes:
    return _encode(content).encode("utf-8")


_fast_dumps: Callable[[Any], bytes]
try:  # orjson, when installed, writes the same bytes for an Evaluation's JSON, ~10x faster
    from orjson import dumps as _fast_dumps
except ImportError:  # pragma: no cover - the standard library's encoder then
    _fast_dumps = _stdlib_dumps


def render_evaluation(content: dict[str, Any]) -> bytes:
    """An ``Evaluation.to_json()`` (strings, lists, null and booleans: no floats, where the
    two encoders differ) as JSONResponse renders it. What orjson refuses (a lone surrogate)
    goes to the standard library's encoder, which fails as the route's response would."""
    try:
        return _fast_dumps(content)
    except TypeError:
        return _stdlib_dumps(content)


class DecideEndpoint:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.max_bytes = ctx.gateway.max_body_bytes
        self.body_timeout = ctx.settings.body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        state = scope.setdefault("state", {})
        rid = sanitise_request_id(header(scope, b"x-request-id"))
        state["request_id"] = rid
        started = time.perf_counter()
        try:
            status, headers, body = await self._answer(scope, receive, state)
        except Exception as exc:  # ServerErrorMiddleware's part: outside the request id's
            log_request(scope, rid, 0, started)
            response = await render_unexpected(Request(scope), exc)
            await response(scope, receive, send)
            raise
        headers.append((b"x-request-id", rid.encode("ascii")))
        try:
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
        finally:
            log_request(scope, rid, status, started)

    async def _answer(self, scope: Scope, receive: Receive, state: dict[str, Any]) -> Answer:
        deadline = asyncio.get_running_loop().time() + self.body_timeout
        declared = header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            return _rendered(_error(too_large(self.max_bytes)))
        request = Request(scope, receive)
        try:
            principal_for(request, "decide", ctx=self.ctx)
            result = await self._decide(receive, deadline, state)
        except ApiError as exc:
            return _rendered(_error(exc))
        except StoreError as exc:
            return _rendered(await render_store_error(request, exc))
        body = render_evaluation(result)
        return 200, [(b"content-length", str(len(body)).encode("latin-1")), _JSON], body

    async def _decide(self, receive: Receive, body_deadline: float, state: dict[str, Any]) -> dict[str, Any]:
        """As ``bounded``, with one timer at a time: the request timeout (504) is only armed
        where the work can wait, reading the body (with the body deadline: one timer for
        both) and deciding in a worker thread; an inline decision never yields to the loop,
        so no timer could interrupt it."""
        deadline = asyncio.get_running_loop().time() + self.ctx.timeout_seconds
        service = self.ctx.service
        try:
            raw = await self._body(receive, body_deadline, deadline)
            call = call_of(parse_json(raw), self.ctx)
            keeper = service.holder.keeper
            evaluation = service.decided_inline(keeper, call)
            if evaluation is None:
                async with asyncio.timeout_at(deadline):
                    evaluation = await service.decided_in_thread(keeper, call)
            return evaluation_object(evaluation)
        except TimeoutError:
            raise timed_out(self.ctx) from None
        except ApiError:
            raise
        except Exception as exc:
            raise internal(state, exc) from exc

    async def _body(self, receive: Receive, body_deadline: float, deadline: float) -> bytes:
        """The whole body by ``body_deadline`` (408) and ``deadline`` (the request's, 504)
        and within the limit (413)."""
        chunks: list[bytes] = []
        seen = 0
        first = min(body_deadline, deadline)
        while True:
            try:
                async with asyncio.timeout_at(first):
                    message = await receive()
            except TimeoutError:
                if body_deadline <= deadline:
                    raise body_timeout_error(self.body_timeout) from None
                raise
            kind = message["type"]
            if kind == "http.request":
                chunk = message.get("body", b"")
                seen += len(chunk)
                if seen > self.max_bytes:
                    raise too_large(self.max_bytes)
                if chunk:
                    chunks.append(chunk)
                if not message.get("more_body", False):
                    return b"".join(chunks)
            elif kind == "http.disconnect":
                raise ClientDisconnect()


def _error(exc: ApiError) -> Response:
    return error_response(exc.status, exc.code, exc.message, exc.headers)


def _rendered(response: Response) -> Answer:
    return response.status_code, list(response.raw_headers), bytes(response.body)
