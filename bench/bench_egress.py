"""Egress proxy cost: a request through the proxy vs the same request direct, same run.

    .venv/bin/python bench/bench_egress.py [REQUESTS] [MIB]

Loopback only: an HTTP server and an HTTPS server on 127.0.0.1 stand in for the hosts (the
proxy's resolver gives ``bench.test`` and ``held.test`` public addresses, its dialer maps
those to the loopback servers). Every proxied connection is decided by a real Gatekeeper
(memory stores) and written to its ledger. Server, proxy and client are three processes,
as in real use (the internet, Bastion, the sandbox), so no two share a GIL.

Plain HTTP:
- direct: TCP to the server
- proxy, plain HTTP: absolute-URI GET on the proxy's Unix socket (forwarded request)
- proxy, CONNECT: a tunnel on the Unix socket, then the GET inside it
- forwarder + proxy: TCP to the in-sandbox forwarder (run on the host here), which
  relays to the Unix socket - the full path a sandboxed client takes
HTTPS:
- direct TLS: TLS to the HTTPS server
- CONNECT, TLS end to end: the client's TLS inside a blind tunnel
- held host, intercepted: the proxy terminates the client's TLS with the run's CA, swaps
  the held secret in, and opens its own TLS to the server (approved once, up front)

Latency: REQUESTS (default 300) small GETs each, one connection per request, p50/p90 ms.
Throughput: 5 GETs of MIB (default 16) MiB each, MB/s (best of 5).
"""

from __future__ import annotations

import http.server
import multiprocessing
import os
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection

from bastion.approval.clock import SystemClock
from bastion.approval.memory import MemoryStore
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.store import MemoryLedgerStore
from bastion.configuration import load_policy_text
from bastion.exec.egress import EgressSession, StaticDialer
from bastion.exec.egress.binding import FORWARDER, SOCKET
from bastion.exec.egress.held import hold
from bastion.exec.egress.tls import RunCA
from bastion.policy.engine import Gate
from bastion.policy.network import StaticResolver
from bastion.runtime import Gatekeeper

PLAIN, HELD = "1.1.1.20", "1.1.1.21"
FORWARD_PORT = 38128
Connect = Callable[[], socket.socket]


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


@dataclass(frozen=True)
class Setup:
    port: int
    tls_port: int
    sock_path: str
    upstream_ca: str  # trusted by direct TLS clients and by the proxy
    run_ca: str  # the run's CA: trusted by the "sandboxed" client of the held host


def _serve(ready: Connection, certs: str) -> None:
    import threading

    plain = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    tls = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    ca = RunCA(certs, certs)  # any CA will do for the stand-in server
    tls.socket = ca.server_context("held.test").wrap_socket(tls.socket, server_side=True)
    for server in (plain, tls):
        server.daemon_threads = True
    threading.Thread(target=tls.serve_forever, daemon=True).start()
    ready.send((plain.server_address[1], tls.server_address[1], ca.ca_file))
    plain.serve_forever()


def main(requests: int, mib: int) -> None:
    context = multiprocessing.get_context("fork")
    with tempfile.TemporaryDirectory(prefix="bastion-bench-egress-") as workspace:
        certs = os.path.join(workspace, "upstream")
        os.mkdir(certs)
        here, there = context.Pipe()
        server = context.Process(target=_serve, args=(there, certs), daemon=True)
        server.start()
        try:
            port, tls_port, upstream_ca = here.recv()
            _with_proxy(requests, mib, workspace, port, tls_port, upstream_ca)
        finally:
            server.kill()
            server.join()


def _with_proxy(requests: int, mib: int, workspace: str, port: int, tls_port: int, upstream_ca: str) -> None:
    policy = load_policy_text(
        '[network]\nallow_hosts = ["bench.test", "held.test"]\n', cwd=workspace, env={"HOME": workspace}
    )
    keeper = Gatekeeper(
        Gate(policy),
        store=MemoryStore(),
        clock=SystemClock(),
        ledger=Ledger(MemoryLedgerStore(), hasher=ArgumentHasher(b"k" * 32)),
        on_permission=lambda request: {"kind": "once"},  # the held host's one question
    )
    dial = {(PLAIN, 80): ("127.0.0.1", port), (PLAIN, 443): ("127.0.0.1", tls_port),
            (HELD, 443): ("127.0.0.1", tls_port)}  # fmt: skip
    egress = EgressSession(
        keeper,
        resolver=StaticResolver({"bench.test": [PLAIN], "held.test": [HELD]}),
        dialer=StaticDialer(dial),
        upstream_tls=ssl.create_default_context(cafile=upstream_ca),
        held=[hold("TOKEN", "bench-secret", ["held.test"])],
    )
    with egress:
        assert egress.binding is not None
        public = egress.binding.public_dir
        setup = Setup(
            port, tls_port, os.path.join(public, SOCKET), upstream_ca, os.path.join(public, "ca.crt")
        )
        forwarder = subprocess.Popen([sys.executable, "-I", "-S", os.path.join(public, FORWARDER),
                                      setup.sock_path, str(FORWARD_PORT), "--", "sleep", "600"])  # fmt: skip
        try:
            _wait_listening(FORWARD_PORT)
            client = multiprocessing.get_context("fork").Process(target=run, args=(requests, mib, setup))
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


