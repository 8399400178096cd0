"""The bubblewrap backend: one ``bwrap`` per call, building the child's view of the host.

What the child sees: the system directories read-only, a short allow-list of ``/etc``
(no shadow, no ssh host keys, no package-manager tokens), a fresh ``/proc`` and a minimal
``/dev``, a private ``/tmp``, an empty private HOME, the writable roots read-write, the
read-only roots read-only, and the hidden paths (credentials) masked. Every namespace is
unshared (no network) unless the spec allows network. Mounts are ordered parents first:
``--tmpfs /tmp`` must come before a bind under ``/tmp`` or it hides the bind.
"""

from __future__ import annotations

import functools
import os
import shutil
from dataclasses import dataclass
from pathlib import PurePosixPath

from bastion.exec.egress.binding import bwrap_args, command_prefix
from bastion.exec.limits import limit_prefix
from bastion.exec.process import Launch, run_process
from bastion.exec.runner import ExecError, RunResult, RunSpec, SandboxUnavailable

SYSTEM_DIRS: tuple[str, ...] = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: The parts of /etc a program needs to link, resolve names, verify TLS and know who it is.
ETC_ALLOW: tuple[str, ...] = (
    "alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "passwd", "group",
    "nsswitch.conf", "hosts", "host.conf", "resolv.conf", "gai.conf", "services", "protocols",
    "localtime", "timezone", "ssl/certs", "ssl/openssl.cnf", "ca-certificates",
    "ca-certificates.conf", "os-release", "mime.types", "bash.bashrc", "profile", "inputrc",
    "terminfo", "locale.alias", "locale.conf", "magic", "magic.mime", "gitconfig",
)  # fmt: skip
#: /etc entries allowed by prefix (interpreter configuration such as python3.11/).
ETC_ALLOW_PREFIXES: tuple[str, ...] = ("python3",)

# Rank among mounts at the same depth: later ones land on top.
_TMPFS, _READ, _WRITE, _HIDE = 0, 1, 2, 3


@dataclass(frozen=True, slots=True, order=True)
class Mount:
    depth: int
    rank: int
    dest: str
    op: str  # "tmpfs" | "ro-bind" | "bind" | "symlink" | "proc" | "dev" | "hide-dir" | "hide-file"
    src: str = ""

    def args(self) -> list[str]:
        if self.op in ("ro-bind", "bind"):
            return [f"--{self.op}", self.src, self.dest]
        if self.op == "symlink":
            return ["--symlink", self.src, self.dest]
        if self.op in ("tmpfs", "proc", "dev"):
            return [f"--{self.op}", self.dest]
        if self.op == "hide-dir":
            return ["--tmpfs", self.dest, "--remount-ro", self.dest]
        return ["--ro-bind", "/dev/null", self.dest]  # hide-file


def _depth(path: str) -> int:
    return len(PurePosixPath(path).parts)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


@functools.cache
def _system_mounts() -> tuple[Mount, ...]:
    """The fixed part of every sandbox (looked up once per process)."""
    mounts = []
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            mounts.append(Mount(_depth(path), _READ, path, "symlink", os.readlink(path)))
        elif os.path.isdir(path):
            mounts.append(Mount(_depth(path), _READ, path, "ro-bind", path))
    try:
        names = set(os.listdir("/etc"))
    except OSError:
        names = set()
    wanted = {n for n in ETC_ALLOW if os.path.lexists(f"/etc/{n}")}
    wanted |= {n for n in names if n.startswith(ETC_ALLOW_PREFIXES)}
    for name in sorted(wanted):
        path = f"/etc/{name}"
        if os.path.exists(path):  # a dangling link has nothing to show
            mounts.append(Mount(_depth(path), _READ, path, "ro-bind", path))
    mounts += [
        Mount(2, _TMPFS, "/proc", "proc"),
        Mount(2, _TMPFS, "/dev", "dev"),
        Mount(2, _TMPFS, "/tmp", "tmpfs"),
    ]
    return tuple(mounts)


def plan_mounts(spec: RunSpec) -> list[Mount]:
    """Every mount of the child's filesystem, in the order bwrap must apply them."""
    mounts = list(_system_mounts())
    writable = {os.path.realpath(p) for p in spec.writable_roots if os.path.exists(p)}
    readonly = {os.path.realpath(p) for p in spec.readonly_roots if os.path.exists(p)}
    for path in sorted(writable):
        mounts.append(Mount(_depth(path), _WRITE, path, "bind", path))
    for path in sorted(readonly):
        # A read-only root equal to a writable one is writable; a deeper one overlays it.
        if path not in writable:
            mounts.append(Mount(_depth(path), _READ, path, "ro-bind", path))
    home = spec.env.get("HOME", "")
    roots = writable | readonly
    if home.startswith("/") and home != "/" and not any(_inside(home, r) for r in roots):
        home = os.path.normpath(home)
        mounts.append(Mount(_depth(home), _TMPFS, home, "tmpfs"))
    for path in sorted({os.path.normpath(p) for p in spec.hidden_paths}):
        real = os.path.realpath(path)
        if not any(_inside(real, r) for r in roots) or not os.path.lexists(real):
            continue  # not mounted at all: nothing to hide
        op = "hide-dir" if os.path.isdir(real) else "hide-file"
        mounts.append(Mount(_depth(real), _HIDE, real, op))
    return sorted(mounts)


def visible(path: str, spec: RunSpec) -> bool:
    """Is ``path`` inside a root the child sees (and not under a hidden path)?"""
    real = os.path.realpath(path)
    roots = (os.path.realpath(r) for r in (*spec.writable_roots, *spec.readonly_roots))
    hidden = (os.path.realpath(h) for h in spec.hidden_paths)
    return any(_inside(real, r) for r in roots) and not any(_inside(real, h) for h in hidden)


class BubblewrapRunner:
    """Runs each command in a fresh bubblewrap sandbox."""

    name = "bubblewrap"
    sandboxed = True

    def __init__(self, bwrap: str | None = None) -> None:
        found = bwrap or shutil.which("bwrap")
        if found is None:
            raise SandboxUnavailable("bubblewrap ('bwrap') is not installed")
        self.bwrap = found

    def argv(self, spec: RunSpec) -> list[str]:
        """The full ``bwrap … -- nice … COMMAND`` line for one spec."""
        if not visible(spec.cwd, spec):
            raise ExecError(f"working directory {spec.cwd} is not inside any sandbox root")
        argv = [self.bwrap, "--unshare-all"]
        if spec.network:
            argv.append("--share-net")
        if spec.network and spec.egress is not None:
            raise ExecError("a run behind the egress proxy must not share the host's network")
        # Run as root, bwrap would keep every capability: drop them all, always.
        argv += ["--cap-drop", "ALL", "--die-with-parent", "--new-session"]
        for mount in plan_mounts(spec):
            argv += mount.args()
        argv += bwrap_args(spec.egress)
        # The new root is a tmpfs bwrap made: read-only, so nothing lands outside the mounts.
        argv += ["--remount-ro", "/"]
        argv += ["--chdir", os.path.realpath(spec.cwd), "--"]
        return argv + limit_prefix(spec.limits) + command_prefix(spec.egress) + list(spec.argv)

    def run(self, spec: RunSpec) -> RunResult:
        launch = Launch(
            argv=self.argv(spec),
            cwd="/",
            env=spec.child_env(),
            stdin=spec.stdin,
            timeout=spec.timeout,
            max_output_bytes=spec.max_output_bytes,
            secrets=spec.secrets,
            runner=self.name,
        )
        return run_process(launch)
