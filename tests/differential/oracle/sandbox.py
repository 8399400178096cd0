"""Run one command for real: bubblewrap (no network, nothing of the host writable) around
strace around ``bash -c``, over a fresh in-sandbox copy of the fixture.

strace runs *inside* the sandbox so that the paths it decodes (``-y``) are the sandbox's
own; it traces only the shell and its descendants (the copy of the fixture happens before
it starts). Its output goes to a per-command host directory, the only host path bound
writable.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.differential.oracle.fixture import Fixture

#: The syscalls whose effects are judged (opens carry their flags; -y decodes every fd).
SYSCALLS = (
    "open,openat,openat2,creat,truncate,ftruncate,unlink,unlinkat,rename,renameat,renameat2,"
    "mkdir,mkdirat,rmdir,symlink,symlinkat,link,linkat,mknod,mknodat,chmod,fchmod,fchmodat,"
    "chown,fchown,lchown,fchownat,utime,utimes,futimesat,utimensat,execve,execveat,"
    "connect,bind,sendto,sendmsg"
)

#: Host /etc entries the programs need (dynamic loader, alternatives symlinks, time zone,
#: system config they read); everything else of /etc stays out of the sandbox.
ETC_ENTRIES = (
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "alternatives",
    "localtime",
    "nsswitch.conf",
    "gitconfig",
    "profile",
    "profile.d",
    "bash.bashrc",
    "inputrc",
    "magic",
    "magic.mime",
    "mime.types",
    "locale.alias",
    "terminfo",
    "environment",
)
#: Merged-/usr systems have these as symlinks into /usr.
ROOT_LINKS = ("bin", "sbin", "lib", "lib64", "lib32", "libx32")

TMP_BYTES = 64 * 1024 * 1024
FIXTURE_MOUNT = "/oracle/fixture"
OUT_MOUNT = "/oracle/out"
TRACE_FILE = "trace"
#: Sandbox PATH: the system's own directories only (a workspace `bin/` must be asked for).
PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True, slots=True)
class Run:
    trace: tuple[str, ...]  # strace lines
    exit_code: int | None  # None: killed at the timeout
    stderr: str  # the sandbox's stderr (bwrap or strace failures), truncated


def missing_tools() -> list[str]:
    return [tool for tool in ("bwrap", "strace") if shutil.which(tool) is None]


def _root_args() -> list[str]:
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ROOT_LINKS:
        path = f"/{name}"
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for name in ETC_ENTRIES:
        if os.path.exists(f"/etc/{name}"):
            args += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    return args


def bwrap_argv(fixture: Fixture, out_dir: str, command: str) -> list[str]:
    """The full argv: sandbox, in-sandbox copy of the fixture, strace, bash -c COMMAND."""
    setup = (
        f'mkdir -p "$1" && tar -xpf {FIXTURE_MOUNT}/home.tar -C "$1" && cd "$2" && '
        f"exec strace -f -qq -y -s 256 --seccomp-bpf -e signal=none -e trace={SYSCALLS} "
        f'-o {OUT_MOUNT}/{TRACE_FILE} /bin/bash -c "$3"'
    )
    isolation = ["--unshare-all", "--die-with-parent", "--new-session", "--clearenv", "--cap-drop", "ALL"]
    users = [
        "--ro-bind",
        str(fixture.etc / "passwd"),
        "/etc/passwd",
        "--ro-bind",
        str(fixture.etc / "group"),
        "/etc/group",
    ]
    # /tmp holds the fixture copy; both tmpfs are capped so that `yes > f` cannot fill memory.
    scratch = ["--size", str(TMP_BYTES), "--tmpfs", "/tmp", "--size", str(TMP_BYTES), "--tmpfs", "/run"]
    mounts = [
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        *scratch,
        "--ro-bind",
        str(fixture.root),
        FIXTURE_MOUNT,
        "--bind",
        out_dir,
        OUT_MOUNT,
    ]
    env = {"HOME": str(fixture.home), "PATH": PATH, "LANG": "C.UTF-8", "USER": "root", "TERM": "dumb"}
    setenv = [word for name, value in env.items() for word in ("--setenv", name, value)]
    inner = ["/bin/sh", "-c", setup, "sh", str(fixture.root), str(fixture.workspace), command]
    return ["bwrap", *isolation, *_root_args(), *users, *mounts, *setenv, "--chdir", "/", *inner]


def run(fixture: Fixture, command: str, *, timeout: float) -> Run:
    """Execute ``command`` once; the sandbox is killed (with its pid namespace) at ``timeout``."""
    with tempfile.TemporaryDirectory(prefix="bastion-diff-out-") as out_dir:
        proc = subprocess.Popen(
            bwrap_argv(fixture, out_dir, command),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        try:
            _, err = proc.communicate(timeout=timeout)
            code: int | None = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            _, err = proc.communicate()
            code = None
        trace_path = Path(out_dir) / TRACE_FILE
        text = trace_path.read_text(errors="replace") if trace_path.exists() else ""
    return Run(tuple(text.splitlines()), code, err.decode(errors="replace")[-2000:])
