"""The self-starting hook daemon: ``python -m bastion.adapters.hooks.autostart``.

An installed hook (``bastion hook AGENT --autostart``) that finds no daemon on
``<state dir>/hooks.sock`` spawns this module detached (see ``client.spawn_daemon``), decides
its own call in process, and every later call goes through the socket. The daemon serves only
the hook socket and ends by itself: after ``BASTION_HOOK_IDLE`` seconds without a call
(default 600), or as soon as its socket is removed or replaced (``bastion serve`` took over,
or the state dir went away). An exclusive ``flock`` on ``<state dir>/hookd.lock`` makes sure
two hooks starting at once leave one daemon. Nothing here can turn a call into an allow: a
daemon that cannot start leaves every call decided in process, and one that dies mid-call is
a deny (see ``client``).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
import sys
import threading
import time
from collections.abc import Mapping
from typing import Any

from bastion.adapters.hooks.client import SOCKET_ENV, socket_path
from bastion.adapters.hooks.daemon import HookServer, ResidentDecider

LOCK_NAME = "hookd.lock"
DEFAULT_IDLE = 600.0


class ActivityServer(HookServer):
    """A hook server that knows when it last had work (and that it is busy while a call is)."""

    def __init__(self, path: str, *, base_env: Mapping[str, str]) -> None:
        super().__init__(path, base_env=base_env)
        self._activity = threading.Lock()
        self._busy = 0
        self._last = time.monotonic()

    def finish_request(self, request: Any, client_address: Any) -> None:
        with self._activity:
            self._busy += 1
        try:
            super().finish_request(request, client_address)
        finally:
            with self._activity:
                self._busy -= 1
                self._last = time.monotonic()

    def idle_for(self, seconds: float) -> bool:
        with self._activity:
            return self._busy == 0 and time.monotonic() - self._last >= seconds


def idle_limit(env: Mapping[str, str]) -> float:
    try:
        value = float(env.get("BASTION_HOOK_IDLE", DEFAULT_IDLE))
    except ValueError:
        return DEFAULT_IDLE
    return value if value > 0 else DEFAULT_IDLE


def _identity(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _answers(path: str) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        try:
            probe.connect(path)
        except OSError:
            return False
    return True


def serve(socket_file: str, env: Mapping[str, str], *, poll: float = 0.5) -> int:
    """Serve the hook socket until idle or displaced. Returns 0, also when another daemon
    holds the lock or something already answers on the socket (nothing to do)."""
    folder = os.path.dirname(socket_file)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    lock = os.open(os.path.join(folder, LOCK_NAME), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return 0  # another daemon is starting or running
        if _answers(socket_file):
            return 0  # `bastion serve` already listens
        server = ActivityServer(socket_file, base_env=env)
        mine = _identity(socket_file)
        threading.Thread(target=server.serve_forever, name="bastion-hookd", daemon=True).start()
        limit = idle_limit(env)
        try:
            while _identity(socket_file) == mine and not server.idle_for(limit):
                time.sleep(poll)
        finally:
            server.shutdown()
            server.server_close()
            if isinstance(server.decider, ResidentDecider):
                server.decider.close()
            if _identity(socket_file) == mine:
                with contextlib.suppress(OSError):
                    os.unlink(socket_file)
    finally:
        os.close(lock)
    return 0


def main() -> int:
    env = dict(os.environ)
    socket_file = env.pop(SOCKET_ENV, "") or socket_path(env)
    os.chdir("/")  # pin no project directory; every request carries its own cwd
    try:
        return serve(socket_file, env)
    except Exception:  # a daemon that cannot run leaves the hooks deciding in process
        return 1


if __name__ == "__main__":
    sys.exit(main())
