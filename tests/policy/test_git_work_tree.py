"""A repository whose work tree is HOME (``core.worktree``, ``--work-tree``, a ``.git`` file or a
git dir in HOME): reading, adding, stashing or deleting the files git does not track there
reaches every credential store of HOME: denied (#31, suite D). The project's own work tree,
and commands that touch only tracked files or history, keep their decision."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall

A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY


def _git(cwd: Path, *args: str) -> None:
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"}
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


@pytest.fixture
def repos(home: Path, workspace: Path) -> Path:
    """``homeview``: a repository in the workspace whose work tree is HOME; ``dotfiles``: a bare
    git dir in the workspace named with --git-dir; the workspace's own repository."""
    _git(workspace, "init", "-q")
    view = workspace / "repos/homeview"
    view.mkdir(parents=True)
    _git(view, "init", "-q")
    _git(view, "config", "core.worktree", str(home))
    linked = workspace / "repos/linked"
    linked.mkdir()
    (linked / ".git").write_text(f"gitdir: {view / '.git'}\n")  # a .git file: the same tree
    return workspace


DENIED = [
    ("cd repos/homeview && git grep --untracked -i -e token", "hardline.credentials"),
    ("cd repos/homeview && git add -A && git diff --cached", "hardline.credentials"),
    ("git -C repos/homeview add .", "hardline.credentials"),
    ("git -C repos/homeview clean -ffdx -- :/", "hardline.destructive"),
    ("git -C repos/homeview stash -u", "hardline.destructive"),
    ("git -C repos/homeview stash push --include-untracked", "hardline.destructive"),
    ("git -C repos/linked add -A", "hardline.credentials"),
    ("git --work-tree=.. add -A", "hardline.credentials"),  # the workspace's parent is HOME
    ("git --work-tree / grep --no-index token", "hardline.credentials"),
    # No repository there yet: the one an earlier part of the call makes holds HOME (suite F).
    ("git -C ~ init -q && git -C ~ add -A", "hardline.credentials"),
    ("cd ~ && git init -q && git add .", "hardline.credentials"),
    ("git -C / add -A", "hardline.credentials"),
    # Writing the work tree there puts the repository's files in place of HOME's (suite G).
    ("git -C repos/homeview checkout -- .", "hardline.destructive"),
    ("git -C repos/homeview reset --hard", "hardline.destructive"),
    ("git -C repos/homeview restore .", "hardline.destructive"),
]


@pytest.mark.parametrize(("command", "rule"), DENIED)
def test_git_on_untracked_files_of_a_work_tree_holding_home_is_denied(
    make_gate: Callable[..., Gate], call: Callable[..., ToolCall], repos: Path, command: str, rule: str
) -> None:
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert (evaluation.decision, evaluation.reasons[0].rule) == (D, rule)


KEPT = [
    ("git status", A),
    ("git add -A", A),
    ("git grep --untracked token", A),
    ("git stash -u", Q),
    ("git -C repos/homeview stash list", Q),  # its core.worktree still asks (a program it names)
]


@pytest.mark.parametrize(("command", "decision"), KEPT)
def test_the_project_s_own_work_tree_keeps_its_decision(
    make_gate: Callable[..., Gate],
    call: Callable[..., ToolCall],
    repos: Path,
    command: str,
    decision: Decision,
) -> None:
    assert make_gate().evaluate(call("shell", command=command)).decision is decision
