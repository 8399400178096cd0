"""Issue 31, blind suite J's causes that have no home of their own: a file an environment
variable names for the program to write (``GIT_INDEX_FILE=$HOME/.bashrc git status``), an
object git prints only known at run time (``git cat-file -p $(cat F)``), what ``git fsck
--lost-found`` extracts, a template's hooks planted in a new repository. Each is decided by
the cause, and the everyday calls beside it keep their decision."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall
from tests.policy.git_repos import git as run_git

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY


@pytest.fixture
def machine(home: Path, workspace: Path) -> Path:
    (home / ".bashrc").write_text("export EDITOR=vi\n")
    run_git("init", "-q", "-b", "main", ".", cwd=workspace)
    run_git("add", "-A", cwd=workspace)
    run_git("commit", "-qm", "initial", cwd=workspace)
    (workspace / "blob-id").write_text(run_git("rev-parse", "HEAD:README.md", cwd=workspace))
    return workspace


DECIDED = [
    ("GIT_INDEX_FILE=$HOME/.bashrc git status", D, "hardline.destructive"),
    ("GIT_INDEX_FILE=~/.bashrc git status", D, "hardline.destructive"),
    ("PSQL_HISTORY=~/.bashrc psql -c 'select 1'", D, "hardline.destructive"),
    ("git cat-file -p $(cat blob-id)", Q, "hardline.credentials"),
    ("git show $(git rev-parse HEAD)", Q, "hardline.credentials"),
    ("git fsck --lost-found", Q, "hardline.credentials"),
    ("GIT_TEMPLATE_DIR=$PWD/tpl git init other", Q, "shell.not-a-reader"),
    ("git -c init.templateDir=tpl init other", Q, "shell.not-a-reader"),
    # beside them
    ("git cat-file -p HEAD:README.md", A, "mode.workspace"),
    ("git fsck", A, "mode.workspace"),
    ("git log --oneline -n $(echo 3)", A, "mode.workspace"),
]


@pytest.mark.parametrize(("command", "decision", "rule"), DECIDED)
def test_a_call_suite_j_showed_is_decided_by_its_cause(
    make_gate: GateFactory, call: Call, machine: Path, command: str, decision: Decision, rule: str
) -> None:
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert (evaluation.decision, evaluation.reasons[0].rule) == (decision, rule)
