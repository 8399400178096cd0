"""The gateway's HTTP/1.1 protocol: uvicorn's, with a deadline for every request head, a cap
on its size, and a response's head sent in one write with its body.

uvicorn times out only an idle keep-alive connection, and any byte received cancels that
timer: a client that connects and sends nothing, or drips a request head one byte at a time
(slowloris), would keep its connection forever. Here the head must be complete within
``head_timeout`` of the connection (or of the previous response). The parser is httptools
(llhttp, Node's parser; uvicorn's choice when it is installed) or, without it, h11.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

from uvicorn.protocols.http.h11_impl import H11Protocol

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - uvicorn[standard] brings httptools on CPython
    HttpToolsProtocol = None  # type: ignore[assignment,misc]

#: Seconds for a complete request head (line and headers).
HEAD_TIMEOUT = 10.0
#: Largest request head (bytes) buffered before answering 400.
MAX_HEAD_BYTES = 16 * 1024
#: A timer that fires this close to its time counts as on time (the loop's clock resolution).
_EARLY = 0.001


class HeadWithBody:
    """A transport that sends a response's head together with the first body bytes.

    uvicorn writes a response's head and its body as two ``write`` calls, and each becomes
    its own ``send`` on the socket (the loop's transport writes at once when its buffer is
    empty). Here a head (every one starts with ``HTTP/``) is held until the next write, and
    sent with it in one call. A head with no body in the same loop turn (a stream that has
    nothing yet) goes out at the end of the turn, and before a ``close``: nothing is held
    longer."""

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


class _Deadlines:
    """The head deadline, for either parser: the connection closes when it passes. ``cycle``,
    ``transport``, ``loop`` and the hooks below are uvicorn's (the same in both protocols)."""

    head_timeout = HEAD_TIMEOUT
    cycle: Any
    transport: Any
    loop: asyncio.AbstractEventLoop

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self.transport = HeadWithBody(cast(asyncio.Transport, transport), self.loop)
        self._waiting_for: object = None
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_due: float | None = None
        self._arm(None)

    def _arm(self, waiting_for: object) -> None:
        """The next head is due ``head_timeout`` from now. One timer per connection, not one
        per request: a timer already set (for an earlier time) looks again when it fires."""
        self._waiting_for = waiting_for  # a cycle other than this one means a head arrived
        self._head_due = self.loop.time() + self.head_timeout
        if self._head_timer is None:
            self._head_timer = self.loop.call_at(self._head_due, self._expired)

    def _disarm(self) -> None:
        self._head_due = None  # a pending timer finds nothing due

    def _expired(self) -> None:
        self._head_timer = None
        due = self._head_due
        if due is None:
            return
        if due - self.loop.time() > _EARLY:  # armed again since: wait for the new time
            self._head_timer = self.loop.call_at(due, self._expired)
            return
        self._head_due = None
        idle = self.cycle is None or self.cycle.response_complete
        if self.cycle is self._waiting_for and idle and not self.transport.is_closing():
            self.transport.close()  # no complete head in time: free the connection

    def data_received(self, data: bytes) -> None:
        super().data_received(data)  # type: ignore[misc]
        if self._head_due is not None and self.cycle is not self._waiting_for:
            self._disarm()

    def on_response_complete(self) -> None:
        finished = self.cycle
        super().on_response_complete()  # type: ignore[misc]  # may start a pipelined request
        if not self.transport.is_closing() and self.cycle is finished:
            self._arm(finished)  # the next head (keep-alive) gets its own deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_due = None
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        super().connection_lost(exc)  # type: ignore[misc]


class _H11Deadline(_Deadlines, H11Protocol):
    """h11 caps the head itself (``h11_max_incomplete_event_size``, set by the config)."""


def _httptools_deadline() -> type[asyncio.Protocol] | None:
    if HttpToolsProtocol is None:  # pragma: no cover
        return None

    class _HttpToolsDeadline(_Deadlines, HttpToolsProtocol):
        """llhttp has no head cap: the bytes read while a head is incomplete are counted."""

        _awaiting_head = True
        _head_bytes = 0

        def data_received(self, data: bytes) -> None:
            if self._awaiting_head:
                self._head_bytes += len(data)
            super().data_received(data)
            if self._awaiting_head and self._head_bytes > MAX_HEAD_BYTES and not self.transport.is_closing():
                self.send_400_response("Request head too large.")

        def on_headers_complete(self) -> None:
            self._awaiting_head, self._head_bytes = False, 0
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._awaiting_head, self._head_bytes = True, 0  # the next bytes start a new head

    return _HttpToolsDeadline


_HTTPTOOLS = _httptools_deadline()


def head_deadline_protocol(seconds: float, *, parser: str = "auto") -> type[asyncio.Protocol]:
    """The protocol class, with a head deadline of ``seconds``; ``parser`` ``auto`` (httptools
    when installed), ``httptools`` or ``h11``."""
    if parser not in ("auto", "httptools", "h11"):
        raise ValueError(f"unknown HTTP parser {parser!r}")
    base: type[asyncio.Protocol] = _H11Deadline
    if parser != "h11" and _HTTPTOOLS is not None:
        base = _HTTPTOOLS
    elif parser == "httptools":  # pragma: no cover
        raise ValueError("httptools is not installed")
    return type("HeadDeadlineProtocol", (base,), {"head_timeout": seconds})
