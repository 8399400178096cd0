"""``git add`` reads every new file below the folders it names: a hard link there to a
credential of HOME is staged whole (suite J: ``git add -A && git diff --cached`` printed
``~/.aws/credentials``), denied; the everyday adds beside it stay allowed."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall
from tests.policy.git_repos import GIT
from tests.policy.git_repos import git as run_git

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
A, D = Decision.ALLOW, Decision.DENY
needs_git = pytest.mark.skipif(GIT is None, reason="git is not installed")


@pytest.fixture
def linked(home: Path, workspace: Path) -> Path:
    """A repository with one commit, a new hard link in notes/ to ~/.aws/credentials and a
    new ordinary file in docs/."""
    (home / ".aws").mkdir()
    (home / ".aws/credentials").write_text("[default]\naws_secret_access_key = Qw7Zp2Lk9Xv4\n")
    run_git("init", "-q", "-b", "main", ".", cwd=workspace)
    run_git("add", "-A", cwd=workspace)
    run_git("commit", "-qm", "initial", cwd=workspace)
    (workspace / "notes").mkdir()
    os.link(home / ".aws/credentials", workspace / "notes/aws.txt")
    (workspace / "docs").mkdir()
    (workspace / "docs/guide.md").write_text("# guide\n")
    return workspace


DECIDED = [
    ("git add -A", D),
    ("git add .", D),
    ("git add notes", D),
    ("git add notes/aws.txt", D),
    ("git add -- notes", D),
    ("git add ':/'", D),
    ("git add -A && git diff --cached", D),
    ("git add docs", A),
    ("git add docs/guide.md", A),
    ("git add -u", A),  # only what git tracks
    ("git add -A docs", A),
]


@needs_git
@pytest.mark.parametrize(("command", "decision"), DECIDED)
def test_git_add_staging_a_hard_link_to_a_credential_is_denied(
    make_gate: GateFactory, call: Call, linked: Path, command: str, decision: Decision
) -> None:
    evaluation = make_gate().evaluate(call("shell", command=command))
    rules = {r.rule for r in evaluation.reasons if r.decision is D}
    assert (evaluation.decision, rules) == (decision, {"hardline.credentials"} if decision is D else set())


@needs_git
def test_home_named_as_the_work_tree_with_a_variable_is_home(
    make_gate: GateFactory, call: Call, linked: Path
) -> None:
    # Suite J: `git --work-tree=$HOME add -A` stages HOME's credentials, `clean -fdx` deletes
    # what HOME holds: $HOME after `=` is HOME, as written plainly.
    gate = make_gate()
    decided = {
        command: (evaluation.decision, evaluation.reasons[0].rule)
        for command in ("git --work-tree=$HOME add -A", "git --work-tree=$HOME clean -fdx")
        for evaluation in [gate.evaluate(call("shell", command=command))]
    }
    assert decided == {
        "git --work-tree=$HOME add -A": (D, "hardline.credentials"),
        "git --work-tree=$HOME clean -fdx": (D, "hardline.destructive"),
    }
