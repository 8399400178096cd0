"""Helpers for the second-opinion tests: the checker script and a local HTTP checker."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(__file__).with_name("checker_script.py")


def script(*args: str) -> tuple[str, ...]:
    """The argv of the test checker command."""
    return (sys.executable, str(SCRIPT), *args)


@dataclass
class Endpoint:
    """A real HTTP checker on 127.0.0.1: ``answer(request) -> (status, body)``; every
    request body it received, parsed; ``release`` lets a held answer go."""

    url: str
    answer: Callable[[dict[str, Any]], tuple[int, bytes]]
    received: list[dict[str, Any]] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    state: dict[str, Endpoint] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            point = state["point"]
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length))
            point.received.append(body)
            status, reply = point.answer(body)
            if status == 0:  # hold the answer until the test lets it go
                point.release.wait(30)
                status = 200
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    point = Endpoint(
        f"http://127.0.0.1:{server.server_address[1]}/verdict",
        answer=lambda _: (200, b'{"decision": "allow"}'),
    )
    state["point"] = point
    try:
        yield point
    finally:
        point.release.set()
        server.shutdown()
        server.server_close()
        thread.join(10)
