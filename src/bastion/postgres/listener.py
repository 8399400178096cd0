"""Cross-host wake-ups: one LISTEN connection per process, in a daemon thread.

A store sends ``pg_notify(CHANNEL, '<kind>:<request id>')`` inside the transaction that
creates or resolves a request; PostgreSQL delivers it to every listening daemon after the
commit. ``resolved`` notifications wake that request's waiters at once; every notification
goes to the registered observers (e.g. a live event feed).

This is the mechanism, not the guarantee: a notification sent while a listener was
reconnecting is lost, so waiters still re-read their request every ``poll_interval``
(1 s) and can never hang past their expiry. The thread reconnects with a back-off when the
database goes away.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable

import psycopg

from bastion.approval.watch import Watchers
from bastion.errors import StoreError
from bastion.postgres.connection import connect

log = logging.getLogger("bastion.postgres")

CHANNEL = "bastion_requests"
CREATED = "created"
RESOLVED = "resolved"
#: How long one wait for notifications blocks before the thread checks whether to stop.
TICK = 0.25
RETRY_MAX = 5.0

Observer = Callable[[str, str], None]  # (kind, request id)


def payload(kind: str, request_id: str) -> str:
    return f"{kind}:{request_id}"


class Listener:
    """LISTENs on :data:`CHANNEL` and fans notifications out to watchers and observers."""

    def __init__(self, url: str, watchers: Watchers) -> None:
        self.url = url
        self.watchers = watchers
        self._observers: list[Observer] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, *, wait: float = 2.0) -> None:
        """Start the thread (once, then wait up to ``wait`` s for its first LISTEN; later
        calls never block, even while it reconnects: the re-check covers that time)."""
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._run, name="bastion-pg-listen", daemon=True)
            self._thread.start()
        self._ready.wait(wait)

    @property
    def listening(self) -> bool:
        return self._ready.is_set()

    def observe(self, observer: Observer) -> Callable[[], None]:
        """Call ``observer(kind, request_id)`` for every notification; returns an undo."""
        with self._lock:
            self._observers.append(observer)

        def undo() -> None:
            with self._lock, contextlib.suppress(ValueError):
                self._observers.remove(observer)

        return undo

    def dispatch(self, message: str) -> None:
        kind, _, request_id = message.partition(":")
        if kind == RESOLVED:
            self.watchers.notify(request_id)
        with self._lock:
            observers = list(self._observers)
        for observer in observers:
            try:
                observer(kind, request_id)
            except Exception as exc:  # an observer's bug must not stop the wake-ups
                log.warning("notification observer failed: %s", exc)

    def _run(self) -> None:
        delay = 0.1
        while not self._stop.is_set():
            try:
                conn = connect(self.url)
            except StoreError as exc:
                log.warning("LISTEN connection failed (retrying): %s", exc)
                self._stop.wait(delay)
                delay = min(delay * 2, RETRY_MAX)
                continue
            try:
                conn.execute(f"LISTEN {CHANNEL}")
                self._ready.set()
                delay = 0.1
                while not self._stop.is_set():
                    for note in conn.notifies(timeout=TICK):
                        self.dispatch(note.payload)
            except psycopg.Error as exc:
                if not self._stop.is_set():
                    log.warning("LISTEN connection lost (reconnecting): %s", exc)
                self._ready.clear()
            finally:
                with contextlib.suppress(Exception):
                    conn.close()

    def close(self) -> None:
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=TICK * 4)
