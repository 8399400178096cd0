"""``bastion logs`` reads the ledger; ``logs verify`` names the first bad record."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.adapters.cli.test_approvals_cli import BASTION, _env, read_line, run


@pytest.fixture
def three_calls(env: dict[str, str], workspace: Path) -> Path:
    """An allow, a hardline deny and a non-interactive deny, in two sessions."""
    run(["request", "--session", "a", "read", "README.md"], env, workspace)
    run(["request", "--session", "a", "read", "~/.ssh/id_rsa"], env, workspace)
    run(["request", "--session", "b", "--non-interactive", "write", "/opt/elsewhere"], env, workspace)
    return Path(env["BASTION_STATE_DIR"]) / "bastion.db"


def test_logs_json_is_an_array_of_events_saying_which_rule_decided_and_where(
    three_calls: Path, env: dict[str, str], workspace: Path
) -> None:
    events = json.loads(run(["logs", "--json"], env, workspace).stdout)
    assert [
        (e["seq"], e["kind"], e["decision"], e["resolver"], e["rule"], e["session"], e["summary"])
        for e in events
    ] == [
        (1, "decided", "allow", "policy", "paths.roots", "a", "read: README.md"),
        (2, "decided", "deny", "policy", "hardline.credentials", "a", "read: ~/.ssh/id_rsa"),
        (3, "decided", "deny", "policy", "paths.outside-roots", "b", "write: /opt/elsewhere"),
    ]
    assert set(events[0]) == {
        "seq",
        "kind",
        "decision_id",
        "time",
        "tool",
        "decision",
        "resolver",
        "rule",
        "source",
        "message",
        "reasons",
        "args_hash",
        "summary",
        "session",
        "agent",
        "turn",
        "parent",  # the parent session of a delegated child (issue #19); null otherwise
        "raw_args",
        "exit_code",
        "duration",
        "approver",
        "prev",
        "hash",
    }
    assert (events[0]["raw_args"], len(events[0]["args_hash"]), events[1]["prev"]) == (
        None,
        64,
        events[0]["hash"],
    )


@pytest.mark.parametrize(
    ("args", "seqs"),
    [
        (["--session", "a"], [1, 2]),
        (["--decision", "deny"], [2, 3]),
        (["--session", "b", "--decision", "deny"], [3]),
        (["--since", "1h"], [1, 2, 3]),
        (["--since", "2999-01-01T00:00:00Z"], []),
        (["--limit", "1"], [3]),
    ],
)
def test_logs_filters_combine(
    three_calls: Path, env: dict[str, str], workspace: Path, args: list[str], seqs: list[int]
) -> None:
    assert [e["seq"] for e in json.loads(run(["logs", "--json", *args], env, workspace).stdout)] == seqs


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            ["--since", "yesterday"],
            "error: --since 'yesterday': use a duration like 10m, 2h, 1d or a time like "
            "2024-05-01T12:00:00Z\n",
        ),
        (["--decision", "maybe"], "error: --decision 'maybe': use allow, ask or deny\n"),
    ],
)
def test_a_bad_filter_is_a_usage_error_saying_what_to_write(
    env: dict[str, str], workspace: Path, args: list[str], error: str
) -> None:
    result = run(["logs", *args], env, workspace)
    assert (result.returncode, result.stderr) == (2, error)


def test_logs_as_a_table_shows_the_rule_and_where_it_is_defined(
    three_calls: Path, env: dict[str, str], workspace: Path
) -> None:
    table = run(["logs"], env, workspace)
    assert (table.returncode, "hardline.credentials @ built-in" in table.stdout) == (0, True)


def test_verify_passes_on_an_intact_ledger(three_calls: Path, env: dict[str, str], workspace: Path) -> None:
    result = run(["logs", "verify", "--json"], env, workspace)
    data = json.loads(result.stdout)
    assert (result.returncode, data["ok"], data["checked"], data["bad_seq"]) == (0, True, 3, None)


def test_verify_fails_naming_the_edited_record(
    three_calls: Path, env: dict[str, str], workspace: Path
) -> None:
    conn = sqlite3.connect(three_calls)
    with conn:
        conn.execute("UPDATE ledger SET decision = 'allow' WHERE seq = 2")
    conn.close()
    result = run(["logs", "verify"], env, workspace)
    assert (result.returncode, result.stderr.splitlines()[0]) == (
        1,
        "ledger broken at record 2: record 2 was altered: its content does not match its keyed hash "
        "(or the ledger key is not the one it was written with)",
    )


def test_verify_fails_naming_where_a_record_was_removed(
    three_calls: Path, env: dict[str, str], workspace: Path
) -> None:
    conn = sqlite3.connect(three_calls)
    with conn:
        conn.execute("DELETE FROM ledger WHERE seq = 1")
    conn.close()
    data = json.loads(run(["logs", "verify", "--json"], env, workspace).stdout)
    assert (data["ok"], data["bad_seq"], data["problem"]) == (
        False,
        2,
        "record 1 is missing (found 2 after 0)",
    )


def test_follow_streams_new_events_as_json_lines(env: dict[str, str], workspace: Path) -> None:
    run(["request", "--session", "a", "read", "README.md"], env, workspace)
    child = subprocess.Popen(
        [*BASTION, "logs", "--follow", "--json"],
        env=_env(env),
        cwd=workspace,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert json.loads(read_line(child.stdout, r"^\{"))["seq"] == 1
        run(["request", "--session", "z", "read", "README.md"], env, workspace)
        fresh = json.loads(read_line(child.stdout, r"^\{"))
        assert (fresh["seq"], fresh["session"]) == (2, "z")
    finally:
        child.kill()
        child.wait(timeout=30)
        assert child.stdout is not None
        child.stdout.close()


def test_logs_on_a_fresh_state_dir_says_there_is_nothing(env: dict[str, str], workspace: Path) -> None:
    result = run(["logs"], env, workspace)
    assert (result.returncode, result.stdout, os.path.isdir(env["BASTION_STATE_DIR"])) == (
        0,
        "no events\n",
        True,
    )


@pytest.mark.parametrize("width", [80, 120])
def test_logs_on_a_terminal_fits_the_width_without_splitting_a_word(
    three_calls: Path, env: dict[str, str], workspace: Path, width: int
) -> None:
    terminal = {**_env(env), "COLUMNS": str(width), "TTY_COMPATIBLE": "1", "NO_COLOR": "1"}
    shown = subprocess.run(
        [*BASTION, "logs"], env=terminal, cwd=workspace, capture_output=True, text=True, timeout=60
    )
    out = re.sub(r"\x1b\[[0-9;]*m", "", shown.stdout)
    lines = out.splitlines()
    assert lines and all(len(line) <= width for line in lines)
    words = {w for line in lines for w in line.replace("│", " ").replace("┃", " ").split()}
    # Whole words of every column shown (the old layout printed "decis" over "ion").
    assert {"seq", "decision", "summary", "decided", "allow", "deny"} <= words
    assert {"read:", "README.md", "~/.ssh/id_rsa"} <= words
    if width >= 120:
        assert {"paths.roots", "hardline.credentials", "paths.outside-roots"} <= words
