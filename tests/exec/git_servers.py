"""Real git servers on loopback for the contained-push tests: smart HTTP (``git http-backend``
behind a tiny Python server, optionally asking for a Basic credential) and ssh (a real
``sshd`` with its own host key, and an ``ssh-agent`` holding a test key)."""

from __future__ import annotations

import base64
import contextlib
import http.server
import os
import shutil
import signal
import socket
import ssl
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

GIT = ["git", "-c", "user.email=a@b", "-c", "user.name=a", "-c", "init.defaultBranch=main"]


def git(cwd: Path, *args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([*GIT, *args], cwd=cwd, env=env, capture_output=True, text=True, check=True)
    return done.stdout


def bare_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "--bare", ".")
    git(path, "config", "http.receivepack", "true")
    return path


def pushed(repo: Path, branch: str = "main") -> str:
    """The subjects on ``branch`` of a bare repository ("" when it has no such branch)."""
    done = subprocess.run(
        ["git", "-C", str(repo), "log", "--format=%s", branch], capture_output=True, text=True, check=False
    )
    return done.stdout


@dataclass
class GitHttp:
    """``http://HOST:PORT/NAME.git`` for every bare repository under ``root``."""

    root: Path
    host: str
    port: int
    server: http.server.ThreadingHTTPServer
    #: ``user:password`` the server demands (Basic), or None for none.
    credential: str | None = None
    #: (method, path, Authorization header) of every request that reached it.
    seen: list[tuple[str, str, str]] = field(default_factory=list)

    def url(self, name: str) -> str:
        return f"http://{self.host}:{self.port}/{name}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _handler(served: GitHttp) -> type[http.server.BaseHTTPRequestHandler]:
    backend = subprocess.run(
        ["git", "--exec-path"], capture_output=True, text=True, check=True
    ).stdout.strip()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"  # one request per connection: the proxy relays until close

        def log_message(self, format: str, *args: object) -> None:
            pass

        def _serve(self) -> None:
            auth = self.headers.get("Authorization", "")
            served.seen.append((self.command, self.path, auth))
            wanted = served.credential
            if wanted is not None and auth != "Basic " + base64.b64encode(wanted.encode()).decode():
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="git"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            path, _, query = self.path.partition("?")
            env = {
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "GIT_PROJECT_ROOT": str(served.root),
                "GIT_HTTP_EXPORT_ALL": "1",
                "REQUEST_METHOD": self.command,
                "PATH_INFO": path,
                "QUERY_STRING": query,
                "CONTENT_TYPE": self.headers.get("Content-Type", ""),
                "CONTENT_LENGTH": str(len(body)),
                "REMOTE_USER": "tester",
                "REMOTE_ADDR": "127.0.0.1",
                "HTTP_CONTENT_ENCODING": self.headers.get("Content-Encoding", ""),
                "GIT_PROTOCOL": self.headers.get("Git-Protocol", ""),
            }
            done = subprocess.run(
                [os.path.join(backend, "git-http-backend")],
                input=body,
                env=env,
                capture_output=True,
                check=False,
            )
            head, _, content = done.stdout.partition(b"\r\n\r\n")
            status, headers = 200, []
            for line in head.decode("latin-1").split("\r\n"):
                name, _, value = line.partition(":")
                if name.lower() == "status":
                    status = int(value.split()[0])
                elif name:
                    headers.append((name, value.strip()))
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

        do_GET = do_POST = _serve

    return Handler


def start_git_http(
    root: Path, host: str = "127.0.0.1", credential: str | None = None, tls: ssl.SSLContext | None = None
) -> GitHttp:
    served = GitHttp(root, host, 0, None, credential)  # type: ignore[arg-type]
    server = http.server.ThreadingHTTPServer((host, 0), _handler(served))
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    server.daemon_threads = True
    served.server, served.port = server, server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return served


@dataclass
class Sshd:
    port: int
    process: subprocess.Popen[bytes]
    host_key_line: str  # "[127.0.0.1]:PORT ssh-ed25519 AAAA…" for known_hosts

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def require_sshd() -> str:
    found = shutil.which("sshd") or ("/usr/sbin/sshd" if os.path.exists("/usr/sbin/sshd") else None)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("openssh-server is not installed, and CI must run the ssh push test (.ci/run)")
        pytest.skip("openssh-server (sshd) is not installed")
    if os.geteuid() != 0:
        pytest.skip("a loopback sshd that logs in as this user needs root here")
    return found


def start_sshd(folder: Path, authorized: str) -> Sshd:
    """An sshd on a free loopback port that lets ``authorized`` (a public key) log in as root."""
    sshd = require_sshd()
    folder.mkdir(parents=True, exist_ok=True)
    key = folder / "host_key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    (folder / "authorized_keys").write_text(authorized)
    os.chmod(folder / "authorized_keys", 0o600)
    Path("/run/sshd").mkdir(exist_ok=True)  # sshd's privilege separation directory
    port = _free_port()
    config = folder / "sshd_config"
    config.write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {key}\nPidFile {folder}/sshd.pid\n"
        f"AuthorizedKeysFile {folder}/authorized_keys\nStrictModes no\nUsePAM no\n"
        "PasswordAuthentication no\nKbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n"
    )
    process = subprocess.Popen([sshd, "-D", "-e", "-f", str(config)], stderr=subprocess.DEVNULL)
    for _ in range(200):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    public = (folder / "host_key.pub").read_text().split()
    return Sshd(port, process, f"[127.0.0.1]:{port} {public[0]} {public[1]}\n")


@dataclass
class Agent:
    socket: str
    pid: int

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGTERM)


def start_agent(folder: Path) -> tuple[Agent, str]:
    """An ssh-agent holding a fresh test key; the agent and the key's public line."""
    folder.mkdir(parents=True, exist_ok=True)
    key = folder / "id_test"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    sock = str(folder / "agent.sock")
    out = subprocess.run(["ssh-agent", "-a", sock, "-s"], capture_output=True, text=True, check=True).stdout
    pid = int(out.split("SSH_AGENT_PID=", 1)[1].split(";", 1)[0])
    subprocess.run(["ssh-add", "-q", str(key)], env={**os.environ, "SSH_AUTH_SOCK": sock}, check=True,
                   capture_output=True)  # fmt: skip
    key.unlink()  # from here on the key exists only inside the agent
    return Agent(sock, pid), (folder / "id_test.pub").read_text()


@dataclass
class Registry:
    """A package registry that takes ``npm publish`` (a PUT of the package document) when it
    carries ``Authorization: Bearer TOKEN``; what it was sent is kept."""

    port: int
    token: str
    server: http.server.ThreadingHTTPServer
    seen: list[tuple[str, str, str]] = field(default_factory=list)
    published: list[str] = field(default_factory=list)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def start_registry(token: str) -> Registry:
    registry = Registry(0, token, None)  # type: ignore[arg-type]

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def log_message(self, format: str, *args: object) -> None:
            pass

        def _answer(self, status: int, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_PUT(self) -> None:
            auth = self.headers.get("Authorization", "")
            registry.seen.append((self.command, self.path, auth))
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if auth != f"Bearer {registry.token}":
                self._answer(401, b'{"error": "unauthorized"}')
                return
            registry.published.append(self.path)
            self._answer(201, b"{}")

        def do_GET(self) -> None:
            registry.seen.append((self.command, self.path, self.headers.get("Authorization", "")))
            self._answer(404, b'{"error": "not found"}')

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    registry.server, registry.port = server, server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return registry
