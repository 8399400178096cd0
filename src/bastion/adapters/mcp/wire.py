"""What the agent sends that is not JSON-RPC gets a JSON-RPC error back, and serving goes on.

The SDK's stdio transport hands a line it cannot parse to the server as an exception, and
the server drops it without a word: a client that sent a broken line would wait forever
for an answer. This filter answers such a line as JSON-RPC 2.0 says — ``-32700`` for text
that is not JSON, ``-32600`` for JSON that is not a JSON-RPC message, ``"id": null`` — and
notes it on stderr.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TextIO

import anyio
import mcp_types as types
from mcp.shared._stream_protocols import ReadStream, WriteStream
from mcp.shared.message import SessionMessage
from pydantic import ValidationError


def error_for(exc: Exception) -> types.ErrorData:
    if not isinstance(exc, ValidationError) or any(e["type"] == "json_invalid" for e in exc.errors()):
        return types.ErrorData(code=types.PARSE_ERROR, message="Parse error: the line is not valid JSON")
    return types.ErrorData(
        code=types.INVALID_REQUEST, message="Invalid Request: the line is not a JSON-RPC 2.0 message"
    )


@asynccontextmanager
async def answering_malformed(
    read_stream: ReadStream[SessionMessage | Exception],
    write_stream: WriteStream[SessionMessage],
    log: TextIO,
) -> AsyncIterator[ReadStream[SessionMessage | Exception]]:
    send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)

    async def pump() -> None:
        try:
            async with send:
                async for item in read_stream:
                    if isinstance(item, Exception):
                        error = error_for(item)
                        log.write(f"bastion: answered a malformed message from the agent: {error.message}\n")
                        reply = types.JSONRPCError(jsonrpc="2.0", id=None, error=error)
                        await write_stream.send(SessionMessage(reply))
                        continue
                    await send.send(item)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            return  # the server stopped serving: nothing left to pass on

    async with anyio.create_task_group() as tg:
        tg.start_soon(pump)
        yield receive
        tg.cancel_scope.cancel()


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
