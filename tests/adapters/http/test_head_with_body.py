"""``HeadWithBody``: a response's head leaves in one write with its body, and nothing is held
past the loop turn or a close."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, cast

from bastion.adapters.http.protocol import HeadWithBody

HEAD = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n"


class FakeTransport:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False
        self.eof = False

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def write_eof(self) -> None:
        self.eof = True

    def get_write_buffer_size(self) -> int:
        return 7

    def get_extra_info(self, name: str) -> str:
        return f"info:{name}"


class FakeLoop:
    def __init__(self) -> None:
        self.soon: list[Callable[[], None]] = []

    def call_soon(self, callback: Callable[[], None]) -> None:
        self.soon.append(callback)

    def end_turn(self) -> None:
        callbacks, self.soon = self.soon, []
        for callback in callbacks:
            callback()


def _wrapped() -> tuple[HeadWithBody, FakeTransport, FakeLoop]:
    transport, loop = FakeTransport(), FakeLoop()
    wrapper = HeadWithBody(cast(asyncio.Transport, transport), cast(asyncio.AbstractEventLoop, loop))
    return wrapper, transport, loop


def test_a_head_and_its_body_leave_in_one_write_and_the_empty_end_writes_nothing() -> None:
    wrapper, transport, loop = _wrapped()
    wrapper.write(HEAD)
    assert transport.writes == []
    wrapper.write(b"{}")
    wrapper.write(b"")  # h11's end of a Content-Length message
    loop.end_turn()
    assert transport.writes == [HEAD + b"{}"]


def test_a_head_without_a_body_in_the_same_turn_leaves_at_the_end_of_the_turn() -> None:
    wrapper, transport, loop = _wrapped()
    wrapper.write(HEAD)
    loop.end_turn()
    assert transport.writes == [HEAD]
    wrapper.write(b"data: 1\n\n")  # a streamed chunk later goes straight out
    assert transport.writes == [HEAD, b"data: 1\n\n"]


def test_body_bytes_with_no_head_held_are_written_at_once_in_order() -> None:
    wrapper, transport, _ = _wrapped()
    wrapper.write(b"a")
    wrapper.writelines([b"b", memoryview(b"c")])
    assert transport.writes == [b"a", b"b", b"c"]


def test_close_and_write_eof_send_a_held_head_first() -> None:
    wrapper, transport, loop = _wrapped()
    wrapper.write(HEAD)
    wrapper.close()
    assert (transport.writes, transport.closed) == ([HEAD], True)
    loop.end_turn()  # the turn's flush finds nothing left, and a closed transport
    assert transport.writes == [HEAD]
    other, transport2, _ = _wrapped()
    other.write(HEAD)
    other.write_eof()
    assert (transport2.writes, transport2.eof) == ([HEAD], True)


def test_a_head_held_when_the_connection_closed_underneath_is_dropped_not_written() -> None:
    wrapper, transport, loop = _wrapped()
    wrapper.write(HEAD)
    transport.closed = True
    loop.end_turn()
    assert transport.writes == []


def test_the_buffer_size_counts_a_held_head_and_other_attributes_are_the_transports() -> None:
    wrapper, _, _ = _wrapped()
    wrapper.write(HEAD)
    assert wrapper.get_write_buffer_size() == 7 + len(HEAD)
    assert cast(Any, wrapper).get_extra_info("peername") == "info:peername"
