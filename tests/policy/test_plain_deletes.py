"""A delete of the workspace paths a command names is decided like the write tool: allowed
in workspace mode when every path is literal, inside the workspace (never a root itself), an
allowed write, and no repository's history is among what it takes; anything else asks (or
denies, where the write tool would). Contained or not: a sandbox gives nothing back."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall
from bastion.policy import plain_deletes
from bastion.policy.plain_deletes import WHY

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]

A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY


@pytest.fixture
def ws(workspace: Path, home: Path) -> Path:
    for folder in (
        "build/lib",
        "dist",
        "node_modules/.cache/x",
        "node_modules/.bin",
        "vendor/dep/.git",
        "other/.hg",
        "docs",
        "ci/.github/workflows",
        "agent/.claude",
        ".venv/lib/site-packages",
        "data/snapshot/objects",
        "data/snapshot/refs",
    ):
        (workspace / folder).mkdir(parents=True)
    for name in (
        "notes.txt",
        "build/lib/a.o",
        "dist/app.whl",
        "docs/old.md",
        "vendor/dep/x.c",
        "node_modules/.bin/tsc",
        "ci/.github/workflows/test.yml",
        "agent/.claude/settings.json",
        ".venv/lib/site-packages/distutils-precedence.pth",
        "data/snapshot/HEAD",
    ):
        (workspace / name).write_text("x\n")
    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a", "-C", str(workspace)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "src/app.py", "docs/old.md"], check=True)  # tracked work
    (workspace / "out").symlink_to(home)
    (home / ".bashrc").write_text("# rc\n")
    os.link(home / ".bashrc", workspace / "env.sh")
    return workspace


DELETES = [
    ("rm -f notes.txt", A),
    ("rm -rf build dist", A),
    ("rm -rf node_modules/.cache", A),
    ("rmdir dist/none", A),  # nothing there: nothing taken
    ("unlink notes.txt", A),
    ("cd build && rm -rf lib", A),
    ("rm -rf missing-folder", A),
    ("rm -rf node_modules", A),  # its programs go: removing one plants nothing
    ("rm -rf .venv", A),  # a .pth, whose write would ask
    # what asks or denies
    ("rm -r docs", Q),  # it holds a tracked file: uncommitted changes nothing could give back
    ("rm -rf src", Q),
    ("rm -rf vendor", Q),  # a nested checkout's history goes with it
    ("rm -rf other", Q),  # a Mercurial repository's
    ("rm -rf vendor/dep/.git", Q),
    ("rm -rf .git", Q),
    ("rm -rf data/snapshot", Q),  # a bare repository under a plain name: its history
    ("rm -rf data", Q),
    ("rm -rf ci", Q),  # the checks CI runs go with it
    ("rm -rf agent", Q),  # an agent's permission file (its deny rules) goes with it
    ("rm -rf .", Q),
    ("rm -rf *", D),  # `out` among them: a link to HOME, judged as what it names
    ("rm out", D),  # rm would take the link only; the path policy judges it as HOME: stricter
    ("rm -rf build/*", Q),  # a glob
    ("rm -rf $DIR", Q),
    ("rm -rf ../elsewhere", Q),
    ("rm -rf ~/tmp", Q),
    ("rm .env", D),
    ("rm env.sh", D),  # a hard link to ~/.bashrc: the write tool would refuse it too
    ("rm --frobnicate notes.txt", Q),  # an option the table does not know
    ("sudo rm -f notes.txt", Q),
    ("find . -name '*.o' -delete", Q),
    ("git clean -ffdx", Q),
]


@pytest.mark.parametrize(("command", "decision"), DELETES)
def test_a_delete_of_named_workspace_paths_is_decided_like_the_write_tool(
    make_gate: GateFactory, call: Call, ws: Path, command: str, decision: Decision
) -> None:
    for contained in (False, True):
        evaluation = make_gate(contained=contained).evaluate(call("shell", command=command))
        assert evaluation.decision is decision, (contained, evaluation.to_json())


def test_a_folder_in_no_repository_asks_a_file_there_does_not(
    make_gate: GateFactory, call: Call, ws: Path
) -> None:
    shutil.rmtree(ws / ".git")
    gate = make_gate()

    decided = [gate.evaluate(call("shell", command=c)).decision for c in ("rm -rf build", "rm -f notes.txt")]

    assert decided == [Q, A]


def test_the_allow_says_why(make_gate: GateFactory, call: Call, ws: Path) -> None:
    evaluation = make_gate().evaluate(call("shell", command="rm -rf build"))
    assert [(r.decision, r.rule, r.message) for r in evaluation.reasons] == [(A, "mode.workspace", WHY)]


@pytest.mark.parametrize(
    ("mode", "decision"), [("ask-before-edit", Q), ("read-only", D), ("workspace", A), ("full-access", Q)]
)
def test_only_the_workspace_mode_lets_a_plain_delete_run_by_itself(
    make_gate: GateFactory, call: Call, ws: Path, mode: str, decision: Decision
) -> None:
    gate = make_gate(f'mode = "{mode}"')
    assert gate.evaluate(call("shell", command="rm -f notes.txt")).decision is decision


def test_a_folder_too_big_to_look_through_asks(
    make_gate: GateFactory, call: Call, ws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(plain_deletes, "MAX_ENTRIES", 2)
    (ws / "many").mkdir()
    for n in range(3):
        (ws / "many" / f"f{n}").write_text("")

    assert make_gate().evaluate(call("shell", command="rm -rf many")).decision is Q
    assert make_gate().evaluate(call("shell", command="rm -rf dist")).decision is A
