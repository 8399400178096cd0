"""The bubblewrap backend: one ``bwrap`` per call, building the child's view of the host.

What the child sees: the system directories read-only, a short allow-list of ``/etc``
(no shadow, no ssh host keys, no package-manager tokens), a fresh ``/proc`` and a minimal
``/dev``, a private ``/tmp``, an empty private HOME, the writable roots read-write, the
read-only roots read-only, and the hidden paths (credentials) masked. Every namespace is
unshared (no network) unless the spec allows network. Mounts are ordered parents first:
``--tmpfs /tmp`` must come before a bind under ``/tmp`` or it hides the bind.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import os
import shutil
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

from bastion.exec import cgroups, seccomp
from bastion.exec.egress.binding import bwrap_args, command_prefix
from bastion.exec.limits import limit_prefix
from bastion.exec.process import Launch, run_process
from bastion.exec.quarantine import restore_links, sweep
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

#: The descriptor the first file copied into the sandbox is read from (``--file FD``); the
#: next ones follow in plan order. Whoever starts bwrap opens them (``file_sources``).
FILE_FD = 10

# Rank among mounts at the same depth: later ones land on top.
_TMPFS, _READ, _WRITE, _HIDE = 0, 1, 2, 3


@dataclass(frozen=True, slots=True, order=True)
class Mount:
    depth: int
    rank: int
    dest: str
    op: str  # "tmpfs" | "ro-bind" | "bind" | "file" | "symlink" | "proc" | "dev" | "hide-dir" | "hide-file"
    src: str = ""
    size: int = 0  # bytes, for a tmpfs (0: unbounded)
    perms: int = 0  # for a file: its mode

    def args(self, fd: int = -1) -> list[str]:
        """bwrap's words for this mount; ``fd``: where a ``file``'s content is read from."""
        if self.op == "file":
            return ["--perms", f"{self.perms:04o}", "--file", str(fd), self.dest]
        if self.op in ("ro-bind", "bind"):
            return [f"--{self.op}", self.src, self.dest]
        if self.op == "symlink":
            return ["--symlink", self.src, self.dest]
        if self.op == "tmpfs" and self.size:
            return ["--size", str(self.size), "--tmpfs", self.dest]
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
        with contextlib.suppress(OSError):  # a dangling link has nothing to show
            mounts.append(_etc_mount(path, os.stat(path)))
    mounts += [
        Mount(2, _TMPFS, "/proc", "proc"),
        Mount(2, _TMPFS, "/dev", "dev"),
    ]
    return tuple(mounts)


def _etc_mount(path: str, info: os.stat_result) -> Mount:
    """A directory is bound read-only; a file is copied into the sandbox's root (read-only
    once bwrap remounts it), which costs bwrap no mount: each bind re-reads the mount table,
    and the ~25 single files of the allow-list were a third of a sandbox's set-up. The copy
    is made as the run starts, from the file as it is then. A file this user cannot read
    stays a bind (it shows, unreadable, as before: the launcher could not open it)."""
    if stat.S_ISREG(info.st_mode) and os.access(path, os.R_OK):
        return Mount(_depth(path), _READ, path, "file", path, perms=stat.S_IMODE(info.st_mode))
    return Mount(_depth(path), _READ, path, "ro-bind", path)


def plan_mounts(spec: RunSpec) -> list[Mount]:
    """Every mount of the child's filesystem, in the order bwrap must apply them. The two
    RAM file systems a run can fill (/tmp, the private HOME) are capped at ``tmp_size_mb``."""
    size = spec.limits.tmp_size_mb * 1024 * 1024
    mounts = [*_system_mounts(), Mount(2, _TMPFS, "/tmp", "tmpfs", size=size)]
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
        mounts.append(Mount(_depth(home), _TMPFS, home, "tmpfs", size=size))
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


@dataclass(frozen=True, slots=True)
class NetworkSetup:
    """What the run's network needs: bwrap arguments, variables for the child, and words put
    in front of the command inside the sandbox (e.g. a forwarder from a local port to the
    proxy's Unix socket)."""

    args: tuple[str, ...] = ()
    env: Mapping[str, str] = dataclasses.field(default_factory=dict)
    prefix: tuple[str, ...] = ()


@contextlib.contextmanager
def network_setup(spec: RunSpec) -> Iterator[NetworkSetup]:
    """The one place that gives a run its network. No hosts and no ``network``: a network
    namespace of its own with nothing in it. The egress proxy (``bastion.exec.egress``)
    replaces the shared namespace for ``spec.hosts``: it is started here and stopped on exit."""
    yield network_of(spec)


def network_of(spec: RunSpec) -> NetworkSetup:
    if spec.egress is not None:  # the proxy's socket and the forwarder in front of the command
        if spec.network:
            raise ExecError("a run behind the egress proxy must not share the host's network")
        return NetworkSetup(tuple(bwrap_args(spec.egress)), {}, tuple(command_prefix(spec.egress)))
    if spec.network:
        return NetworkSetup(("--share-net",))
    # No network; `hosts` without a proxy get none either (fail closed): whoever runs a
    # `hosts` profile starts an EgressSession and passes its binding (see sandbox_cmd).
    return NetworkSetup()


def namespace_args(spec: RunSpec, network: NetworkSetup, seccomp_fd: int | None) -> list[str]:
    """Every namespace unshared, nested user namespaces off, no capability, the filter."""
    argv = ["--unshare-all", *network.args]
    # Run as root, bwrap would keep every capability: drop them all, always.
    argv += ["--cap-drop", "ALL", "--die-with-parent", "--new-session"]
    # A user namespace of our own, in which no further one can be made (and uid 0 inside
    # stays the caller's uid outside: workspace files keep their owner).
    argv += ["--unshare-user", "--disable-userns"]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    return argv


class BubblewrapRunner:
    """Runs each command in a fresh bubblewrap sandbox."""

    name = "bubblewrap"
    sandboxed = True

    def __init__(self, bwrap: str | None = None) -> None:
        found = bwrap or shutil.which("bwrap")
        if found is None:
            raise SandboxUnavailable("bubblewrap ('bwrap') is not installed")
        self.bwrap = found

    def argv(
        self,
        spec: RunSpec,
        *,
        network: NetworkSetup | None = None,
        seccomp_fd: int | None = None,
        files: Mapping[str, int] | None = None,
    ) -> list[str]:
        """The full ``bwrap … -- nice … COMMAND`` line for one spec."""
        net = network or network_of(spec)
        namespaces = namespace_args(spec, net, seccomp_fd)
        return [self.bwrap, *namespaces, *self.view(spec, files), "--", *command(spec, net)]

    def view(self, spec: RunSpec, files: Mapping[str, int] | None = None) -> list[str]:
        """bwrap's options that build the child's filesystem, up to ``--chdir DIR``: what a
        prepared run hands bwrap in a file (``--args FD``). ``files``: the descriptor each
        file copied in is read from (by default ``FILE_FD`` onwards, in plan order: what a
        prepared run's launcher opens)."""
        if not visible(spec.cwd, spec):
            raise ExecError(f"working directory {spec.cwd} is not inside any sandbox root")
        argv: list[str] = []
        numbers = itertools.count(FILE_FD)
        for mount in plan_mounts(spec):
            if mount.op == "file":
                argv += mount.args(files[mount.src] if files is not None else next(numbers))
            else:
                argv += mount.args()
        argv += bwrap_args(spec.egress)
        # The new root is a tmpfs bwrap made: read-only, so nothing lands outside the mounts.
        argv += ["--remount-ro", "/"]
        return [*argv, "--chdir", os.path.realpath(spec.cwd)]

    def prepare(self, spec: RunSpec, stack: contextlib.ExitStack) -> Launch:
        """The network, seccomp filter and cgroups of one run, held open by ``stack``, and
        the launch that starts it (the session and job tools start it themselves)."""
        network = stack.enter_context(network_setup(spec))
        fd = seccomp.filter_fd() if spec.limits.seccomp else None
        if fd is not None:
            stack.callback(os.close, fd)
        files = _open_files(spec, stack)
        limits = spec.limits
        procs = stack.enter_context(cgroups.run_group(limits.max_processes, limits.max_resident_mb))
        argv = self.argv(spec, network=network, seccomp_fd=fd, files=files)
        if procs:
            argv = ["/bin/sh", "-c", cgroups.JOIN, "sh", str(len(procs)), *procs, *argv]
        return Launch(
            argv=argv,
            cwd="/",
            env={**spec.child_env(), **network.env},
            stdin=spec.stdin,
            timeout=spec.timeout,
            max_output_bytes=spec.max_output_bytes,
            secrets=spec.secrets,
            runner=self.name,
            pass_fds=(*(() if fd is None else (fd,)), *files.values()),
        )

    def run(self, spec: RunSpec) -> RunResult:
        with contextlib.ExitStack() as stack:
            result = run_process(self.prepare(spec, stack))
        swept = after_run(spec)
        return dataclasses.replace(result, swept=swept) if swept else result


def file_sources(spec: RunSpec) -> list[str]:
    """The host files copied into the sandbox, in the order of their descriptors."""
    return [m.src for m in plan_mounts(spec) if m.op == "file"]


def _open_files(spec: RunSpec, stack: contextlib.ExitStack) -> dict[str, int]:
    files: dict[str, int] = {}
    for path in file_sources(spec):
        try:
            files[path] = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError as exc:
            raise ExecError(f"{path} cannot be read for the sandbox: {exc.strerror}") from exc
        stack.callback(os.close, files[path])
    return files


def command(spec: RunSpec, network: NetworkSetup) -> list[str]:
    """What bwrap runs inside: the ``nice``/``prlimit`` prefix, the network's words, the command."""
    limits = limit_prefix(spec.limits, nproc=_nproc_fallback(spec))
    return [*limits, *network.prefix, *spec.argv]


def after_run(spec: RunSpec) -> tuple[str, ...]:
    """Undo what the run did to protected paths that could not be bound read-only."""
    if not spec.quarantine:
        return ()
    return sweep(spec.swept, spec.quarantine) + restore_links(spec.links, spec.quarantine)


def _nproc_fallback(spec: RunSpec) -> int:
    """Without a pids cgroup, RLIMIT_NPROC. It counts every task of the uid on the machine
    (and does not hold for root at all), so the cap is what the uid runs now plus the run's
    allowance: a desktop with 800 browser threads must not make every run fail to fork."""
    if not spec.limits.max_processes or cgroups.enforceable()["pids"] or os.geteuid() == 0:
        return 0
    return _tasks_of(os.geteuid()) + spec.limits.max_processes


def _tasks_of(uid: int) -> int:
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if entry.stat().st_uid == uid:
                    count += len(os.listdir(f"/proc/{entry.name}/task"))
    return count
