"""A throwaway PostgreSQL cluster on a loopback port (Debian's ``postgresql`` package).

``initdb`` refuses to run as root, so as root the cluster belongs to the ``postgres`` system
user (created if missing). Trust authentication on loopback and the socket only: it lives
in a private temp dir and dies with the test session. Also used by ``bench/bench_postgres.py``.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass

import psycopg


def find_bin() -> str | None:
    """The newest ``/usr/lib/postgresql/*/bin`` holding ``pg_ctl`` (or pg_ctl on PATH)."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0,
    )
    if found:
        return os.path.dirname(found[-1])
    on_path = shutil.which("pg_ctl")
    return os.path.dirname(on_path) if on_path else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _postgres_user() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"],
            check=True,
        )
        return pwd.getpwnam("postgres")


@dataclass
class Cluster:
    bindir: str
    root: str
    port: int
    user: pwd.struct_passwd | None  # None: run as ourselves (not root)

    @property
    def data(self) -> str:
        return os.path.join(self.root, "data")

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        kwargs: dict[str, object] = {}
        if self.user is not None:
            kwargs = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        return subprocess.run(
            [os.path.join(self.bindir, args[0]), *args[1:]],
            check=True,
            text=True,
            capture_output=True,
            cwd=self.root,
            **kwargs,
        )  # type: ignore[call-overload]

    def init(self, *, durable: bool) -> None:
        self._run(
            "initdb",
            "-D",
            self.data,
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )
        with open(os.path.join(self.data, "postgresql.auto.conf"), "a", encoding="utf-8") as conf:
            conf.write("max_connections = 200\nshared_buffers = 64MB\n")
            if not durable:
                conf.write("fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1"
        self._run(
            "pg_ctl",
            "-D",
            self.data,
            "-o",
            options,
            "-l",
            os.path.join(self.root, "log"),
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop")

    def restart(self) -> None:
        self.stop()
        self.start()

    def destroy(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    def log_tail(self, lines: int = 30) -> str:
        try:
            with open(os.path.join(self.root, "log"), encoding="utf-8", errors="replace") as handle:
                return "".join(handle.readlines()[-lines:])
        except OSError:
            return ""


def start_cluster(*, durable: bool = False) -> Cluster:
    """Init and start a new cluster; raises if PostgreSQL is not installed."""
    bindir = find_bin()
    if bindir is None:
        raise FileNotFoundError("PostgreSQL is not installed (apt-get install -y postgresql)")
    user = _postgres_user() if os.geteuid() == 0 else None
    root = tempfile.mkdtemp(prefix="bastion-pg-")
    os.chmod(root, 0o700)
    if user is not None:
        os.chown(root, user.pw_uid, user.pw_gid)
    cluster = Cluster(bindir, root, free_port(), user)
    try:
        cluster.init(durable=durable)
        cluster.start()
    except subprocess.CalledProcessError as exc:
        tail = cluster.log_tail()
        cluster.destroy()
        raise RuntimeError(f"cannot start PostgreSQL: {exc.stderr}\n{tail}") from exc
    return cluster


def with_database(url: str, name: str) -> str:
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


def create_database(admin_url: str) -> str:
    """A fresh, empty database on the server of ``admin_url``; its URL."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return with_database(admin_url, name)


def drop_database(admin_url: str, url: str) -> None:
    name = url.rpartition("/")[2]
    with contextlib.suppress(psycopg.Error), psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
