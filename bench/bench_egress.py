"""Egress proxy cost: a request through the proxy vs the same request direct, same run.

    .venv/bin/python bench/bench_egress.py [REQUESTS] [MIB]

Loopback only: one threaded HTTP server on 127.0.0.1 stands in for an allowed host (the
proxy's resolver gives ``bench.test`` a public address, its dialer maps that address to
the loopback server). Every proxied connection is decided by a real Gatekeeper (memory
stores) and written to its ledger. Server, proxy and client are three processes, as in
real use (the internet, Bastion, the sandbox), so no two share a GIL. Variants,
interleaved so noise hits all alike:

- direct: TCP to the server
- proxy, plain HTTP: absolute-URI GET on the proxy's Unix socket (forwarded request)
- proxy, CONNECT: a tunnel on the Unix socket, then the GET inside it
- forwarder + proxy: TCP to the in-sandbox forwarder (run on the host here), which
  relays to the Unix socket - the full path a sandboxed client takes

Latency: REQUESTS (default 300) small GETs each, one connection per request, p50/p90 ms.
Throughput: 5 GETs of MIB (default 16) MiB each, MB/s (best of 5).
"""

from __future__ import annotations

import http.server
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from multiprocessing.connection import Connection

from bastion.approval.clock import SystemClock
from bastion.approval.memory import MemoryStore
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.store import MemoryLedgerStore
from bastion.exec.egress import EgressSession, StaticDialer
from bastion.exec.egress.binding import FORWARDER, SOCKET
from bastion.policy.engine import Gate
from bastion.policy.loader import load_policy_text
from bastion.policy.network import StaticResolver
from bastion.runtime import Gatekeeper

ADDRESS = "1.1.1.20"
FORWARD_PORT = 38128


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        size = int(self.path.rsplit("/", 1)[1]) if self.path.startswith("/bytes/") else 2
        self.send_response(200)
        self.send_header("Content-Length", str(size))
        self.send_header("Connection", "close")
        self.end_headers()
        block = b"x" * 65536
        while size > 0:
            self.wfile.write(block[: min(size, len(block))])
            size -= len(block)

    def log_message(self, format: str, *args: object) -> None:
        pass


def fetch(connect: Callable[[], socket.socket], request: bytes, tunnel: bool = False) -> int:
    """Send one request, read to EOF; the body bytes received."""
    with connect() as sock:
        if tunnel:
            sock.sendall(b"CONNECT bench.test:80 HTTP/1.1\r\n\r\n")
            assert sock.recv(39).startswith(b"HTTP/1.1 200")
        sock.sendall(request)
        total = 0
        while chunk := sock.recv(262144):
            total += len(chunk)
    return total


def _serve(ready: Connection) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    ready.send(server.server_address[1])
    server.serve_forever()


def main(requests: int, mib: int) -> None:
    context = multiprocessing.get_context("fork")
    here, there = context.Pipe()
    server = context.Process(target=_serve, args=(there,), daemon=True)
    server.start()
    port = here.recv()
    try:
        _with_proxy(requests, mib, port)
    finally:
        server.kill()
        server.join()


def _with_proxy(requests: int, mib: int, port: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bastion-bench-egress-") as workspace:
        policy = load_policy_text(
            '[network]\nallow_hosts = ["bench.test"]\n', cwd=workspace, env={"HOME": workspace}
        )
        keeper = Gatekeeper(
            Gate(policy),
            store=MemoryStore(),
            clock=SystemClock(),
            ledger=Ledger(MemoryLedgerStore(), hasher=ArgumentHasher(b"k" * 32)),
        )
        egress = EgressSession(
            keeper,
            resolver=StaticResolver({"bench.test": [ADDRESS]}),
            dialer=StaticDialer({(ADDRESS, 80): ("127.0.0.1", port)}),
        )
        with egress:
            assert egress.binding is not None
            measure(requests, mib, port, egress.binding.public_dir)


def measure(requests: int, mib: int, port: int, public: str) -> None:
    sock_path = os.path.join(public, SOCKET)
    forwarder = subprocess.Popen([sys.executable, "-I", "-S", os.path.join(public, FORWARDER), sock_path,
                                  str(FORWARD_PORT), "--", "sleep", "600"])  # fmt: skip
    try:
        _wait_listening(FORWARD_PORT)
        client = multiprocessing.get_context("fork").Process(
            target=run, args=(requests, mib, port, sock_path)
        )
        client.start()
        client.join()
    finally:
        forwarder.kill()
        forwarder.wait()


def _wait_listening(port: int) -> None:
    for _ in range(500):  # bounded: 5 s
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.01)
    raise SystemExit("the forwarder did not start")


def run(requests: int, mib: int, port: int, sock_path: str) -> None:
    def unix() -> socket.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(sock_path)
        return sock

    def direct() -> socket.socket:
        return socket.create_connection(("127.0.0.1", port))

    def forwarded() -> socket.socket:
        return socket.create_connection(("127.0.0.1", FORWARD_PORT))

    def variants(path: str) -> dict[str, Callable[[], int]]:
        origin = f"GET {path} HTTP/1.1\r\nHost: bench.test\r\nConnection: close\r\n\r\n".encode()
        absolute = f"GET http://bench.test{path} HTTP/1.1\r\nHost: bench.test\r\n\r\n".encode()
        return {
            "direct": lambda: fetch(direct, origin),
            "proxy, plain HTTP": lambda: fetch(unix, absolute),
            "proxy, CONNECT": lambda: fetch(unix, origin, tunnel=True),
            "forwarder + proxy": lambda: fetch(forwarded, absolute),
        }

    small = variants("/small")
    latency: dict[str, list[float]] = {name: [] for name in small}
    for call in small.values():
        call()  # warm-up
    for _ in range(requests):
        for name, call in small.items():
            start = time.perf_counter()
            call()
            latency[name].append((time.perf_counter() - start) * 1000)
    size = mib * 1024 * 1024
    big = variants(f"/bytes/{size}")
    rate: dict[str, list[float]] = {name: [] for name in big}
    for _ in range(5):
        for name, call in big.items():
            start = time.perf_counter()
            got = call()
            assert got >= size, (name, got)
            rate[name].append(size / (time.perf_counter() - start) / 1e6)
    base_p50 = statistics.median(latency["direct"])
    base_rate = max(rate["direct"])
    print(
        f"latency: {requests} requests each, new connection per request, ms; "
        f"throughput: best of 5 x {mib} MiB, MB/s"
    )
    print(f"{'variant':<20}{'p50':>8}{'p90':>8}{'x direct':>10}{'MB/s':>10}{'/ direct':>10}")
    for name, samples in latency.items():
        samples.sort()
        p50, p90 = statistics.median(samples), samples[int(len(samples) * 0.9)]
        best = max(rate[name])
        print(
            f"{name:<20}{p50:>8.2f}{p90:>8.2f}{p50 / base_p50:>10.1f}{best:>10.0f}{best / base_rate:>10.2f}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300, int(sys.argv[2]) if len(sys.argv) > 2 else 16)
