"""The README's command table is true: every example in it runs, as typed, with the exit code it
promises; and the README renders (every code fence closed, one command table)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
TRANSCRIPT = ROOT / "tests" / "evidence" / "fixtures" / "claude-session.jsonl"
#: A row of the CLI table: `| command | what it does | `example` → code |`.
EXAMPLE = re.compile(r"^\| `bastion .*\| `(?P<example>bastion [^`]+)` → (?P<expect>\d+|runs) \|$")


def _cli_section() -> str:
    start = README.index("\n### CLI\n")
    following = [README.find(mark, start + 1) for mark in ("\n## ", "\n### ")]
    return README[start : min(i for i in following if i > 0)]


def examples() -> list[tuple[str, str]]:
    rows = [EXAMPLE.match(line) for line in _cli_section().splitlines()]
    return [(m["example"], m["expect"]) for m in rows if m is not None]


def test_every_code_fence_in_the_readme_is_closed() -> None:
    fences = [line for line in README.splitlines() if line.lstrip().startswith("```")]
    assert len(fences) % 2 == 0
    # Opening fences name a language; a bare one opens nothing it would not also close.
    openers = fences[0::2]
    assert all(f.strip() != "```" for f in openers), openers


def test_the_cli_section_is_one_table_listing_each_command_once_with_an_example() -> None:
    lines = _cli_section().splitlines()
    table = [i for i, line in enumerate(lines) if line.startswith("| ")]
    assert table == list(range(table[0], table[-1] + 1)), "the table is split by a line that is not a row"
    rows = [line for line in lines if line.startswith("| `bastion")]
    commands = [row.split("|")[1].strip() for row in rows]
    assert len(commands) == len(set(commands))
    assert len(examples()) == len(rows) >= 20  # every row has a runnable example


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home, work = tmp_path / "home", tmp_path / "work"
    (work / ".claude").mkdir(parents=True)
    (work / ".bastion").mkdir()
    home.mkdir()
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    (work / "README.md").write_text("hello\n")
    (work / "policy.toml").write_text('mode = "workspace"\n')
    (work / "proposed.toml").write_text('mode = "read-only"\n')
    (work / ".bastion" / "policy.toml").write_text('mode = "workspace"\n')
    (work / ".claude" / "settings.json").write_text(
        '{"permissions": {"allow": ["Bash(npm run test:*)"], "deny": ["Read(./.env)"]}}'
    )
    (work / "calls.jsonl").write_text(
        '{"tool": "shell", "args": {"command": "git status"}}\n{"tool": "read", "args": {"path": "README.md"}}\n'
    )
    shutil.copy(TRANSCRIPT, work / "session.jsonl")
    env = {k: v for k, v in os.environ.items() if not k.startswith("BASTION_")}
    env.update(
        HOME=str(home),
        BASTION_STATE_DIR=str(tmp_path / "state"),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        COLUMNS="120",
    )
    made = subprocess.run(
        ["bastion", "keys", "create", "--role", "approver"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    env["KEY"] = made.stdout.strip()
    return work, env


@pytest.mark.parametrize(("example", "expect"), examples(), ids=[e for e, _ in examples()])
def test_the_readme_example_runs_as_typed_with_the_exit_code_it_promises(
    example: str, expect: str, workspace: tuple[Path, dict[str, str]]
) -> None:
    if (
        example.startswith("bastion sandbox run")
        and shutil.which("bwrap") is None
        and not os.environ.get("CI")
    ):
        pytest.skip("bubblewrap is not installed here (CI installs it)")
    cwd, env = workspace
    if expect == "runs":
        _runs(example, cwd, env)
        return
    done = subprocess.run(
        ["bash", "-c", example], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )
    assert (done.returncode, "Traceback" in done.stderr) == (int(expect), False), done.stderr[-2000:]


def _runs(example: str, cwd: Path, env: dict[str, str]) -> None:
    """A server: it prints where it listens and keeps serving until stopped."""
    process = subprocess.Popen(
        ["bash", "-c", f"exec {example}"],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stderr is not None
    try:
        first = process.stdout.readline()
        time.sleep(0.5)
        alive = process.poll() is None
    finally:
        process.terminate()
        process.wait(timeout=30)
        process.stdout.close()
        process.stderr.close()
    assert ("listening on" in first, alive) == (True, True), first
