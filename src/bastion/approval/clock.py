"""Time as a dependency: the real clock, and a fake one tests drive by hand.

Everything that waits (a parked call) asks the clock, never ``time`` or ``asyncio``
directly, so tests can expire a request without sleeping.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Wall-clock seconds since the epoch (UTC)."""
        ...

    async def wait(self, event: asyncio.Event, timeout: float) -> bool:
        """Wait until ``event`` is set or ``timeout`` seconds pass; True when it was set."""
        ...


class SystemClock:
    """The real clock."""

    def now(self) -> float:
        return time.time()

    async def wait(self, event: asyncio.Event, timeout: float) -> bool:
        if event.is_set():
            return True
        try:
            await asyncio.wait_for(event.wait(), timeout=max(timeout, 0.0))
        except TimeoutError:
            return event.is_set()
        return True


class FakeClock:
    """A clock that only moves when told to; ``wait`` moves it by the full timeout
    unless the event is already set, so a parked call can expire instantly in a test."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock does not go backwards")
        self._now += seconds

    async def wait(self, event: asyncio.Event, timeout: float) -> bool:
        await asyncio.sleep(0)  # let other tasks (an answering coroutine) run first
        if event.is_set():
            return True
        self.advance(max(timeout, 0.0))
        await asyncio.sleep(0)
        return event.is_set()
