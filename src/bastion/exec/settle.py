"""The work that follows a prepared run, done later so that it never holds the call up.

A prepared run (``bastion.exec.prepared``) is started by the agent's own shell: no Python
waits for it to end. What ``bastion sandbox run`` does after its run is done here instead,
by whoever calls :func:`settle` next - ``prepare`` does, on every call (the next hook call),
and a hook daemon may call it on a timer: protected paths the run created are moved to the
quarantine, protected symlinks it replaced are put back, its cgroups are removed, and its
exit (bwrap's ``--json-status-fd`` report) is returned for the ledger.

Each prepared run leaves ``<runs>/<id>.json`` (what to undo) and, once started,
``<id>.status`` (bwrap writes the child's pid when it starts and the exit code when it
ends). A run is settled when its status holds an exit code, or names a child that is gone
(killed at the timeout), or when it never started within ``STALE_SECONDS`` (the line was
never run: nothing to undo, its cgroups are removed and a later start fails closed).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bastion.exec.cgroups import remove_groups
from bastion.exec.launcher_sweep import moved_by_launcher
from bastion.exec.procfs import running
from bastion.exec.quarantine import restore_links, sweep

RECORD = ".json"
STATUS = ".status"
#: A run's bwrap options (``bastion.exec.prepared``): removed with its record.
ARGS = ".args"
#: The protected paths its launcher sweeps once bwrap exits: removed with its record.
SWEEP_LIST = ".sweep"
#: A prepared line not started within this long is dropped (a person may take a while to
#: approve a call; a day is longer than any such wait).
STALE_SECONDS = 86_400.0
#: Tombstones are looked through at most this often (``SWEPT`` marks the last time).
SWEEP_SECONDS = 3600.0
SWEPT = ".swept"
#: A status file with no child pid this old: bwrap failed before the child started.
START_GRACE = 60.0
_EXIT = re.compile(rb'"exit-code"\s*:\s*(-?\d+)')
_CHILD = re.compile(rb'"child-pid"\s*:\s*(\d+)')


@dataclass(frozen=True, slots=True)
class CallOrigin:
    """The agent's call a prepared run carries out: enough to record its exit in the ledger
    as the same call (its command is hashed there, as the decision's was)."""

    command: str
    session: str | None = None
    agent: str | None = None
    turn: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"command": self.command, "session": self.session, "agent": self.agent, "turn": self.turn}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> CallOrigin:
        def text(key: str) -> str | None:
            value = data.get(key)
            return value if isinstance(value, str) else None

        return cls(str(data.get("command", "")), text("session"), text("agent"), text("turn"))


@dataclass(frozen=True, slots=True)
class RunRecord:
    """What a prepared run leaves for :func:`settle`."""

    run_id: str
    created: float
    profile: str
    cwd: str
    cgroups: tuple[str, ...] = ()
    swept: tuple[str, ...] = ()
    links: tuple[tuple[str, str], ...] = ()
    quarantine: str = ""
    #: The call it runs, for the ledger's record of its exit (a hook's prepared run).
    call: CallOrigin | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "run_id": self.run_id, "created": self.created, "profile": self.profile,
            "cwd": self.cwd, "cgroups": list(self.cgroups), "swept": list(self.swept),
            "links": [list(link) for link in self.links], "quarantine": self.quarantine,
            **({"call": self.call.to_json()} if self.call is not None else {}),
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, object]) -> RunRecord:
        def strings(key: str) -> tuple[str, ...]:
            value = data.get(key) or []
            assert isinstance(value, list)
            return tuple(str(v) for v in value)

        links = data.get("links") or []
        assert isinstance(links, list)
        origin = data.get("call")
        created = data["created"]
        assert isinstance(created, int | float)
        return cls(
            run_id=str(data["run_id"]),
            created=float(created),
            profile=str(data.get("profile", "")),
            cwd=str(data.get("cwd", "")),
            cgroups=strings("cgroups"),
            swept=strings("swept"),
            links=tuple((str(p), str(t)) for p, t in links),
            quarantine=str(data.get("quarantine", "")),
            call=CallOrigin.from_json(origin) if isinstance(origin, dict) else None,
        )


@dataclass(frozen=True, slots=True)
class Settled:
    """One prepared run, finished (or never started). ``exit_code`` is None when the run
    was killed before bwrap could report one (the timeout) or never started."""

    run_id: str
    started: bool
    exit_code: int | None
    profile: str
    cwd: str
    #: Protected paths the run created (moved to the quarantine) or replaced (put back).
    swept: tuple[str, ...] = ()
    #: The call it ran (None: prepared by hand, ``bastion sandbox prepare``).
    call: CallOrigin | None = None
    #: Seconds from its preparation to its end (its status file's last change).
    duration: float = 0.0


