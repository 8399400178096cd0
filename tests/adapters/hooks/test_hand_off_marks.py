"""The installed report command starts the hook only while a hand-off awaits its report: run by
the real ``sh`` here, as Claude Code runs it, with marks made and cleared as the hook does."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

from bastion.adapters.hooks.hand_off_marks import (
    STALE_SECONDS,
    clear,
    guarded_report,
    mark,
    marks_dir,
)


def run_report(inner: str, env: dict[str, str]) -> int:
    command = guarded_report(inner)
    return subprocess.run(["sh", "-c", command], env={"PATH": os.environ["PATH"], **env}).returncode


def test_with_no_hand_off_marked_the_report_runs_nothing_and_exits_0(tmp_path: Path) -> None:
    ran = tmp_path / "ran"
    env = {"BASTION_STATE_DIR": str(tmp_path / "state")}

    code = run_report(f"touch {shlex.quote(str(ran))}", env)

    assert (code, ran.exists()) == (0, False)


def test_a_marked_hand_off_makes_the_report_run_the_hook(tmp_path: Path) -> None:
    ran = tmp_path / "ran"
    env = {"BASTION_STATE_DIR": str(tmp_path / "state")}
    mark(env, session="s1", agent="claude/toolu_1")

    code = run_report(f"touch {shlex.quote(str(ran))}", env)

    assert (code, ran.exists()) == (0, True)


def test_the_state_dir_defaults_to_homes_as_the_hook_client_finds_it(tmp_path: Path) -> None:
    ran = tmp_path / "ran"
    env = {"HOME": str(tmp_path)}
    mark(env, session="s1", agent="claude/toolu_1")

    code = run_report(f"touch {shlex.quote(str(ran))}", env)

    assert (marks_dir(env), code, ran.exists()) == (str(tmp_path / ".local/state/bastion/hand-offs"), 0, True)


def test_a_failing_hook_still_never_blocks_the_agent(tmp_path: Path) -> None:
    env = {"BASTION_STATE_DIR": str(tmp_path)}
    mark(env, session="s1", agent="claude/toolu_1")

    assert run_report("sh -c 'exit 2'", env) == 0


def test_a_settled_hand_off_clears_only_its_own_mark_and_an_ended_turn_its_sessions(tmp_path: Path) -> None:
    env = {"BASTION_STATE_DIR": str(tmp_path)}
    for session, tool in [("s1", "a"), ("s1", "b"), ("s1", "c"), ("s2", "a")]:
        mark(env, session=session, agent=f"claude/toolu_{tool}")
    folder = Path(marks_dir(env))

    clear(env, session="s1", agent="claude/toolu_a")
    after_one = len(list(folder.iterdir()))
    clear(env, session="s1")
    after_turn = len(list(folder.iterdir()))
    clear(env, session="s2", agent="claude/toolu_other")

    assert (after_one, after_turn, len(list(folder.iterdir()))) == (3, 1, 1)


def test_a_mark_left_by_a_killed_session_is_cleared_by_a_later_report_once_stale(tmp_path: Path) -> None:
    env = {"BASTION_STATE_DIR": str(tmp_path)}
    folder = Path(marks_dir(env))
    mark(env, session="dead", agent="claude/toolu_x")
    (dead,) = folder.iterdir()
    mark(env, session="live", agent="claude/toolu_y")
    (live,) = set(folder.iterdir()) - {dead}
    long_ago = dead.stat().st_mtime - STALE_SECONDS - 60
    os.utime(dead, (long_ago, long_ago))

    clear(env, session="another", agent="claude/toolu_z")

    assert list(folder.iterdir()) == [live]
