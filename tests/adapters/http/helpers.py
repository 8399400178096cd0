"""A real gateway on a loopback port: uvicorn in a thread, keys of every role, httpx clients."""

from __future__ import annotations

import json
import queue
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import uvicorn

from bastion.adapters.http.timeouts import server_config

T = TypeVar("T")

#: A policy where ``make deploy …`` asks (a rule) and ``git status`` is allowed.
ASK_POLICY = """
[approval]
ttl = "5m"

[[rule]]
tool = "shell"
pattern = "make deploy *"
action = "ask"
reason = "deploys need a person"
"""


@dataclass
class Gateway:
    url: str
    keys: dict[str, str]  # role name (and "approver2") -> key
    key_ids: dict[str, str]
    env: dict[str, str]
    policy_file: Path
    workspace: Path
    server: uvicorn.Server
    thread: threading.Thread
    clients: list[httpx.Client] = field(default_factory=list)

    def client(self, role: str | None = None, **headers: str) -> httpx.Client:
        extra = {"X-API-Key": self.keys[role]} if role else {}
        client = httpx.Client(base_url=self.url, headers={**extra, **headers}, timeout=30)
        self.clients.append(client)
        return client

    def stop(self) -> None:
        for client in self.clients:
            client.close()
        self.server.should_exit = True
        self.thread.join(timeout=15)


def free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    return sock


def start(
    app: object, sock: socket.socket, *, head_timeout: float = 10.0, parser: str = "auto"
) -> tuple[uvicorn.Server, threading.Thread]:
    # The same uvicorn config as ``bastion serve`` (read timeouts included).
    config = server_config(
        app,
        head_timeout=head_timeout,
        parser=parser,
        log_config=None,  # type: ignore[arg-type]
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the gateway did not start")
        time.sleep(0.02)
    return server, thread


def shell(command: str, **extra: object) -> dict[str, object]:
    return {"tool": "shell", "args": {"command": command}, **extra}


def eventually(probe: Callable[[], T | None], *, timeout: float = 15.0, every: float = 0.05) -> T:
    """Poll until ``probe`` returns something; fail (never hang) after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        found = probe()
        if found is not None:
            return found
        if time.monotonic() > deadline:
            raise AssertionError("the condition never became true")
        time.sleep(every)


class EventReader:
    """Reads ``GET /v1/events`` in a thread; ``wait_for`` returns the first matching event."""

    def __init__(self, client: httpx.Client) -> None:
        self.events: queue.Queue[tuple[str, dict[str, Any]]] = queue.Queue()
        self.seen: list[tuple[str, dict[str, Any]]] = []
        self._client = client
        self._open = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        if not self._open.wait(15):
            raise AssertionError("the event stream did not open")

    def _read(self) -> None:
        kind = ""
        try:
            with self._client.stream("GET", "/v1/events", timeout=None) as response:
                self.status = response.status_code
                self.content_type = response.headers.get("content-type", "")
                self._open.set()
                for line in response.iter_lines():
                    if line.startswith("event: "):
                        kind = line[7:]
                    elif line.startswith("data: "):
                        self.events.put((kind, json.loads(line[6:])))
        except httpx.HTTPError:
            return

    def wait_for(self, kind: str, request_id: str, timeout: float = 15.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            for seen_kind, data in self.seen:
                if seen_kind == kind and data.get("id") == request_id:
                    return data
            try:
                self.seen.append(self.events.get(timeout=max(deadline - time.monotonic(), 0.01)))
            except queue.Empty:
                raise AssertionError(f"no {kind!r} event for {request_id}") from None
