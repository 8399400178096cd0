"""A few cases of the corpus through the real agent CLIs, offline (the model API served on
loopback asks for the case's shell call): Claude Code, Codex and Gemini CLI installed with
``bastion install`` as a user would, run headless, with the world's fake HOME. The judge is
the suite's own (``runner``), less the agent's own state folder, which is the agent's to
write (``~/.claude…``, ``~/.gemini/tmp``; Codex keeps its in ``CODEX_HOME`` outside the world).

Headless runs cannot approve an ask, so the cases are ones the gate allows: they must run
contained. (Denials through the real CLIs: tests/adapters/hooks/test_e2e_*.)
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bastion.adapters.hooks.install import install
from tests.adapters.hooks.conftest import agent_cli
from tests.adapters.hooks.fake_models import FakeModelServer, Script
from tests.containment.corpus import CORPUS
from tests.containment.runner import printed, under_any
from tests.containment.world import PayloadServer, World, changes, make_world
from tests.exec.sandbox_helpers import require_bwrap

DEADLINE = 180
CASES = {harm.id: harm for harm in CORPUS}
GEMINI_SETTINGS = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
}
#: The agent's own state, written by the agent itself on every run.
OWN_STATE = {
    "claude": ("home/.claude.json", "home/.claude/"),
    "codex": (),
    "gemini": ("home/.gemini/tmp", "home/.gemini/projects.json", "home/.gemini/installation_id",
               "home/.gemini/state.json", "home/.gemini/google_accounts.json", "home/.gemini/history",
               "home/.gemini/trusted_hooks.json"),
}  # fmt: skip
PROTECTED_AGENT_FILES = ("home/.claude/settings.json", "home/.claude/CLAUDE.md", "home/.claude/commands")


@pytest.fixture
def real_world() -> Iterator[tuple[World, PayloadServer]]:
    """Outside /tmp: Codex refuses to put its helper binaries under it."""
    require_bwrap()
    base = Path(os.environ.get("BASTION_E2E_DIR", "/var/tmp")) / f"bastion-harm-{uuid.uuid4().hex[:12]}"
    base.mkdir(parents=True)
    try:
        yield from make_world(base)
    finally:
        subprocess.run(["chmod", "-R", "u+rwX", str(base)], check=False, capture_output=True)
        subprocess.run(["rm", "-rf", str(base)], check=False)


def _quiet(*_: Any) -> None:
    return None


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> None:
    child = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)  # fmt: skip
    try:
        _, stderr = child.communicate(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        _, stderr = child.communicate()
        pytest.fail(f"{argv[0]} still running after {DEADLINE} s; stderr: {stderr[-2000:]}")
    assert child.returncode == 0, stderr[-2000:]


def _env(agent: str, world: World) -> dict[str, str]:
    env = {**world.env(), "BASTION_HOOK_AUTOSTART": "0"}
    if agent == "codex":
        return {**env, "CODEX_HOME": str(world.root / "codex-home"), "FAKE_OPENAI_KEY": "sk-dummy"}
    return env


def _install(agent: str, world: World) -> None:
    """As the user would, before the run (so not part of what the run changed)."""
    env = _env(agent, world)
    if agent == "codex":
        (world.root / "codex-home").mkdir(exist_ok=True)
    if agent == "gemini":
        (world.home / ".gemini" / "settings.json").write_text(json.dumps(GEMINI_SETTINGS))
    scope = "user" if agent == "codex" else "project"
    install(agent, scope=scope, cwd=str(world.workspace), env=env, out=_quiet)


def _drive(agent: str, world: World, command: str) -> Script:
    env = _env(agent, world)
    cwd = world.workspace
    if agent == "claude":
        script = Script("Bash", {"command": command, "description": "run"})
        with FakeModelServer(script) as server:
            _run([agent_cli("claude"), "-p", "do the task", "--settings", str(cwd / ".claude" / "settings.json"),
                  "--allowedTools", "Bash"], cwd,
                 {**env, "ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "sk-ant-dummy",
                  "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1"})  # fmt: skip
        return script
    if agent == "codex":
        codex_home = world.root / "codex-home"
        script = Script("exec_command", {"cmd": command})
        with FakeModelServer(script) as server:
            (codex_home / "config.toml").write_text(
                'model = "gpt-5-codex"\nmodel_provider = "fake"\n\n[model_providers.fake]\n'
                f'name = "fake"\nbase_url = "{server.url}/v1"\nwire_api = "responses"\nenv_key = "FAKE_OPENAI_KEY"\n'
            )
            # Bastion's sandbox replaces Codex's (bastion.agents.codex.NESTING_NOTE).
            _run([agent_cli("codex"), "exec", "--dangerously-bypass-hook-trust", "--skip-git-repo-check",
                  "--sandbox", "danger-full-access", "-C", str(cwd), "do the task"], cwd, env)  # fmt: skip
        return script
    script = Script("run_shell_command", {"command": command, "description": "run"})
    with FakeModelServer(script) as server:
        _run([agent_cli("gemini"), "-p", "do the task", "--yolo"], cwd,
             {**env, "GEMINI_API_KEY": "dummy", "GOOGLE_GEMINI_BASE_URL": server.url,
              "GEMINI_CLI_TRUST_WORKSPACE": "true"})  # fmt: skip
    return script


def _own_state(agent: str, rel: str) -> bool:
    if any(rel == p or rel.startswith(p + os.sep) for p in PROTECTED_AGENT_FILES):
        return False
    return any(rel == p or rel.startswith(p) for p in OWN_STATE[agent])


def _landed(agent: str, world: World, server: PayloadServer, case: str) -> tuple[list[str], Script]:
    command = CASES[case].command.replace("{port}", str(server.port))
    _install(agent, world)
    before = world.snapshot()
    script = _drive(agent, world, command)
    after = world.snapshot()
    outside = {rel for rel in changes(before, after) if world.outside(rel) and not _own_state(agent, rel)}
    landed = [f"changed {rel}" for rel in sorted(outside) if not under_any(rel, outside)]
    output = "\n".join(str(result["content"]) for result in script.results).encode()
    if printed(world, output):
        landed.append("canary printed")
    landed += [f"canary copied into {rel}" for rel in world.leaked(after, before)]
    assert len(script.results) == 1, script.results  # the call reached the agent's tool
    return landed, script


RUNS = [
    *(pytest.param(agent, "ps-e", id=f"{agent}-ps-e") for agent in ("claude", "codex", "gemini")),
    pytest.param("claude", "bare-append", id="claude-bare-append"),
]


@pytest.mark.parametrize(("agent", "case"), RUNS)
def test_a_corpus_call_through_the_real_agent_lands_nothing_outside_the_workspace(
    agent: str, case: str, real_world: tuple[World, PayloadServer]
) -> None:
    world, server = real_world

    landed, script = _landed(agent, world, server, case)

    assert landed == [], (landed, script.results)
