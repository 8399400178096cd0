"""Issue #30 item 3, against the real CLIs offline (model API on loopback): which agents apply
a hook's rewrite of a shell call, and that Bastion's rewrite makes the call run contained.

Measured with the pinned CLIs: Gemini CLI 0.61.0 applies ``hookSpecificOutput.tool_input``
(BeforeTool) and Codex 0.171.0 applies ``updatedInput`` with ``permissionDecision: "allow"``
(PreToolUse); Qwen Code 0.15.10 ignores ``updatedInput`` on PreToolUse and runs the call as
the model wrote it. Each case below runs one shell call a user rule allows: a probe that
tries to append to ``~/.bashrc`` and then records, in the workspace, what it managed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bastion.adapters.hooks.install import install
from tests.adapters.hooks.conftest import Sandbox, agent_cli
from tests.adapters.hooks.fake_models import FakeModelServer, Script
from tests.adapters.hooks.test_e2e_gemini import USER_SETTINGS
from tests.exec.sandbox_helpers import require_bwrap

DEADLINE = 120
USER_POLICY = '[[rule]]\ntool = "shell"\npattern = "python3 scripts/*"\naction = "allow"\n'
PROBE = """
import json, os, sys
home = json.load(open("scripts/target.json"))["home"]
seen = os.path.exists(os.path.join(home, ".bashrc"))
try:
    with open(os.path.join(home, ".bashrc"), "a") as handle:
        handle.write("evil\\n")
    rc = "written"
except OSError as exc:
    rc = type(exc).__name__