def write_record(folder: str, record: RunRecord) -> None:
    os.makedirs(folder, mode=0o700, exist_ok=True)
    path = os.path.join(folder, record.run_id + RECORD)
    temp = path + ".tmp"
    with open(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w", encoding="utf-8") as handle:
        json.dump(record.to_json(), handle)
    os.replace(temp, path)


def settle(folder: str, *, now: float | None = None) -> tuple[Settled, ...]:
    """Finish every prepared run in ``folder`` that has ended; the runs settled. Safe to
    call from several processes at once: a record is claimed (renamed) before it is used."""
    clock = time.time() if now is None else now
    try:
        names = [n for n in os.listdir(folder) if n.endswith(RECORD)]
    except OSError:
        return ()
    done = []
    _drop_old_status(folder, names, clock)
    for name in sorted(names):
        path = os.path.join(folder, name)
        if _not_started(path, os.path.join(folder, name[: -len(RECORD)] + STATUS), clock):
            continue  # the common case of a pending line: no file read
        try:
            with open(path, encoding="utf-8") as handle:
                record = RunRecord.from_json(json.load(handle))
        except (OSError, ValueError, KeyError, AssertionError, TypeError):
            continue  # being written, or not ours: left alone
        status = os.path.join(folder, record.run_id + STATUS)
        state = _state(status, record, clock)
        if state is None or (_occupied(record.cgroups) and clock - record.created <= STALE_SECONDS):
            continue  # still running, or its launcher (timeout, bwrap) is still exiting
        claimed = f"{path}.settling-{os.getpid()}"
        try:
            os.rename(path, claimed)
        except OSError:
            continue  # another process settles it
        done.append(_finish(record, *state, ended=_mtime(status, clock)))
        for leftover in (claimed, *(os.path.join(folder, record.run_id + end) for end in (ARGS, SWEEP_LIST))):
            with contextlib.suppress(OSError):
                os.unlink(leftover)
    return tuple(done)


def _not_started(record: str, status: str, now: float) -> bool:
    """A line not started yet (no status file) and not stale (its record is younger than
    ``STALE_SECONDS``): nothing to settle, known without reading the record."""
    if os.path.exists(status):
        return False
    try:
        return now - os.stat(record).st_mtime <= STALE_SECONDS
    except OSError:
        return True  # gone: settled by another process


def _state(status: str, record: RunRecord, now: float) -> tuple[bool, int | None] | None:
    """(started, exit code) of an ended run, None while it may still run or start. Past
    ``STALE_SECONDS`` a run is over whatever its status says (no run outlives its timeout
    by a day: what is left of it is killed with its groups)."""
    stale = now - record.created > STALE_SECONDS
    try:
        with open(status, "rb") as handle:
            text = handle.read(65536)
        changed = os.stat(status).st_mtime
    except OSError:
        return (False, None) if stale else None
    code = _EXIT.search(text)
    if code is not None:
        return True, int(code.group(1))
    child = _CHILD.search(text)
    if child is None:
        return (True, None) if stale or now - changed > START_GRACE else None
    return (True, None) if stale or not running(int(child.group(1))) else None


def _occupied(groups: Sequence[str]) -> bool:
    """Is a process still in one of the run's groups? (Removing a group kills what is in
    it: a run's ``timeout`` exiting after bwrap reported the exit must not be killed.)"""
    for group in groups:
        try:
            with open(os.path.join(group, "cgroup.procs"), encoding="ascii") as handle:
                pids = handle.read().split()
        except OSError:
            continue  # gone: empty
        if any(running(int(pid)) for pid in pids):
            return True
    return False  # empty, or only exited processes their parent has not reaped yet


def _finish(record: RunRecord, started: bool, code: int | None, *, ended: float) -> Settled:
    swept: tuple[str, ...] = ()
    if started and record.quarantine:
        # What the launcher moved the moment bwrap exited (``launcher_sweep``), then what is left.
        moved = moved_by_launcher(record.quarantine, record.run_id, record.swept)
        swept = (*moved, *sweep(record.swept, record.quarantine))
        swept += restore_links(record.links, record.quarantine)
    remove_groups(list(record.cgroups))
    duration = max(ended - record.created, 0.0) if started else 0.0
    return Settled(record.run_id, started, code, record.profile, record.cwd, swept, record.call, duration)


def _mtime(path: str, default: float) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return default


def _drop_old_status(folder: str, records: Sequence[str], now: float) -> None:
    """A settled run's status file stays as its tombstone (the line refuses to start again
    while it exists: ``set -o noclobber``); it goes after ``2 * STALE_SECONDS``. The folder
    is looked through at most once per ``SWEEP_SECONDS`` (a marker file's age says when),
    so that a settle after every call does not stat a day of tombstones."""
    marker = os.path.join(folder, SWEPT)
    try:
        if now - os.stat(marker).st_mtime < SWEEP_SECONDS:
            return
    except OSError:
        pass
    with contextlib.suppress(OSError), open(marker, "w", encoding="ascii"):
        os.utime(marker)
    live = {n[: -len(RECORD)] for n in records}
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            if entry.name.endswith(STATUS) and entry.name[: -len(STATUS)] not in live:
                with contextlib.suppress(OSError):
                    if now - entry.stat().st_mtime > 2 * STALE_SECONDS:
                        os.unlink(entry.path)


def pending(folder: str) -> Sequence[str]:
    """The ids of prepared runs not settled yet."""
    try:
        return sorted(n[: -len(RECORD)] for n in os.listdir(folder) if n.endswith(RECORD))
    except OSError:
        return []
