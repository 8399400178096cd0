"""The proxy's own stdio ends: lines written from the event loop reach the pipe whole and in
order, and while it serves, fd 1 points away from the wire (stray output misses it)."""

from __future__ import annotations

import asyncio
import os
import threading

from bastion.adapters.mcp.wire import PipeWriter


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
