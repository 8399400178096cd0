"""Fixtures for the hook tests: a throwaway HOME and project, the real agent CLIs, and a
way to run ``bastion hook`` exactly as an agent does (a child process, stdin → stdout)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
#: Where the pinned npm CLIs are (``<prefix>/node_modules/.bin``); PATH is used otherwise.
AGENT_BIN_ENV = "BASTION_AGENT_BIN_DIR"


def bastion_exe() -> str:
    beside = Path(sys.executable).parent / "bastion"
    found = str(beside) if beside.exists() else shutil.which("bastion")
    assert found, "the bastion entry point is not installed"
    return found


def agent_cli(name: str) -> str:
    """The agent's executable; skips locally when absent, fails in CI (CI must install it)."""
    folder = os.environ.get(AGENT_BIN_ENV)
    found = shutil.which(name, path=folder) if folder else shutil.which(name)
    if not found:
        if os.environ.get("CI"):
            pytest.fail(f"{name} CLI not found (set {AGENT_BIN_ENV} to the npm .bin folder)")
        pytest.skip(f"{name} CLI not installed (set {AGENT_BIN_ENV})")
    return found


@dataclass
class Sandbox:
    """A throwaway HOME with a project, a victim folder outside it and Bastion's state."""

    root: Path
    home: Path
    project: Path
    victim: Path
    state: Path

    def env(self, **extra: str) -> dict[str, str]:
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "BASTION_STATE_DIR": str(self.state),
            # A worktree run (PYTHONPATH=src) must test its own code, not the installed one.
            **({"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}),
            **extra,
        }


def put_file(path: Path, text: str) -> None:
    """Give ``path`` the content ``text``, never visibly empty or half-written: a fixed sandbox
    (``/var/tmp/bastion-evidence-*``) is shared by the test workers, and one of them may read
    the file while another makes sure of it."""
    try:
        if path.read_text() == text:
            return
    except OSError:
        pass
    staging = path.with_name(f".{path.name}.{uuid.uuid4().hex[:12]}")
    staging.write_text(text)
    os.replace(staging, path)


def make_sandbox(root: Path) -> Sandbox:
    home = root / "home"
    project = home / "proj"
    victim = home / "x-victim"
    for folder in (project, victim, home / ".ssh"):
        folder.mkdir(parents=True, exist_ok=True)
    put_file(victim / "keep.txt", "precious\n")
    put_file(home / ".ssh" / "id_rsa", "PRIVATE KEY\n")
    return Sandbox(root, home, project, victim, root / "state")


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    return make_sandbox(tmp_path)


def settle_all(state: Path) -> None:
    """Finish every run prepared under ``state``, run or not (a hook test's rewritten lines
    mostly are not: their cgroups would wait a day for a later call)."""
    import time

    from bastion.exec.prepared import runs_dir
    from bastion.exec.settle import STALE_SECONDS, settle

    settle(runs_dir(str(state)), now=time.time() + 2 * STALE_SECONDS)


@pytest.fixture(autouse=True)
def _no_prepared_run_left(tmp_path: Path) -> Iterator[None]:
    yield
    settle_all(tmp_path / "state")


@pytest.fixture
def outside_tmp_sandbox() -> Iterator[Sandbox]:
    """Codex refuses to put its helper binaries under /tmp: this one lives in /var/tmp."""
    base = Path(os.environ.get("BASTION_E2E_DIR", "/var/tmp")) / f"bastion-e2e-{uuid.uuid4().hex[:12]}"
    try:
        yield make_sandbox(base)
    finally:
        settle_all(base / "state")
        shutil.rmtree(base, ignore_errors=True)


@dataclass
class HookRun:
    stdout: str
    stderr: str
    exit_code: int

    @property
    def json(self) -> Any:
        return json.loads(self.stdout) if self.stdout.strip() else None


def run_hook(agent: str, stdin: str | bytes, env: dict[str, str], *args: str, timeout: float = 60) -> HookRun:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [bastion_exe(), "hook", agent, *args], input=data, capture_output=True, env=env, timeout=timeout
    )
    return HookRun(done.stdout.decode(), done.stderr.decode(), done.returncode)
