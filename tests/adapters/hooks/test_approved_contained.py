"""Approved asks run contained (``[exec] contain = "all"``, the default): the command the
person approves in the agent's prompt is the contained one, everyday approved work still
succeeds in it, and what an approved test target tries outside the workspace does not land.
Workspace code (``make test``) is not even asked about: it is allowed because it runs
contained (``shell.contained-code``), and the same holds for it.

Each case runs the real ``bastion hook claude`` (interactive: the ASK goes to Claude's
prompt, with ``updatedInput``), then runs the rewritten command exactly as Claude Code would
after the person says yes, with a fake HOME holding an rc file and an ssh key."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.adapters.hooks.conftest import Sandbox, run_hook
from tests.adapters.hooks.contained import is_prepared
from tests.exec.sandbox_helpers import require_bwrap

MAKEFILE = """\
test:
\techo ok > result.txt
evil:
\techo evil >> $(HOME)/.bashrc; cat $(HOME)/.ssh/id_rsa; echo ran > ran.txt
"""
PYPROJECT = """\
[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"
[project]
name = "tiny"
version = "0.1"
"""


@pytest.fixture
def project(sandbox: Sandbox) -> Path:
    require_bwrap()
    root = sandbox.project
    (root / "Makefile").write_text(MAKEFILE)
    (sandbox.home / ".bashrc").write_text("# rc\n")
    return root


def _approved_and_run(
    sandbox: Sandbox, command: str, *, asked: bool = True
) -> subprocess.CompletedProcess[str]:
    """The contained command Claude's prompt shows for ``command``, run once approved
    (``asked``), or the contained command Claude runs for an allowed one (not asked)."""
    env = sandbox.env(CLAUDE_CODE_ENTRYPOINT="cli")
    payload = {"hook_event_name": "PreToolUse", "cwd": str(sandbox.project), "session_id": "s",
               "tool_name": "Bash", "tool_input": {"command": command}}  # fmt: skip
    out = run_hook("claude", json.dumps(payload), env).json["hookSpecificOutput"]
    rewritten = out["updatedInput"]["command"]
    contained = " sandbox run --profile " in rewritten if asked else is_prepared(rewritten)
    assert (out["permissionDecision"], contained) == ("ask" if asked else "allow", True), rewritten
    return subprocess.run(
        ["bash", "-c", rewritten], cwd=sandbox.project, env=env, capture_output=True, text=True, timeout=180
    )


def test_an_allowed_make_test_writes_its_result_in_the_workspace(sandbox: Sandbox, project: Path) -> None:
    done = _approved_and_run(sandbox, "make test", asked=False)

    assert (done.returncode, (project / "result.txt").read_text()) == (0, "ok\n")


def test_an_allowed_make_target_cannot_touch_the_rc_files_or_print_the_key(
    sandbox: Sandbox, project: Path
) -> None:
    done = _approved_and_run(sandbox, "make evil", asked=False)

    assert (project / "ran.txt").read_text() == "ran\n"  # the target ran, contained
    assert (sandbox.home / ".bashrc").read_text() == "# rc\n"
    assert "PRIVATE KEY" not in done.stdout + done.stderr
    assert (sandbox.home / ".ssh" / "id_rsa").read_text() == "PRIVATE KEY\n"


def test_an_approved_git_push_to_a_remote_in_the_workspace_lands(sandbox: Sandbox, project: Path) -> None:
    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    env = {**os.environ, "HOME": str(sandbox.home)}
    for args in (["init", "-q", "-b", "main", "."], ["commit", "-q", "--allow-empty", "-m", "one"],
                 ["init", "-q", "--bare", "remote.git"], ["remote", "add", "origin", str(project / "remote.git")]):  # fmt: skip
        subprocess.run([*git, *args], cwd=project, env=env, check=True)

    done = _approved_and_run(sandbox, "git push origin main")

    pushed = subprocess.run(
        ["git", "-C", "remote.git", "log", "--format=%s", "main"], cwd=project, capture_output=True, text=True
    )
    assert (done.returncode, pushed.stdout) == (0, "one\n")


def test_an_approved_npm_install_of_a_local_package_succeeds(sandbox: Sandbox, project: Path) -> None:
    (project / "dep").mkdir()
    (project / "dep" / "package.json").write_text('{"name": "dep", "version": "1.0.0"}')
    app = {"name": "app", "version": "1.0.0", "dependencies": {"dep": "file:./dep"}}
    (project / "package.json").write_text(json.dumps(app))

    done = _approved_and_run(sandbox, "npm install --no-audit --no-fund")

    assert (done.returncode, (project / "node_modules" / "dep").is_symlink()) == (0, True), done.stderr


def test_an_approved_editable_pip_install_of_a_local_project_succeeds(
    sandbox: Sandbox, project: Path
) -> None:
    (project / "tiny" / "tiny").mkdir(parents=True)
    (project / "tiny" / "tiny" / "__init__.py").write_text("NAME = 'tiny'\n")
    (project / "tiny" / "pyproject.toml").write_text(PYPROJECT)
    command = (
        "python3 -m venv --system-site-packages .venv && "
        ".venv/bin/pip install --no-index --no-build-isolation -e tiny"
    )

    done = _approved_and_run(sandbox, command, asked=False)  # no index, no host: contained code

    imported = subprocess.run(  # from elsewhere: the editable install, not the folder, is found
        [str(project / ".venv" / "bin" / "python"), "-c", "import tiny; print(tiny.NAME)"],
        cwd=sandbox.root,
        capture_output=True,
        text=True,
    )
    assert (done.returncode, imported.stdout) == (0, "tiny\n"), done.stderr


def test_an_approved_write_outside_the_workspace_lands_where_it_was_named_and_nowhere_else(
    sandbox: Sandbox, project: Path
) -> None:
    outside, other = sandbox.root / "outside", sandbox.root / "other"
    outside.mkdir()
    other.mkdir()

    _approved_and_run(sandbox, f"touch {outside}/x; d={other}; touch $d/z")

    assert (sorted(p.name for p in outside.iterdir()), sorted(other.iterdir())) == (["x"], [])


@pytest.mark.parametrize("target", ["~/.bashrc", "~/.claude/settings.json", "~/.gitconfig"])
def test_an_approved_write_to_an_rc_file_or_agent_settings_does_not_land(
    sandbox: Sandbox, project: Path, target: str
) -> None:
    before = {p: p.read_bytes() for p in sandbox.home.rglob("*") if p.is_file() and project not in p.parents}

    _approved_and_run(sandbox, f"echo evil >> {target}")

    after = {p: p.read_bytes() for p in sandbox.home.rglob("*") if p.is_file() and project not in p.parents}
    assert after == before
