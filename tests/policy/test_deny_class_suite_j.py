"""Issue 31, blind suite J's causes that have no home of their own: a file an environment
variable names for the program to write (``GIT_INDEX_FILE=$HOME/.bashrc git status``), an
object git prints only known at run time (``git cat-file -p $(cat F)``), what ``git fsck
--lost-found`` extracts, a template's hooks planted in a new repository, the X display's
cookie, a Terraform output printed by name, files an in-place edit empties or an archiver
removes, a shell string resolved as the top level is (``bash -lc '…'``, Codex's every call).
Each is decided by the cause, and the everyday calls beside it keep their decision."""

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
    ("cat ~/.Xauthority", D, "hardline.credentials"),  # the X display's cookie
    ("terraform output db_password", D, "hardline.credentials"),  # named: printed in plain text
    ("keyring get github dev", D, "hardline.credentials"),  # a password the keyring stores
    ("python3 -m keyring get github dev", D, "hardline.credentials"),
    ("perl -i -ne '' ~/.bashrc", D, "hardline.destructive"),  # rewritten to what it prints: nothing
    ("zip -m /tmp/x.zip ~/.bashrc", D, "hardline.destructive"),  # archived, then removed
    ("tar --remove-files -cf /tmp/x.tar ~/.bashrc", D, "hardline.destructive"),
    ("rm -rf ~-/../home/.ssh", D, "hardline.credentials"),  # a credential's name, ~- known at run time
    ("cat ~bob/.aws/credentials", D, "hardline.credentials"),
    # a shell string (how Codex runs every command) is resolved as the top level is
    ("bash -lc 'rm -rf /tmp/../$HOME'", D, "hardline.destructive"),
    ("bash -lc '$(echo rm) -rf ~/.ssh'", D, "hardline.credentials"),
    ("bash -c 'env -C ~ rm -f .bashrc'", D, "hardline.destructive"),
    # beside them
    ("perl -pi -e 's/a/b/' ~/.bashrc", Q, "hardline.agent-config"),  # an edit in place: asked
    ("perl -Mstrict -ne '' ~/.bashrc", Q, "paths.outside-roots"),  # -M's value holds an i: no -i
    ("bash -lc 'git status'", A, "mode.workspace"),
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