def fetch(
    connect: Connect,
    request: bytes,
    *,
    tunnel: str = "",
    tls: ssl.SSLContext | None = None,
    name: str = "held.test",
) -> int:
    """Send one request (through a CONNECT tunnel, in TLS), read to EOF; bytes received."""
    sock = connect()
    try:
        if tunnel:
            sock.sendall(f"CONNECT {tunnel} HTTP/1.1\r\n\r\n".encode())
            assert sock.recv(39).startswith(b"HTTP/1.1 200")
        if tls is not None:
            sock = tls.wrap_socket(sock, server_hostname=name)
        sock.sendall(request)
        total = 0
        while chunk := sock.recv(262144):
            total += len(chunk)
        return total
    finally:
        sock.close()


def variants(setup: Setup, path: str) -> dict[str, Callable[[], int]]:
    def unix() -> socket.socket:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(setup.sock_path)
        return sock

    def tcp(port: int) -> Connect:
        return lambda: socket.create_connection(("127.0.0.1", port))

    upstream = ssl.create_default_context(cafile=setup.upstream_ca)
    run_ca = ssl.create_default_context(cafile=setup.run_ca)
    origin = f"GET {path} HTTP/1.1\r\nHost: bench.test\r\nConnection: close\r\n\r\n".encode()
    absolute = f"GET http://bench.test{path} HTTP/1.1\r\nHost: bench.test\r\n\r\n".encode()
    held = f"GET {path} HTTP/1.1\r\nHost: held.test\r\nConnection: close\r\n\r\n".encode()
    return {
        "direct": lambda: fetch(tcp(setup.port), origin),
        "proxy, plain HTTP": lambda: fetch(unix, absolute),
        "proxy, CONNECT": lambda: fetch(unix, origin, tunnel="bench.test:80"),
        "forwarder + proxy": lambda: fetch(tcp(FORWARD_PORT), absolute),
        "direct TLS": lambda: fetch(tcp(setup.tls_port), held, tls=upstream),
        # bench.test is not held: a blind tunnel (to the same server, whose certificate names held.test)
        "CONNECT, TLS e2e": lambda: fetch(unix, held, tunnel="bench.test:443", tls=upstream),
        "held, intercepted": lambda: fetch(unix, held, tunnel="held.test:443", tls=run_ca),
    }


def run(requests: int, mib: int, setup: Setup) -> None:
    small = variants(setup, "/small")
    latency: dict[str, list[float]] = {name: [] for name in small}
    for call in small.values():
        call()  # warm-up (and the held host's one approval)
    for _ in range(requests):
        for name, call in small.items():
            start = time.perf_counter()
            call()
            latency[name].append((time.perf_counter() - start) * 1000)
    size = mib * 1024 * 1024
    big = variants(setup, f"/bytes/{size}")
    rate: dict[str, list[float]] = {name: [] for name in big}
    for _ in range(5):
        for name, call in big.items():
            start = time.perf_counter()
            got = call()
            assert got >= size, (name, got)
            rate[name].append(size / (time.perf_counter() - start) / 1e6)
    report(requests, mib, latency, rate)


def report(requests: int, mib: int, latency: dict[str, list[float]], rate: dict[str, list[float]]) -> None:
    print(f"latency: {requests} requests each, new connection per request, ms; "
          f"throughput: best of 5 x {mib} MiB, MB/s")  # fmt: skip
    print(f"{'variant':<20}{'p50':>8}{'p90':>8}{'x base':>8}{'MB/s':>8}{'/ base':>8}")
    for name, samples in latency.items():
        base = "direct TLS" if name in ("direct TLS", "CONNECT, TLS e2e", "held, intercepted") else "direct"
        samples.sort()
        p50, p90 = statistics.median(samples), samples[int(len(samples) * 0.9)]
        ratio = p50 / statistics.median(latency[base])
        best = max(rate[name])
        print(f"{name:<20}{p50:>8.2f}{p90:>8.2f}{ratio:>8.1f}{best:>8.0f}{best / max(rate[base]):>8.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300, int(sys.argv[2]) if len(sys.argv) > 2 else 16)
