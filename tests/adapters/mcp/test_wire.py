"""The proxy's own stdio ends: lines written from the event loop reach the pipe whole and in
order, and while it serves, fd 1 points away from the wire (stray output misses it); on
pipes, messages are parsed and written by the serving tasks themselves."""

from __future__ import annotations

import asyncio
import io
import json
import os
import threading

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage

from bastion.adapters.mcp.wire import MessageWriter, PipeLines, PipeWriter, agent_wire


def test_lines_reach_the_pipe_in_order_and_fd_1_is_the_wire_again_after_close() -> None:
    read_end, write_end = os.pipe()
    received: list[bytes] = []

    def read_all() -> None:  # up to the 200th line, not to EOF: a child another test forks
        with os.fdopen(read_end, "rb") as pipe:  # meanwhile may hold fd 1 open
            while b"".join(received).count(b"\n") < 200:
                chunk = pipe.read1(65536)
                if not chunk:
                    return
                received.append(chunk)

    reader = threading.Thread(target=read_all)
    reader.start()  # more than a pipe's buffer is written: someone must read while it is
    saved = os.dup(1)
    os.dup2(write_end, 1)
    os.close(write_end)
    wire = os.fstat(1)
    try:

        async def scenario() -> tuple[bool, bool]:
            writer = await PipeWriter.open(1)
            assert writer is not None
            diverted = os.path.samestat(os.fstat(1), os.fstat(2))
            for n in range(200):
                await writer.write(f'{{"n": {n}, "pad": "{"x" * 500}"}}\n')
                await writer.flush()
            await writer.aclose()
            return diverted, os.path.samestat(os.fstat(1), wire)

        diverted, restored = asyncio.run(scenario())
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    reader.join(timeout=60)
    lines = b"".join(received).decode().splitlines()
    assert (diverted, restored, len(lines), lines[0][:8], lines[-1][:10]) == (
        True,
        True,
        200,
        '{"n": 0,',
        '{"n": 199,',
    )


def test_a_stdout_that_is_a_regular_file_is_left_to_the_sdk(tmp_path: object) -> None:
    path = os.path.join(str(tmp_path), "out.txt")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        assert asyncio.run(PipeWriter.open(fd)) is None
    finally:
        os.close(fd)


def _pipe_wire() -> tuple[int, int, int, int]:
    """Two pipes: (agent writes, proxy reads) and (proxy writes, agent reads)."""
    to_proxy_read, to_proxy_write = os.pipe()
    from_proxy_read, from_proxy_write = os.pipe()
    return to_proxy_read, to_proxy_write, from_proxy_read, from_proxy_write


def test_the_agents_lines_are_parsed_in_order_and_a_malformed_one_is_answered_in_place() -> None:
    to_proxy_read, to_proxy_write, from_proxy_read, from_proxy_write = _pipe_wire()
    os.write(
        to_proxy_write,
        b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}\nnot json\n'
        b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n',
    )
    os.close(to_proxy_write)
    log = io.StringIO()

    async def scenario() -> list[object]:
        lines, out = await PipeLines.open(to_proxy_read), await PipeWriter.open(from_proxy_write)
        assert lines is not None and out is not None
        try:
            async with agent_wire(lines, out, log) as (read_stream, _):
                return [
                    item.message
                    for item in [m async for m in read_stream]
                    if isinstance(item, SessionMessage)
                ]
        finally:
            lines.close()
            await out.aclose()

    try:
        received = asyncio.run(scenario())
        answered = os.read(from_proxy_read, 65536).decode()
    finally:
        for fd in (to_proxy_read, from_proxy_read, from_proxy_write):
            os.close(fd)
    assert [type(m).__name__ for m in received] == ["JSONRPCRequest", "JSONRPCNotification"]
    assert json.loads(answered) == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32700, "message": "Parse error: the line is not valid JSON"},
    }
    assert log.getvalue() == "bastion: answered a malformed message from the agent: " + (
        "Parse error: the line is not valid JSON\n"
    )


def test_messages_are_written_whole_one_line_each_by_the_task_that_sends_them() -> None:
    to_proxy_read, to_proxy_write, from_proxy_read, from_proxy_write = _pipe_wire()

    async def scenario() -> bytes:
        out = await PipeWriter.open(from_proxy_write)
        assert out is not None
        writer = MessageWriter(out)
        for n in range(3):
            await writer.send(SessionMessage(types.JSONRPCResponse(jsonrpc="2.0", id=n, result={"n": n})))
        written = os.read(from_proxy_read, 65536)  # no task to wait for: already in the pipe
        await out.aclose()
        return written

    try:
        written = asyncio.run(scenario())
    finally:
        for fd in (to_proxy_read, to_proxy_write, from_proxy_read, from_proxy_write):
            os.close(fd)
    assert written.decode().splitlines() == [
        '{"jsonrpc":"2.0","id":0,"result":{"n":0}}',
        '{"jsonrpc":"2.0","id":1,"result":{"n":1}}',
        '{"jsonrpc":"2.0","id":2,"result":{"n":2}}',
    ]


def test_a_message_sent_after_the_agent_closed_its_end_is_a_broken_stream_to_the_sdk() -> None:
    to_proxy_read, to_proxy_write, from_proxy_read, from_proxy_write = _pipe_wire()
    os.close(from_proxy_read)  # the agent is gone

    async def scenario() -> str:
        out = await PipeWriter.open(from_proxy_write)
        assert out is not None
        writer = MessageWriter(out)
        message = SessionMessage(types.JSONRPCResponse(jsonrpc="2.0", id=1, result={}))
        try:
            for _ in range(3):  # the first write finds the pipe broken; the loss is seen by then
                await writer.send(message)
                await asyncio.sleep(0)
        except anyio.BrokenResourceError:
            return "broken"
        finally:
            await out.aclose(timeout=1)
        return "sent"

    try:
        assert asyncio.run(scenario()) == "broken"
    finally:
        for fd in (to_proxy_read, to_proxy_write, from_proxy_write):
            os.close(fd)
