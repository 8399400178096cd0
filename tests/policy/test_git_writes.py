"""Issue 31, everyday git writes: add, commit with a message, stash, a new branch or tag, a
switch that moves no file, restore --staged are workspace writes when the repository runs
nothing for them (no hook of that operation, no filter or signing program from config an
agent could have written, no editor); the person's own ~/.gitconfig is trusted as for reads.
Otherwise they ask, as before."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]

A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        [
            "git",
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "-c",
            "init.defaultBranch=main",
            *args,
        ],
        cwd=repo,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def repo(workspace: Path) -> Path:
    """A repository with two commits on main, a branch `old` at the first, one change."""
    _git(workspace, "init", "-q")
    (workspace / "notes.txt").write_text("a\n")
    _git(workspace, "add", "-A")
    _git(workspace, "commit", "-qm", "one")
    _git(workspace, "branch", "old")
    (workspace / "notes.txt").write_text("b\n")
    _git(workspace, "commit", "-qam", "two")
    _git(workspace, "branch", "same")
    (workspace / "notes.txt").write_text("c\n")
    return workspace


EVERYDAY = [
    ("git add notes.txt", A),
    ("git add -A", A),
    ("git commit -m 'update notes'", A),
    ("git commit -am wip", A),
    ("git commit --amend --no-edit", A),
    ("git stash", A),
    ("git stash push -m wip", A),
    ("git stash -m wip -- notes.txt", A),
    ("git checkout -b feature/x", A),
    ("git switch -c feature/y", A),
    ("git switch same", A),  # the same commit: no file moves
    ("git branch topic", A),
    ("git tag v1", A),
    ("git tag -a v2 -m release", A),
    ("git restore --staged notes.txt", A),
    # deletes of git's own data that stay recoverable: a merged branch, an index entry
    ("git branch -d same", A),
    ("git branch --delete same old", A),
    ("git rm --cached notes.txt", A),
    ("git rm -r -q --cached notes.txt", A),
    # an editor, a merge, a signature, files that move, options that are not everyday
    ("git commit", Q),
    ("git commit -m x -e", Q),
    ("git commit -S -m x", Q),
    ("git commit -m x --trailer 'a: b'", Q),
    ("git tag -a v3", Q),
    ("git tag -s v3 -m x", Q),
    ("git stash pop", Q),
    ("git stash -u", Q),
    ("git stash push -p", Q),
    ("git stash push --weird", Q),
    ("git branch -t topic origin/main", Q),  # writes the upstream into .git/config
    ("git branch topic old", Q),
    ("git commit -em x", Q),
    ("git commit -m x --template=t", Q),
    ("git commit -mx -e", Q),
    ("git commit --fixup=HEAD", Q),
    ("git checkout -b x old", Q),
    ("git switch old", Q),  # another commit: files move
    ("git checkout old", Q),
    ("git restore notes.txt", Q),
    ("git add -p", Q),
    ("git -c core.hooksPath=/tmp commit -m x", Q),
    ("git -C .. commit -m x", Q),
    ("git commit -m x $EXTRA", Q),
    ("git branch -D same", Q),  # an unmerged branch's commits go with it
    ("git branch -d -f same", Q),
    ("git branch -df same", Q),
    ("git branch -d", Q),
    ("git rm notes.txt", Q),  # the work-tree file too
    ("git rm --cached -f notes.txt", Q),
    ("git rm -rf --cached notes.txt", Q),
    ("git -C .. branch -d same", Q),
    ("git branch -d $BRANCH", Q),
]


@pytest.mark.parametrize(("command", "decision"), EVERYDAY)
def test_an_everyday_git_write_runs_when_the_repository_runs_nothing(
    make_gate: GateFactory, call: Call, repo: Path, command: str, decision: Decision
) -> None:
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert evaluation.decision is decision, evaluation.to_json()


def _hook(repo: Path, name: str) -> None:
    hook = repo / ".git" / "hooks" / name
    hook.write_text("#!/bin/sh\necho RAN >> /tmp/x\n")
    hook.chmod(0o755)


@pytest.mark.parametrize(
    ("hook", "command", "decision"),
    [
        ("pre-commit", "git commit -am x", Q),
        ("commit-msg", "git commit -am x", Q),
        ("post-commit", "git commit -am x", Q),
        ("pre-commit", "git add notes.txt", A),  # does not fire for add
        ("post-checkout", "git checkout -b x", Q),
        ("post-checkout", "git stash", Q),
        ("reference-transaction", "git branch x", Q),
        ("post-index-change", "git add notes.txt", Q),
        ("pre-commit.sample", "git commit -am x", A),
    ],
)
def test_a_hook_of_that_operation_makes_it_ask(
    make_gate: GateFactory, call: Call, repo: Path, hook: str, command: str, decision: Decision
) -> None:
    _hook(repo, hook)
    assert make_gate().evaluate(call("shell", command=command)).decision is decision


def test_a_hooks_path_folder_is_looked_at_too(make_gate: GateFactory, call: Call, repo: Path) -> None:
    (repo / ".githooks").mkdir()
    (repo / ".githooks" / "commit-msg").write_text("#!/bin/sh\n")
    _git(repo, "config", "core.hooksPath", ".githooks")
    gate = make_gate()
    assert [gate.evaluate(call("shell", command=c)).decision for c in ("git commit -am x", "git add -A")] == [
        Q,
        A,
    ]


@pytest.mark.parametrize(
    ("key", "value", "command"),
    [
        ("filter.x.clean", "./clean.sh", "git add notes.txt"),
        ("core.fsmonitor", "./fsmon.sh", "git add notes.txt"),
        ("commit.gpgsign", "true", "git commit -am x"),
        ("tag.gpgSign", "true", "git tag v9"),
        ("gpg.program", "./sign.sh", "git commit -am x"),
    ],
)
def test_repository_config_that_runs_a_program_makes_it_ask(
    make_gate: GateFactory, call: Call, repo: Path, key: str, value: str, command: str
) -> None:
    _git(repo, "config", key, value)
    assert make_gate().evaluate(call("shell", command=command)).decision is Q


def test_the_persons_own_config_is_their_choice(
    make_gate: GateFactory, call: Call, repo: Path, home: Path
) -> None:
    (home / ".gitconfig").write_text(
        '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n'
        "\tprocess = git-lfs filter-process\n\trequired = true\n[core]\n\tpager = delta\n"
        "[commit]\n\tgpgsign = true\n"
    )
    (repo / ".gitattributes").write_text("*.bin filter=lfs diff=lfs merge=lfs -text\n")
    gate = make_gate()
    decisions = [gate.evaluate(call("shell", command=c)).decision for c in ("git add -A", "git commit -am x")]
    assert decisions == [A, A]


def test_stash_asks_when_it_may_rewrite_a_tracked_file_an_agent_may_not_write(
    make_gate: GateFactory, call: Call, repo: Path
) -> None:
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text("{}\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "settings")
    gate = make_gate()
    decisions = [gate.evaluate(call("shell", command=c)).decision for c in ("git stash", "git commit -am x")]
    assert decisions == [Q, A]


def test_a_repository_whose_git_dir_is_elsewhere_asks(
    make_gate: GateFactory, call: Call, workspace: Path, tmp_path: Path
) -> None:
    _git(workspace, "init", "-q", "--separate-git-dir", str(tmp_path / "elsewhere.git"))
    (workspace / "a").write_text("a\n")
    assert make_gate().evaluate(call("shell", command="git add a")).decision is Q


@pytest.mark.parametrize(("mode", "decision"), [("ask-before-edit", Q), ("read-only", D), ("full-access", A)])
def test_only_the_workspace_mode_decides_them_by_themselves(
    make_gate: GateFactory, call: Call, repo: Path, mode: str, decision: Decision
) -> None:
    gate = make_gate(f'mode = "{mode}"')
    assert gate.evaluate(call("shell", command="git commit -am x")).decision is decision


def test_the_allow_says_what_was_checked(make_gate: GateFactory, call: Call, repo: Path) -> None:
    evaluation = make_gate().evaluate(call("shell", command="git add notes.txt", interactive=False))
    assert [(r.decision, r.rule, r.message) for r in evaluation.reasons] == [
        (
            A,
            "mode.workspace",
            "a git write confined to a repository inside the workspace, which runs nothing for it "
            "(no hook, filter or signing program an agent could have written) and opens no editor",
        )
    ]
