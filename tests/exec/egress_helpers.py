"""Loopback stand-ins for the internet, for the egress proxy's tests and bench.

``Upstream`` is a threaded HTTP server on 127.0.0.1 (optionally TLS with a test CA) that
records every request it receives. Tests name it through the proxy's hooks: a
StaticResolver gives a fake host a public-looking address, and a StaticDialer turns
that checked address into the loopback server - anything else is refused, so no packet
leaves the machine.
"""

from __future__ import annotations

import datetime
import http.server
import ipaddress
import json
import ssl
import threading
from dataclasses import dataclass, field
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Upstream:
    host: str
    port: int = 0
    seen: list[Seen] = field(default_factory=list)
    server: http.server.ThreadingHTTPServer | None = None
    thread: threading.Thread | None = None

    def close(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
        if self.thread is not None:
            self.thread.join()


def _handler(upstream: Upstream) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _answer(self) -> None:
            size = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(size) if size else b""
            upstream.seen.append(Seen(self.command, self.path, dict(self.headers.items()), body))
            coding = None
            if self.path.startswith("/bytes/"):
                data = b"x" * int(self.path.rsplit("/", 1)[1])
            elif self.path.startswith("/redirect/"):  # 302 to the host named after it
                self.send_response(302)
                self.send_header("Location", f"http://{self.path.removeprefix('/redirect/')}/landed")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            elif self.path.startswith("/echo"):  # what a debugging endpoint sends back
                data = json.dumps(dict(self.headers.items())).encode()
                coding = self.path.partition("coding=")[2] or None
            else:
                data = f"hello from {upstream.host} {self.command} {self.path}\n".encode()
            self.send_response(200)
            if coding is not None:
                self.send_header("Content-Encoding", coding)
            self.send_header("X-Echo-Authorization", self.headers.get("Authorization", ""))
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_HEAD = _answer

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


def start_upstream(host: str, tls: ssl.SSLContext | None = None) -> Upstream:
    upstream = Upstream(host)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _handler(upstream))
    server.daemon_threads = True
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    upstream.server, upstream.port = server, server.server_address[1]
    upstream.thread = threading.Thread(target=server.serve_forever, daemon=True)
    upstream.thread.start()
    return upstream


def _name(text: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])


def make_test_ca(directory: Path, host: str) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    """(server context for ``host``, client context trusting only the test CA)."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(_name("test CA"))
        .issuer_name(_name("test CA"))
        .public_key(ca_key.public_key())
        .serial_number(1)
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (
        x509.CertificateBuilder()
        .subject_name(_name(host))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(2)
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    (directory / "leaf.pem").write_bytes(leaf.public_bytes(pem))
    (directory / "leaf.key").write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    (directory / "ca.pem").write_bytes(ca.public_bytes(pem))
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(directory / "leaf.pem", directory / "leaf.key")
    client = ssl.create_default_context(cafile=str(directory / "ca.pem"))
    return server, client


#: Public-looking addresses the fake hosts resolve to; the dialer maps them to loopback.
FAKE_ADDRESSES = {
    "allowed.test": "1.1.1.10",
    "asked.test": "1.1.1.11",
    "held.test": "1.1.1.12",
    "denied.test": "1.1.1.13",
    "other.test": "1.1.1.14",
}


def is_public(address: str) -> bool:
    return ipaddress.ip_address(address).is_global
