"""Cross-process wake-ups for parked calls on the SQLite store, without polling.

Every process that has a parked call binds a Unix datagram socket in ``<state dir>/wake/``
(0700, like the state dir). Whoever resolves a request (the approvals page in the daemon,
``bastion approvals approve`` in a terminal) sends the request id to every socket there once
its answer is committed; the waiter's listener thread wakes the waiting task at once, which
then re-reads the row. A wake-up carries no authority (the row is the truth), so a lost or
spurious one only costs a poll: the store's polling stays as the fallback (for instance when
the folder's path is too long for a socket address, or on a file system without sockets).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import threading
from collections.abc import Callable

#: sun_path holds 108 bytes on Linux (104 on macOS); longer paths fall back to polling.
MAX_SOCKET_PATH = 100
MAX_MESSAGE = 512


class WakeBus:
    def __init__(self, folder: str, on_wake: Callable[[str], None]) -> None:
        self.folder = folder
        self._on_wake = on_wake
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._path: str | None = None
        self._closed = False

    @property
    def listening(self) -> bool:
        return self._sock is not None

    def listen(self) -> bool:
        """Bind this process's socket (once) and start its listener; False when unavailable."""
        with self._lock:
            if self._sock is not None or self._closed:
                return self._sock is not None
            path = os.path.join(self.folder, f"{os.getpid()}-{secrets.token_hex(4)}.sock")
            if len(os.fsencode(path)) > MAX_SOCKET_PATH:
                return False
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            try:
                os.makedirs(self.folder, mode=0o700, exist_ok=True)
                old = os.umask(0o177)
                try:
                    sock.bind(path)
                finally:
                    os.umask(old)
            except OSError:
                sock.close()
                return False
            self._sock, self._path = sock, path
        threading.Thread(target=self._receive, args=(sock,), name="bastion-wake", daemon=True).start()
        return True

    def _receive(self, sock: socket.socket) -> None:
        while True:
            try:
                data = sock.recv(MAX_MESSAGE)
            except OSError:
                return
            if self._closed:
                return
            with contextlib.suppress(Exception):  # a bad message never stops the listener
                self._on_wake(data.decode("utf-8", "replace"))

    def send(self, request_id: str) -> int:
        """Tell every listening process that ``request_id`` changed; returns how many were
        told. Sockets of processes that are gone are removed."""
        message = request_id.encode("utf-8")[:MAX_MESSAGE]
        told = 0
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return 0
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as out:
            out.setblocking(False)
            for entry in entries:
                if not entry.name.endswith(".sock") or entry.path == self._path:
                    continue
                try:
                    out.sendto(message, entry.path)
                    told += 1
                except (ConnectionRefusedError, FileNotFoundError):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)  # its process is gone
                except OSError:
                    continue  # full or unreachable: that waiter still polls
        return told

    def close(self) -> None:
        with self._lock:
            self._closed = True
            sock, path = self._sock, self._path
            self._sock = self._path = None
        if sock is None or path is None:
            return
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as poke:
            poke.sendto(b"", path)  # unblock the listener's recv
        sock.close()
        with contextlib.suppress(OSError):
            os.unlink(path)
