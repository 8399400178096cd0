"""A write into what a repository runs asks, whatever the repository's folder is called
(#30 item 6), and so does a write to config that makes a later agent or tool run code
(#31 root cause 7): by the write family and by the shell alike, in every mode."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
GIT = shutil.which("git")
ASKS = (Decision.ASK, ["hardline.agent-config"])


def git(cwd: Path, *args: str) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd), "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env)


@pytest.fixture
def repos(workspace: Path) -> Path:
    if GIT is None:
        pytest.skip("git is not installed")
    (workspace / "data").mkdir()
    git(workspace / "data", "init", "-q", "--bare", "x.git")
    git(workspace / "data", "init", "-q", "--bare", "y")
    git(workspace, "init", "-q", ".")
    git(workspace, "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-q", "--allow-empty", "-m", "x")
    git(workspace, "worktree", "add", "-q", "wt")
    (workspace / "vendor").mkdir()
    git(workspace / "vendor", "init", "-q", "--bare", "store")
    (workspace / "sub").mkdir()
    (workspace / "sub" / ".git").write_text("gitdir: ../vendor/store\n")
    (workspace / ".hg").mkdir()
    (workspace / "notes" / "refs").mkdir(parents=True)
    (workspace / "notes" / "HEAD").write_text("a heading\n")
    return workspace


GUARDED = [
    "data/x.git/config",
    "data/x.git/hooks/post-checkout",
    "data/x.git/info/attributes",
    "data/y/config",  # a bare repository not named .git
    "data/y/hooks/pre-commit",
    "data/y/config.worktree",
    "vendor/store/hooks/post-index-change",  # what sub/.git points at
    "sub/.git",  # repointing a repository
    "new.git/hooks/post-checkout",  # a repository about to be made
    ".git/worktrees/wt/config.worktree",
    ".hg/hgrc",
    "lib/.hg/hgrc-not-shared",
    ".vscode/mcp.json",
    ".claude/commands/deploy.md",
    ".devcontainer/devcontainer.json",
    "app.code-workspace",
    ".github/workflows/ci.yml",
    ".yarnrc.yml",
    "rust-toolchain.toml",
    ".cargo/config.toml",
    ".mvn/jvm.config",
    ".pre-commit-config.yaml",
    ".exrc",
    "sub/dir/.nvimrc",
    ".nvim.lua",
    ".zed/settings.json",
    ".zed/tasks.json",
    ".continue/config.json",
    ".continue/config.yaml",
    ".idea/workspace.xml",
    ".idea/runConfigurations/Main.xml",
    ".lfsconfig",
    ".gitattributes",
    "lib/.gitattributes",
    ".envrc",
    ".tool-versions",
    ".lvimrc",
    ".vim/coc-settings.json",
    ".jj/repo/config.toml",
    ".venv/pip.conf",
    "toxfile.py",
    "src/Directory.Build.props",
]


@pytest.mark.parametrize("mode", ["workspace", "full-access"])
@pytest.mark.parametrize("path", GUARDED)
def test_a_write_into_what_a_repository_or_a_later_tool_runs_asks(
    make_gate: GateFactory, call: Call, repos: Path, path: str, mode: str
) -> None:
    gate = make_gate(f'mode = "{mode}"')
    for tool_call in (
        call("write", path=path, content="x"),
        call("shell", command=f"echo x >> {path}"),
        call("shell", command=f"cp README.md {path}"),
    ):
        evaluation = gate.evaluate(tool_call)
        assert (evaluation.decision, [r.rule for r in evaluation.reasons]) == ASKS, tool_call


def test_the_reason_names_the_repository(make_gate: GateFactory, call: Call, repos: Path) -> None:
    evaluation = make_gate().evaluate(call("write", path="data/y/hooks/pre-commit", content="x"))
    assert evaluation.reasons[0].matched == f"{repos}/data/y/hooks/pre-commit ~ {repos}/data/y"
    assert "is the hooks of the repository" in evaluation.reasons[0].message


ORDINARY = [
    "data/x.git/description",  # inside a git dir, but git runs nothing from it
    "data/y/README",
    "notes/config",  # HEAD and refs but no objects: not a repository
    "src/config",
    "hooks/pre-commit",  # a folder named hooks outside any repository
    ".github/dependabot.yml",
    "config.toml",
    ".editorconfig",  # data only: no editor runs what it says
    ".idea/misc.xml",
    ".zed/notes.md",
]


@pytest.mark.parametrize("path", ORDINARY)
def test_a_write_elsewhere_in_the_workspace_stays_allowed(
    make_gate: GateFactory, call: Call, repos: Path, path: str
) -> None:
    gate = make_gate()
    assert gate.evaluate(call("write", path=path, content="x")).decision is Decision.ALLOW
    assert gate.evaluate(call("shell", command=f"echo x > {path}")).decision is Decision.ALLOW


GIT_CONFIG_WRITES = [
    ("git config user.name x", ASKS),
    ("git config --local user.name x", ASKS),
    ("git config --worktree user.name x", ASKS),
    # (both the cwd's repository and data/x.git: a cd's target is a superset)
    ("cd data/x.git && git config user.name x", (Decision.ASK, ["hardline.agent-config"] * 2)),
    ("git config --file data/y/config user.name x", ASKS),
    ("git config -f data/x.git/config user.name x", ASKS),
    ("git config --global user.name x", ASKS),
    ("git config --system user.name x", (Decision.DENY, ["hardline.system"])),
    ("git config -f team.cfg user.name x", (Decision.ALLOW, ["mode.full-access"])),
    ("git config --get user.name", (Decision.ALLOW, ["mode.full-access"])),
    ("git config user.name", (Decision.ALLOW, ["mode.full-access"])),
]


@pytest.mark.parametrize(("command", "expected"), GIT_CONFIG_WRITES)
def test_git_config_writing_a_repository_s_config_asks_in_every_mode(
    make_gate: GateFactory, call: Call, repos: Path, command: str, expected: tuple[Decision, list[str]]
) -> None:
    evaluation = make_gate('mode = "full-access"').evaluate(call("shell", command=command))
    assert (evaluation.decision, [r.rule for r in evaluation.reasons]) == expected


SPELLINGS = [
    "./data/x.git/config",
    "data//y/config",
    "data/../data/y/hooks/post-checkout",
    "data/y/./info/attributes",
    "link/hooks/pre-commit",  # a symlink to data/y
    "sub/../vendor/store/config",
    "~/proj/data/y/config",
]


@pytest.mark.parametrize("path", SPELLINGS)
def test_every_spelling_of_a_repository_s_control_files_asks(
    make_gate: GateFactory, call: Call, repos: Path, path: str
) -> None:
    (repos / "link").symlink_to(repos / "data" / "y")
    gate = make_gate('mode = "full-access"')
    for tool_call in (call("write", path=path, content="x"), call("shell", command=f"echo x > {path}")):
        evaluation = gate.evaluate(tool_call)
        assert (evaluation.decision, [r.rule for r in evaluation.reasons]) == ASKS, tool_call
