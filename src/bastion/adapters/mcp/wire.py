"""The proxy's stdio ends, and what the agent sends that is not JSON-RPC.

The SDK's stdio transport hands a line it cannot parse to the server as an exception, and
the server drops it without a word: a client that sent a broken line would wait forever
for an answer. :class:`AnsweringMalformed` answers such a line as JSON-RPC 2.0 says —
``-32700`` for text that is not JSON, ``-32600`` for JSON that is not a JSON-RPC message,
``"id": null`` — and notes it on stderr.

On pipes, :func:`agent_wire` carries the proxy's messages without the SDK's stdio tasks:
each line is parsed by the task that asks for the next message, and each message written
by the task that sends it (the SDK's own parser and serialiser, as its stdio transport
calls them). The SDK passes every message between a reader or writer task and the server
through a memory stream; with the filter's own task that was three task switches per
``tools/call`` on the event loop, a good part of what the proxy adds to a call.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Self, TextIO, cast

import anyio
import mcp_types as types
from mcp.server.stdio import stdio_server
from mcp.shared._stream_protocols import ReadStream, WriteStream
from mcp.shared.message import SessionMessage
from pydantic import ValidationError


def error_for(exc: Exception) -> types.ErrorData:
    if not isinstance(exc, ValidationError) or any(e["type"] == "json_invalid" for e in exc.errors()):
        return types.ErrorData(code=types.PARSE_ERROR, message="Parse error: the line is not valid JSON")
    return types.ErrorData(
        code=types.INVALID_REQUEST, message="Invalid Request: the line is not a JSON-RPC 2.0 message"
    )


class _Stream:
    """The async context of the SDK's streams: leaving it closes the stream."""

    async def aclose(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class _Receiving(_Stream):
    """A read stream: iterating it receives until the end of the stream."""

    async def receive(self) -> SessionMessage | Exception:
        raise NotImplementedError

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None


class AnsweringMalformed(_Receiving):
    """A read stream that answers the exceptions of ``inner`` (lines that are not JSON-RPC)
    on ``write_stream`` and yields only messages; filtered as the server asks for the
    next message, so no task stands between them."""

    def __init__(
        self,
        inner: ReadStream[SessionMessage | Exception],
        write_stream: WriteStream[SessionMessage],
        log: TextIO,
    ) -> None:
        self.inner = inner
        self.write_stream = write_stream
        self.log = log

    async def receive(self) -> SessionMessage | Exception:
        while True:
            item = await self.inner.receive()
            if not isinstance(item, Exception):
                return item
            error = error_for(item)
            self.log.write(f"bastion: answered a malformed message from the agent: {error.message}\n")
            reply = types.JSONRPCError(jsonrpc="2.0", id=None, error=error)
            try:
                await self.write_stream.send(SessionMessage(reply))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                raise anyio.EndOfStream from None  # the server stopped serving: nothing left to pass on

    async def aclose(self) -> None:
        """``inner`` is left to whoever opened it: the SDK's stdio reader still sending into
        a closed stream would fail its task group."""


@asynccontextmanager
async def answering_malformed(
    read_stream: ReadStream[SessionMessage | Exception],
    write_stream: WriteStream[SessionMessage],
    log: TextIO,
) -> AsyncIterator[ReadStream[SessionMessage | Exception]]:
    """``read_stream`` without its malformed lines, each answered (see the module docstring)."""
    yield AnsweringMalformed(read_stream, write_stream, log)


#: The longest line (one JSON-RPC message) read from the agent.
MAX_LINE = 64 * 1024 * 1024


class PipeLines:
    """Lines from a pipe on the event loop itself, so cancelling a read is immediate.

    The SDK reads stdin in a worker thread, which a signal cannot interrupt: a proxy told
    to stop would wait for the agent's next line before it could reap its upstream.
    """

    def __init__(self, reader: asyncio.StreamReader, transport: asyncio.ReadTransport) -> None:
        self.reader = reader
        self.transport = transport

    @classmethod
    async def open(cls, fd: int = 0) -> PipeLines | None:
        """None when ``fd`` is not a pipe, socket or terminal (then the SDK reads it)."""
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=MAX_LINE)
        pipe = os.fdopen(os.dup(fd), "rb", buffering=0)
        try:
            transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), pipe)
        except ValueError:
            pipe.close()
            return None
        return cls(reader, transport)

    def __aiter__(self) -> PipeLines:
        return self

    async def __anext__(self) -> str:
        line = await self.reader.readline()
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")

    def close(self) -> None:
        self.transport.close()


