"""Plain ASGI wrappers: request ids (accepted, sanitised or generated; echoed and logged)
and the body limit (checked while streaming, not trusting Content-Length alone)."""

from __future__ import annotations

import logging
import os
import re
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bastion.adapters.http.errors import error_response, too_large

log = logging.getLogger("bastion.http")

_UNSAFE = re.compile(r"[^A-Za-z0-9._:\-]")
MAX_REQUEST_ID = 128


def sanitise_request_id(value: str | None) -> str:
    """Keep ``[A-Za-z0-9._:-]``, at most 128 characters; generate one when nothing is left."""
    cleaned = _UNSAFE.sub("", value)[:MAX_REQUEST_ID] if value else ""
    return cleaned or random_id()


def random_id() -> str:
    """``uuid.uuid4().hex`` without building the UUID: 16 random bytes with the version (4)
    and variant (RFC 4122) bits set, as 32 hex digits."""
    raw = bytearray(os.urandom(16))
    raw[6] = (raw[6] & 0x0F) | 0x40
    raw[8] = (raw[8] & 0x3F) | 0x80
    return raw.hex()


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def log_request(scope: Scope, rid: str, status: int, started: float) -> None:
    """The one line per request: id, method, path, status, milliseconds, key id."""
    if log.isEnabledFor(logging.INFO):
        log.info(
            "%s %s %s %s %.1fms key=%s",
            rid,
            scope["method"],
            scope["path"],
            status,
            (time.perf_counter() - started) * 1000,
            scope["state"].get("key_id", "-"),
        )


class RequestIdMiddleware:
    """Sets ``request.state.request_id``, echoes ``X-Request-Id`` and logs one line per request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = sanitise_request_id(header(scope, b"x-request-id"))
        state = scope.setdefault("state", {})
        state["request_id"] = rid
        started = time.perf_counter()
        status = 0

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", rid.encode("ascii"))]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            log_request(scope, rid, status, started)


class BodyLimitMiddleware:
    """413 when Content-Length says too much, and again if the streamed body goes past it."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            error = too_large(self.max_bytes)
            await error_response(error.status, error.code, error.message)(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise too_large(self.max_bytes)
            return message

        await self.app(scope, counted, send)  # a declared length is re-checked: clients lie
