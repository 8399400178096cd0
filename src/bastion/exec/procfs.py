"""What the host sees of a sandboxed process in /proc: its children, its state, its tree.

bwrap puts the sandbox in a pid namespace and a session of its own, so the host finds the
processes of a run by walking down from the bwrap it started.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time


def children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (empty when it is gone)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        path = f"/proc/{pid}/task/{task}/children"
        with contextlib.suppress(OSError, ValueError), open(path, encoding="ascii") as handle:
            found += [int(p) for p in handle.read().split()]
    return found


def has_children(pid: int) -> bool:
    """Does ``pid`` have a child process? True also when /proc cannot tell (a kernel
    without ``CONFIG_PROC_CHILDREN``, or the process is gone): unknown is not "idle"."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
        for task in tasks:
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as handle:
                if handle.read().split():
                    return True
    except OSError:
        return True
    return False


def proc_status(pid: int) -> tuple[str, str] | None:
    """(command name, state letter) of ``pid``, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as handle:
            stat = handle.read()
    except OSError:
        return None
    name = stat[stat.find("(") + 1 : stat.rfind(")")]
    state = stat[stat.rfind(")") + 2 : stat.rfind(")") + 3]
    return name, state


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid``, parents before their children."""
    found: list[int] = []
    level = [pid]
    while level:
        level = [child for parent in level for child in children(parent)]
        found += level
    return found


def running(pid: int) -> bool:
    """Is ``pid`` still a live process (not gone, not a zombie)?"""
    status = proc_status(pid)
    return status is not None and status[1] not in "ZX"


def wait_gone(pids: list[int], timeout: float) -> None:
    """Until every one of ``pids`` has exited (at most ``timeout`` s): the end of a run is
    reported only when nothing of it runs any more."""
    deadline = time.monotonic() + timeout
    pause = threading.Event()
    while any(running(p) for p in pids) and time.monotonic() < deadline:
        pause.wait(0.01)


def find_descendant(pid: int, name: str, *, depth: int = 6) -> int | None:
    """The nearest descendant of ``pid`` whose command name is ``name`` (breadth first)."""
    level = [pid]
    for _ in range(depth):
        level = [child for parent in level for child in children(parent)]
        for child in level:
            status = proc_status(child)
            if status is not None and status[0] == name:
                return child
    return None