class _WritePipe(asyncio.streams.FlowControlMixin):
    """Flow control (``drain``) and a close waiter, which the bare mixin lacks."""

    def __init__(self) -> None:
        super().__init__()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if not self.closed.done():
            self.closed.set_result(None)

    def _get_close_waiter(self, stream: asyncio.StreamWriter) -> asyncio.Future[None]:
        return self.closed


class PipeWriter:
    """Lines to a pipe from the event loop itself: the SDK writes stdout through a worker
    thread, two thread hops (write, flush) per message, a good part of what the proxy adds
    to a call on a busy machine. Like the SDK, it keeps the wire to itself: fd 1 points at
    stderr while serving (stray output of the proxy's code misses the wire) and is put
    back by :meth:`close`."""

    def __init__(self, writer: asyncio.StreamWriter, fd: int, wire: int) -> None:
        self.writer = writer
        self.fd = fd
        self.wire = wire

    @classmethod
    async def open(cls, fd: int = 1) -> PipeWriter | None:
        """None when ``fd`` is not a pipe, socket or terminal (then the SDK writes it)."""
        import fcntl

        loop = asyncio.get_running_loop()
        wire = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
        pipe = os.fdopen(os.dup(wire), "wb", buffering=0)
        try:
            transport, protocol = await loop.connect_write_pipe(_WritePipe, pipe)
        except ValueError:
            pipe.close()
            os.close(wire)
            return None
        os.dup2(2, fd)
        return cls(asyncio.StreamWriter(transport, protocol, None, loop), fd, wire)

    async def write(self, text: str) -> None:
        self.writer.write(text.encode("utf-8"))  # written at once; buffered only if the pipe is full

    async def flush(self) -> None:
        await self.writer.drain()

    async def aclose(self, timeout: float = 5.0) -> None:
        """Deliver what is still buffered (an agent that stopped reading gets ``timeout``
        seconds), close the pipe and point fd 1 back at the wire."""
        self.writer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer.wait_closed(), timeout)
        with contextlib.suppress(OSError):
            os.dup2(self.wire, self.fd)
        with contextlib.suppress(OSError):
            os.close(self.wire)


class MessageLines(_Receiving):
    """The agent's JSON-RPC messages, one per line of ``lines``, parsed when the server asks
    for the next one; a line that does not parse is passed on as its exception (as the
    SDK's stdio transport does, with the same parser)."""

    def __init__(self, lines: PipeLines) -> None:
        self.lines = lines

    async def receive(self) -> SessionMessage | Exception:
        try:
            line = await self.lines.__anext__()
        except StopAsyncIteration:
            raise anyio.EndOfStream from None
        try:
            message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except Exception as exc:
            return exc
        return SessionMessage(message)

    async def aclose(self) -> None:
        """The pipe is closed by whoever opened it (:func:`bastion.adapters.mcp.proxy.run_proxy`)."""


class MessageWriter(_Stream):
    """Messages to the agent, one line each, written by the task that sends them (whole
    lines: nothing awaits between serialising and writing one). The pipe's end is a
    closed stream to the SDK (``BrokenResourceError``), never a crash of the server."""

    def __init__(self, out: PipeWriter) -> None:
        self.out = out
        self._closed = False

    async def send(self, item: SessionMessage) -> None:
        if self._closed:
            raise anyio.ClosedResourceError
        text = item.message.model_dump_json(by_alias=True, exclude_unset=True)
        try:
            await self.out.write(text + "\n")
            await self.out.flush()
        except ConnectionError as exc:  # the agent closed its end
            raise anyio.BrokenResourceError from exc

    async def aclose(self) -> None:
        """Nothing more is sent; the pipe is closed by whoever opened it."""
        self._closed = True


Wire = tuple[ReadStream[SessionMessage | Exception], WriteStream[SessionMessage]]


@asynccontextmanager
async def agent_wire(lines: PipeLines | None, out: PipeWriter | None, log: TextIO) -> AsyncIterator[Wire]:
    """The server's streams to and from the agent, malformed lines answered: on the pipes
    themselves when both ends are pipes, else through the SDK's stdio transport (which
    then reads or writes the end that is not a pipe)."""
    if lines is not None and out is not None:
        writer = MessageWriter(out)
        yield AnsweringMalformed(MessageLines(lines), writer, log), writer
        return
    stdin = cast("anyio.AsyncFile[str] | None", lines)  # it only needs async lines
    stdout = cast("anyio.AsyncFile[str] | None", out)  # and write + flush
    async with (
        stdio_server(stdin=stdin, stdout=stdout) as (raw, write_stream),
        answering_malformed(raw, write_stream, log) as read_stream,
    ):
        yield read_stream, write_stream
