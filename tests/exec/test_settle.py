"""After a prepared run: settled once it ended, left alone while it may still start or run."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

from bastion.exec import cgroups, seccomp
from bastion.exec.settle import STALE_SECONDS, RunRecord, Settled, pending, settle, write_record


def _record(folder: Path, run_id: str, quarantine: Path, swept: tuple[str, ...] = ()) -> RunRecord:
    record = RunRecord(
        run_id, time.time(), "workspace-write, network: none", "/w", (), swept, (), str(quarantine)
    )
    write_record(str(folder), record)
    return record


def test_a_run_not_started_waits_then_expires_without_undoing_anything(tmp_path: Path) -> None:
    created = tmp_path / "w" / ".envrc"
    created.parent.mkdir()
    _record(tmp_path / "runs", "a", tmp_path / "q", (str(created),))
    created.write_text("made outside any sandbox\n")  # by the person, not by the run

    early = settle(str(tmp_path / "runs"))
    late = settle(str(tmp_path / "runs"), now=time.time() + STALE_SECONDS + 1)

    assert early == ()
    assert late == (Settled("a", False, None, "workspace-write, network: none", "/w"),)
    assert created.read_text() == "made outside any sandbox\n"
    assert pending(str(tmp_path / "runs")) == []


def test_a_running_run_is_left_alone_and_a_killed_one_is_settled(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    _record(runs, "live", tmp_path / "q")
    _record(runs, "dead", tmp_path / "q")
    (runs / "live.status").write_text(json.dumps({"child-pid": os.getpid()}))
    (runs / "dead.status").write_text(json.dumps({"child-pid": 2**22 + 1}))  # above pid_max

    done = settle(str(runs))

    assert [(s.run_id, s.started, s.exit_code) for s in done] == [("dead", True, None)]
    assert pending(str(runs)) == ["live"]


def test_an_ended_run_s_protected_paths_are_quarantined_once(tmp_path: Path) -> None:
    runs, made = tmp_path / "runs", tmp_path / "w" / ".mcp.json"
    made.parent.mkdir()
    _record(runs, "r", tmp_path / "q", (str(made),))
    made.write_text("{}")
    (runs / "r.status").write_text('{ "child-pid": 1 }\n{ "exit-code": 0 }\n')

    first, second = settle(str(runs)), settle(str(runs))

    assert [(s.exit_code, s.swept) for s in first] == [(0, (str(made),))]
    assert second == ()
    assert not made.exists()
    assert [p.name for p in (tmp_path / "q").rglob(".mcp.json")] == [".mcp.json"]
    assert (runs / "r.status").exists()  # the tombstone: the line refuses to run again


def test_the_seccomp_program_is_written_once_and_replaced_when_altered(tmp_path: Path) -> None:
    path = seccomp.program_file(str(tmp_path))
    first = os.stat(path).st_ino
    again = seccomp.program_file(str(tmp_path))
    unchanged = os.stat(again).st_ino == first
    os.chmod(path, 0o644)
    Path(path).write_bytes(b"\0" * 8)
    repaired = seccomp.program_file(str(tmp_path))

    assert (again, unchanged) == (path, True)
    assert repaired == path and Path(path).read_bytes() == seccomp.filter_program()
    assert os.stat(path).st_mode & 0o777 == 0o444


@pytest.mark.skipif(not cgroups.controllers(), reason="no writable cgroup here")
def test_a_run_whose_group_still_holds_a_process_is_not_settled_yet(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    groups = cgroups.make_groups(f"bastion-test-{os.getpid()}", 16, 0)
    record = RunRecord("r", time.time(), "read-only, network: none", "/w", tuple(groups))
    write_record(str(runs), record)
    (runs / "r.status").write_text('{ "child-pid": 1 }\n{ "exit-code": 0 }\n')
    lingering = subprocess.Popen(["sh", "-c", f"echo $$ > {groups[0]}/cgroup.procs && exec sleep 30"])
    try:
        for _ in range(3000):  # until the shell has joined (at most 30 s)
            if Path(groups[0], "cgroup.procs").read_text().split():
                break
            threading.Event().wait(0.01)
        early = settle(str(runs))
    finally:
        lingering.kill()
        lingering.wait()
    late = settle(str(runs))

    assert (early, [s.exit_code for s in late]) == ((), [0])
    assert [os.path.exists(g) for g in groups] == [False] * len(groups)
