"""In-process wake-ups for parked calls: an asyncio.Event per waiter, settable from any thread."""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from collections.abc import Callable


class EventWatch:
    """An asyncio.Event that can be set from any thread."""

    def __init__(self, on_close: Callable[[], None] | None = None) -> None:
        self.event = asyncio.Event()
        try:
            self._loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            self._loop = None
        self._on_close = on_close

    def notify(self) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            self.event.set()
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self.event.set()
        else:
            loop.call_soon_threadsafe(self.event.set)

    def close(self) -> None:
        if self._on_close is not None:
            self._on_close()
            self._on_close = None


class Watchers:
    """Per-request watch registrations shared by the in-process stores."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_id: dict[str, list[EventWatch]] = defaultdict(list)

    def add(self, request_id: str) -> EventWatch:
        watch = EventWatch()
        watch._on_close = lambda: self._remove(request_id, watch)
        with self._lock:
            self._by_id[request_id].append(watch)
        return watch

    def _remove(self, request_id: str, watch: EventWatch) -> None:
        with self._lock:
            items = self._by_id.get(request_id, [])
            if watch in items:
                items.remove(watch)
            if not items:
                self._by_id.pop(request_id, None)

    def notify(self, request_id: str) -> None:
        with self._lock:
            items = list(self._by_id.get(request_id, []))
        for watch in items:
            watch.notify()
