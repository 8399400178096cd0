"""Cross-process wake-ups: an answer given in another process wakes the parked call without
waiting for a poll; a lost wake-up only costs a poll."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import tempfile
import threading
from pathlib import Path

import pytest

from bastion.approval.clock import SystemClock
from bastion.approval.queue import ApprovalQueue
from bastion.approval.sqlite import SqliteStore
from bastion.approval.state import RequestState
from bastion.approval.wake import WakeBus

from .conftest import MakeRequest


@pytest.fixture
def short_dir() -> str:
    """Socket addresses hold ~100 bytes: pytest's tmp paths can be longer."""
    with tempfile.TemporaryDirectory(prefix="bw-", dir="/tmp") as folder:
        yield folder


def test_a_wake_sent_by_one_bus_reaches_every_other_listening_bus(short_dir: str) -> None:
    got: list[str] = []
    arrived = threading.Event()

    def hear(request_id: str) -> None:
        got.append(request_id)
        arrived.set()

    listener, sender = WakeBus(short_dir, hear), WakeBus(short_dir, lambda _: None)
    try:
        assert listener.listen() is True
        assert sender.send("req-1") == 1
        assert arrived.wait(10)
        assert got == ["req-1"]
    finally:
        listener.close()
        sender.close()
    assert os.listdir(short_dir) == []  # the listener removed its socket


def test_a_bus_never_wakes_itself_and_removes_sockets_of_processes_that_are_gone(short_dir: str) -> None:
    import socket

    stale = os.path.join(short_dir, "999999-dead.sock")
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    dead.bind(stale)
    dead.close()  # bound, then its process "died": the file stays, nobody reads it
    bus = WakeBus(short_dir, lambda _: pytest.fail("woke itself"))
    try:
        assert bus.listen() is True
        assert bus.send("req-1") == 0
        assert not os.path.exists(stale)
    finally:
        bus.close()


def test_a_folder_too_long_for_a_socket_address_falls_back_to_polling(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 120)
    bus = WakeBus(str(deep), lambda _: None)
    assert bus.listen() is False
    assert bus.send("x") == 0
    bus.close()


def _approve_later(path: str, request_id: str) -> None:
    store = SqliteStore(path)
    try:
        ApprovalQueue(store, SystemClock()).answer(request_id, approve=True, approver="local:test")
    finally:
        store.close()


def test_an_answer_from_another_process_wakes_a_waiter_that_would_otherwise_poll_for_an_hour(
    short_dir: str, make_request: MakeRequest
) -> None:
    path = os.path.join(short_dir, "b.db")
    store = SqliteStore(path)
    store.poll_interval = 3600.0  # only the wake-up can end this wait within the test
    clock = SystemClock()
    queue = ApprovalQueue(store, clock)
    request = make_request(created=clock.now(), ttl=7200.0)

    async def park_and_answer() -> RequestState:
        watch = queue.submit(request)
        waiter = asyncio.ensure_future(queue.wait(request.id, request.expires, watch))
        await asyncio.sleep(0.05)  # let the waiter read the row once and start waiting
        assert not waiter.done() and any(
            n.endswith(".sock") for n in os.listdir(os.path.join(short_dir, "wake"))
        )
        other = multiprocessing.get_context("spawn").Process(target=_approve_later, args=(path, request.id))
        other.start()
        try:
            done = await asyncio.wait_for(waiter, timeout=60)
        finally:
            other.join(30)
        return done.state

    try:
        assert asyncio.run(park_and_answer()) is RequestState.APPROVED_ONCE
    finally:
        store.close()
