"""Read timeouts for the gateway: no client holds a connection by sending slowly.

uvicorn's h11 protocol times out only an idle keep-alive connection, and any byte received
cancels that timer: a client that connects and sends nothing, or drips a request head one
byte at a time (slowloris), keeps its connection forever. A request body has no read
timeout at all. Here: the request head must be complete within ``head_timeout`` of the
connection (or of the previous response), and the body within ``body_timeout`` of the head.
"""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from bastion.adapters.http.errors import ApiError

#: Seconds for a complete request head (line and headers).
HEAD_TIMEOUT = 10.0
#: Seconds for the whole request body once the head is in.
BODY_TIMEOUT = 30.0
#: Seconds an idle keep-alive connection stays open.
KEEP_ALIVE = 5
#: Largest request head h11 buffers (bytes) before answering 400.
MAX_HEAD_BYTES = 16 * 1024


class _HeadDeadline(H11Protocol):
    """H11 with a deadline for each request head; the connection closes when it passes.
    A response's head leaves with its body (``HeadWithBody``)."""

    head_timeout = HEAD_TIMEOUT

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.transport = HeadWithBody(transport, self.loop)  # type: ignore[assignment]
        self._waiting_for: object = None
        self._head_timer: asyncio.TimerHandle | None = None
        self._arm(None)

    def _arm(self, waiting_for: object) -> None:
        self._disarm()
        self._waiting_for = waiting_for  # a cycle other than this one means a head arrived
        self._head_timer = self.loop.call_later(self.head_timeout, self._expired)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _expired(self) -> None:
        self._head_timer = None
        idle = self.cycle is None or self.cycle.response_complete
        if self.cycle is self._waiting_for and idle and not self.transport.is_closing():
            self.transport.close()  # no complete head in time: free the connection

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._head_timer is not None and self.cycle is not self._waiting_for:
            self._disarm()

    def on_response_complete(self) -> None:
        finished = self.cycle
        super().on_response_complete()  # may already start a pipelined request
        if not self.transport.is_closing() and self.cycle is finished:
            self._arm(finished)  # the next head (keep-alive) gets its own deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


class HeadWithBody:
    """A transport that sends a response's head together with the first body bytes.

    uvicorn writes a response's head and its body as two ``write`` calls, and each becomes
    its own ``send`` on the socket (the loop's transport writes at once when its buffer is
    empty): on a loopback benchmark that was half the server's time. Here a head (h11 starts
    every one with ``HTTP/``) is held until the next write, and sent with it in one call.
    A head with no body in the same loop turn (a stream that has nothing yet) goes out at
    the end of the turn, and before a ``close``: nothing is held longer."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._head = b""

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not data:
            return
        if self._head:
            head, self._head = self._head, b""
            self._transport.write(head + bytes(data))
        elif bytes(data[:5]) == b"HTTP/":
            self._head = bytes(data)
            self._loop.call_soon(self.flush)
        else:
            self._transport.write(data)

    def writelines(self, lines: Any) -> None:
        for data in lines:
            self.write(data)

    def flush(self) -> None:
        head, self._head = self._head, b""
        if head and not self._transport.is_closing():
            self._transport.write(head)

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def write_eof(self) -> None:
        self.flush()
        self._transport.write_eof()

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + len(self._head)

    def __getattr__(self, name: str) -> Any:  # the rest is the real transport's
        return getattr(self._transport, name)


def head_deadline_protocol(seconds: float) -> type[asyncio.Protocol]:
    return type("HeadDeadlineProtocol", (_HeadDeadline,), {"head_timeout": seconds})


def server_config(app: ASGIApp, *, head_timeout: float = HEAD_TIMEOUT, **options: Any) -> uvicorn.Config:
    """The uvicorn config every gateway runs with (``bastion serve`` and the tests)."""
    options.setdefault("timeout_keep_alive", KEEP_ALIVE)
    options.setdefault("h11_max_incomplete_event_size", MAX_HEAD_BYTES)
    return uvicorn.Config(app, http=head_deadline_protocol(head_timeout), **options)


class BodyTimeoutMiddleware:
    """408 when the request body is not complete within ``seconds`` of the head. Only the
    body is timed: a later ``receive`` (waiting for a disconnect, as SSE does) is not."""

    def __init__(self, app: ASGIApp, seconds: float = BODY_TIMEOUT) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.seconds
        complete = False

        async def timed() -> Message:
            nonlocal complete
            if complete:
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise ApiError(
                    408, "body_timeout", f"the request body took longer than {self.seconds:g} s"
                ) from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                complete = True
            return message

        await self.app(scope, timed, send)