open("probe.json", "w").write(json.dumps({"bashrc": rc, "bashrc_seen": seen}))
"""
RC = "# rc\n"


def _quiet(*_: Any) -> None:
    return None


def _source_path() -> dict[str, str]:
    return {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}


def _project(sandbox: Sandbox) -> str:
    require_bwrap()
    (sandbox.home / ".config" / "bastion").mkdir(parents=True, exist_ok=True)
    (sandbox.home / ".config" / "bastion" / "policy.toml").write_text(USER_POLICY)
    (sandbox.home / ".bashrc").write_text(RC)
    (sandbox.project / "scripts").mkdir()
    (sandbox.project / "scripts" / "probe.py").write_text(PROBE)
    (sandbox.project / "scripts" / "target.json").write_text(json.dumps({"home": str(sandbox.home)}))
    return "python3 scripts/probe.py"


def _probe(sandbox: Sandbox, script: Script) -> dict[str, Any]:
    written = sandbox.project / "probe.json"
    assert written.exists(), f"the probe did not run: {script.results}"
    found: dict[str, Any] = json.loads(written.read_text())
    return found


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    child = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)  # fmt: skip
    try:
        stdout, stderr = child.communicate(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        stdout, stderr = child.communicate()
        pytest.fail(f"{argv[0]} still running after {DEADLINE} s; stderr: {stderr[-2000:]}")
    assert child.returncode == 0, stderr[-2000:]
    return subprocess.CompletedProcess(argv, 0, stdout, stderr)


def test_gemini_cli_runs_the_allowed_shell_call_as_bastion_rewrote_it_contained(sandbox: Sandbox) -> None:
    command = _project(sandbox)
    (sandbox.home / ".gemini").mkdir(parents=True, exist_ok=True)
    (sandbox.home / ".gemini" / "settings.json").write_text(json.dumps(USER_SETTINGS))
    install("gemini", scope="project", cwd=str(sandbox.project), env=sandbox.env(), out=_quiet)
    script = Script("run_shell_command", {"command": command, "description": "probe"})

    with FakeModelServer(script) as server:
        _run([agent_cli("gemini"), "-p", "do the task", "--yolo"], sandbox.project,
             sandbox.env(GEMINI_API_KEY="dummy", GOOGLE_GEMINI_BASE_URL=server.url, BASTION_HOOK_AUTOSTART="0",
                         GEMINI_CLI_TRUST_WORKSPACE="true", **_source_path()))  # fmt: skip

    assert _probe(sandbox, script) == {"bashrc": "written", "bashrc_seen": False}  # a private, empty HOME
    assert (sandbox.home / ".bashrc").read_text() == RC
    assert len(script.results) == 1 and script.results[0]["is_error"] is False
    assert (
        "[System] Tool input parameters were modified by a hook before execution."
        in script.results[0]["content"]
    )


def _codex(sandbox: Sandbox, command: str, *flags: str) -> Script:
    codex_home = sandbox.root / "codex-home"
    codex_home.mkdir(parents=True, exist_ok=True)
    env = sandbox.env(CODEX_HOME=str(codex_home), FAKE_OPENAI_KEY="sk-dummy", BASTION_HOOK_AUTOSTART="0",
                      **_source_path())  # fmt: skip
    install("codex", scope="user", cwd=str(sandbox.project), env=env, out=_quiet)
    script = Script("exec_command", {"cmd": command})
    with FakeModelServer(script) as server:
        (codex_home / "config.toml").write_text(
            'model = "gpt-5-codex"\nmodel_provider = "fake"\n\n[model_providers.fake]\n'
            f'name = "fake"\nbase_url = "{server.url}/v1"\nwire_api = "responses"\n'
            'env_key = "FAKE_OPENAI_KEY"\n'
        )
        _run([agent_cli("codex"), "exec", "--dangerously-bypass-hook-trust", "--skip-git-repo-check", *flags,
              "-C", str(sandbox.project), "do the task"], sandbox.project, env)  # fmt: skip
    return script


def test_codex_runs_the_allowed_shell_call_as_bastion_rewrote_it_contained(
    outside_tmp_sandbox: Sandbox,
) -> None:
    sandbox = outside_tmp_sandbox
    command = _project(sandbox)

    script = _codex(sandbox, command, "--dangerously-bypass-approvals-and-sandbox")

    assert _probe(sandbox, script) == {"bashrc": "written", "bashrc_seen": False}
    assert (sandbox.home / ".bashrc").read_text() == RC
    assert len(script.results) == 1 and "Process exited with code 0" in script.results[0]["content"]


def test_codex_in_its_own_sandbox_cannot_host_the_rewritten_call_which_fails_instead_of_running(
    outside_tmp_sandbox: Sandbox,
) -> None:
    """Why ``install codex`` tells the user to pick one sandbox (bastion.agents.codex.NESTING_NOTE)."""
    sandbox = outside_tmp_sandbox
    command = _project(sandbox)

    script = _codex(sandbox, command, "--sandbox", "workspace-write")

    assert not (sandbox.project / "probe.json").exists()
    assert (sandbox.home / ".bashrc").read_text() == RC
    # The prepared line stops before bwrap: Codex's sandbox makes Bastion's state read-only.
    assert "Process exited with code 125" in script.results[0]["content"]
    assert (
        "bastion: its status file cannot be made (it ran already, or the state dir is read-only here); "
        "the contained run is not started" in script.results[0]["content"]
    )


def test_qwen_code_ignores_a_pre_tool_use_rewrite_so_its_allowed_call_runs_as_written(
    sandbox: Sandbox,
) -> None:
    """What keeps Qwen in UNCONTAINED_AGENTS: a hook that answers allow with ``updatedInput``
    (here a stand-in for Bastion that rewrites to a marker write) is obeyed on the decision
    and ignored on the input."""
    command = _project(sandbox)
    stand_in = sandbox.root / "rewriting-hook"
    stand_in.write_text(
        "#!/bin/sh\ncat >/dev/null\n"
        'echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow",'
        '"permissionDecisionReason":"ok","updatedInput":{"command":"echo rewritten > rewritten.txt"}}}\'\n'
    )
    stand_in.chmod(0o755)
    install("qwen", scope="project", cwd=str(sandbox.project), env=sandbox.env(), executable=str(stand_in),
            out=_quiet)  # fmt: skip
    script = Script("run_shell_command", {"command": command})

    with FakeModelServer(script) as server:
        _run([agent_cli("qwen"), "-p", "do the task", "--yolo", "--auth-type", "openai"], sandbox.project,
             sandbox.env(OPENAI_API_KEY="sk-dummy", OPENAI_BASE_URL=f"{server.url}/v1", OPENAI_MODEL="qwen-test"))  # fmt: skip

    assert not (sandbox.project / "rewritten.txt").exists()
    assert _probe(sandbox, script) == {"bashrc": "written", "bashrc_seen": True}
    assert (sandbox.home / ".bashrc").read_text() == RC + "evil\n"
