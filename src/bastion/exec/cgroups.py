"""A cgroup per sandboxed run: ``pids.max`` (holds for root too, unlike RLIMIT_NPROC) and a
memory limit on resident pages. cgroup v1 (a ``pids`` / ``memory`` hierarchy) and v2
(``pids.max`` / ``memory.max`` under Bastion's own cgroup) are both used where writable.

The child joins before it execs bubblewrap (a ``sh`` trampoline writes its own pid into
``cgroup.procs``), so nothing it starts is ever outside the group. Inside the sandbox
``/sys`` is not mounted and every capability is dropped: it cannot leave.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass

_COUNTER = itertools.count()
#: Joins every cgroup named in the arguments, then execs the rest: ``sh -c JOIN sh N f1..fN argv``.
JOIN = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; exec "$@"'


@dataclass(frozen=True, slots=True)
class Controller:
    """Where to make a run's group for one controller, and the files that set its limit."""

    name: str  # "pids" | "memory"
    parent: str
    limit_file: str  # pids.max | memory.max | memory.limit_in_bytes


def _mounts() -> list[tuple[str, str, set[str]]]:
    """(mount point, fs type, options) of every cgroup mount."""
    out: list[tuple[str, str, set[str]]] = []
    try:
        with open("/proc/self/mountinfo", encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return out
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) >= 5 and len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
            out.append((fields[4], tail[0], set(tail[2].split(","))))
    return out


def _own_paths() -> dict[str, str]:
    """Controller (or "" for v2) → this process's cgroup path."""
    out: dict[str, str] = {}
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as handle:
            for line in handle.read().splitlines():
                _, controllers, path = line.split(":", 2)
                for name in controllers.split(",") if controllers else [""]:
                    out[name] = path
    except (OSError, ValueError):
        pass
    return out


@functools.cache
def controllers() -> tuple[Controller, ...]:
    """The controllers this machine lets Bastion use (probed once: make, write, remove)."""
    own = _own_paths()
    found: dict[str, Controller] = {}
    for point, kind, options in _mounts():
        for name, v1_file, v2_file in (
            ("pids", "pids.max", "pids.max"),
            ("memory", "memory.limit_in_bytes", "memory.max"),
        ):
            if name in found:
                continue
            if kind == "cgroup" and name in options:
                candidate = Controller(name, _join(point, own.get(name, "/")), v1_file)
            elif kind == "cgroup2":
                candidate = Controller(name, _join(point, own.get("", "/")), v2_file)
            else:
                continue
            if _probe(candidate):
                found[name] = candidate
    return tuple(found.values())


def _join(point: str, path: str) -> str:
    return os.path.normpath(os.path.join(point, path.lstrip("/")))


def _probe(controller: Controller) -> bool:
    path = os.path.join(controller.parent, f"bastion-probe-{os.getpid()}")
    try:
        os.mkdir(path)
    except OSError:
        return False
    try:
        return os.access(os.path.join(path, controller.limit_file), os.W_OK)
    finally:
        with contextlib.suppress(OSError):
            os.rmdir(path)


def enforceable() -> dict[str, bool]:
    names = {c.name for c in controllers()}
    return {"pids": "pids" in names, "memory": "memory" in names}


@contextlib.contextmanager
def run_group(max_processes: int, max_resident_mb: int) -> Iterator[list[str]]:
    """Make the run's groups, set their limits; yields the ``cgroup.procs`` files to join.
    On exit every process left in them is killed and the groups are removed."""
    made: list[str] = []
    try:
        made = make_groups(f"bastion-{os.getpid()}-{next(_COUNTER)}", max_processes, max_resident_mb)
        yield [os.path.join(p, "cgroup.procs") for p in made]
    finally:
        remove_groups(made)


def make_groups(name: str, max_processes: int, max_resident_mb: int) -> list[str]:
    """One group ``name`` per usable controller with its limit set; the folders made. On a
    failure the groups already made are removed and the OSError goes to the caller."""
    made: list[str] = []
    try:
        for controller in controllers():
            value = _limit_value(controller, max_processes, max_resident_mb)
            if value is None:
                continue
            path = os.path.join(controller.parent, name)
            os.mkdir(path)
            made.append(path)
            _write(os.path.join(path, controller.limit_file), value)
            if controller.name == "memory":
                _no_swap(path, controller)
    except OSError:
        remove_groups(made)
        raise
    return made


def remove_groups(paths: list[str]) -> None:
    """Kill what is left in each group and remove it (a group already gone is fine)."""
    for path in reversed(paths):
        _empty(path)


def _limit_value(controller: Controller, max_processes: int, max_resident_mb: int) -> str | None:
    if controller.name == "pids":
        return str(max_processes) if max_processes > 0 else None
    return str(max_resident_mb * 1024 * 1024) if max_resident_mb > 0 else None


def _no_swap(path: str, controller: Controller) -> None:
    """Swap would let a run go past its memory limit (v2: swap.max; v1: memsw, if present)."""
    if controller.limit_file == "memory.max":
        with contextlib.suppress(OSError):
            _write(os.path.join(path, "memory.swap.max"), "0")


def _write(path: str, value: str) -> None:
    with open(path, "w", encoding="ascii") as handle:
        handle.write(value)


def _empty(path: str) -> None:
    """Kill what is left in the group, then remove it (a few rounds: rmdir waits for exit)."""
    for _ in range(200):
        try:
            with open(os.path.join(path, "cgroup.procs"), encoding="ascii") as handle:
                pids = [int(p) for p in handle.read().split()]
        except (OSError, ValueError):
            pids = []
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        try:
            os.rmdir(path)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.005)  # processes killed above are still exiting
