"""End to end with the real agent CLIs, offline: each test serves the model API on loopback
(Anthropic Messages for Claude Code, OpenAI Responses for Codex), installs Bastion with
``bastion install AGENT`` into a throwaway HOME/project, lets the fake model ask for a
destructive or a benign call, and asserts what the real CLI did.

The tool under test is pre-allowed in the agent itself (``--allowedTools Bash``; Codex with
its sandbox and approvals bypassed), so Bastion alone stops the call.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from bastion.adapters.hooks.install import install
from tests.adapters.hooks.conftest import Sandbox, agent_cli, bastion_exe
from tests.adapters.hooks.fake_models import FakeModelServer, Script

AGENT_TIMEOUT = 180


def _quiet(*_: Any) -> None:
    return None


def run_claude(sandbox: Sandbox, tool: str, arguments: dict[str, Any], **env: str) -> Script:
    claude = agent_cli("claude")
    settings = sandbox.project / ".claude" / "settings.json"
    script = Script(tool, arguments)
    with FakeModelServer(script) as server:
        done = subprocess.run(
            [
                claude,
                "-p",
                "do the task",
                "--settings",
                str(settings),
                "--output-format",
                "json",
                "--allowedTools",
                tool,
            ],
            cwd=sandbox.project,
            capture_output=True,
            text=True,
            timeout=AGENT_TIMEOUT,
            env=sandbox.env(
                ANTHROPIC_BASE_URL=server.url,
                ANTHROPIC_API_KEY="sk-ant-dummy",
                CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
                DISABLE_AUTOUPDATER="1",
                **env,
            ),
        )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"] == "done"
    return script


def install_claude(sandbox: Sandbox, executable: str | None = None) -> None:
    install(
        "claude",
        scope="project",
        cwd=str(sandbox.project),
        env=sandbox.env(),
        executable=executable,
        out=_quiet,
    )


def test_claude_code_runs_no_destructive_command_bastion_denies(sandbox: Sandbox) -> None:
    install_claude(sandbox)

    script = run_claude(sandbox, "Bash", {"command": f"rm -rf {sandbox.victim}", "description": "clean"})

    assert (sandbox.victim / "keep.txt").read_text() == "precious\n"
    assert len(script.results) == 1
    assert "nobody can be asked" in script.results[0]["content"]
    assert script.results[0]["is_error"] is True


def test_claude_code_runs_a_hardline_denial_with_the_policy_marker(sandbox: Sandbox) -> None:
    install_claude(sandbox)

    script = run_claude(sandbox, "Bash", {"command": "git log; rm -rf ~", "description": "log"})

    assert (sandbox.victim / "keep.txt").exists()
    assert "[policy-denied]" in script.results[0]["content"]


def test_claude_code_runs_a_benign_command_bastion_allows(sandbox: Sandbox) -> None:
    install_claude(sandbox)

    script = run_claude(sandbox, "Bash", {"command": "echo ok > marker", "description": "mark"})

    assert (sandbox.project / "marker").read_text() == "ok\n"
    assert script.results == [{"content": "(Bash completed with no output)", "is_error": False}]


def test_claude_code_reads_no_secret_file_bastion_denies(sandbox: Sandbox) -> None:
    (sandbox.project / ".env").write_text("TOKEN=s3cret\n")
    install_claude(sandbox)

    script = run_claude(sandbox, "Read", {"file_path": str(sandbox.project / ".env")})

    assert "s3cret" not in script.results[0]["content"]
    assert "deny_read" in script.results[0]["content"]


def test_claude_code_keeps_ssh_keys_unread_by_the_deny_rules_install_mirrors(sandbox: Sandbox) -> None:
    install_claude(sandbox)

    script = run_claude(sandbox, "Read", {"file_path": str(sandbox.home / ".ssh" / "id_rsa")})

    assert script.results == [
        {
            "content": "<tool_use_error>File is in a directory that is denied by your permission "
            "settings.</tool_use_error>",
            "is_error": True,
        }
    ]


def test_claude_code_runs_nothing_when_the_hook_process_crashes(sandbox: Sandbox) -> None:
    crash = sandbox.root / "crashing-bastion"
    crash.write_text("#!/bin/sh\nkill -9 $$\n")
    crash.chmod(0o755)
    install_claude(sandbox, executable=str(crash))

    script = run_claude(sandbox, "Bash", {"command": f"rm -rf {sandbox.victim}", "description": "clean"})

    assert (sandbox.victim / "keep.txt").exists()
    assert script.results[0]["is_error"] is True


def test_claude_code_runs_nothing_when_bastion_hangs_past_its_deadline(sandbox: Sandbox) -> None:
    fifo = sandbox.root / "policy-that-never-opens.toml"
    os.mkfifo(fifo)  # opening it for reading blocks for ever: a real hang inside the decision
    wrapper = sandbox.root / "hanging-bastion"
    wrapper.write_text(f'#!/bin/sh\nexec {bastion_exe()} "$@" --policy {fifo} --deadline 2\n')
    wrapper.chmod(0o755)
    install_claude(sandbox, executable=str(wrapper))

    script = run_claude(sandbox, "Bash", {"command": f"rm -rf {sandbox.victim}", "description": "clean"})

    assert (sandbox.victim / "keep.txt").exists()
    assert "no decision within 2 s" in script.results[0]["content"]


def run_codex(sandbox: Sandbox, arguments: dict[str, Any]) -> Script:
    codex = agent_cli("codex")
    codex_home = sandbox.root / "codex-home"
    script = Script("exec_command", arguments)
    with FakeModelServer(script) as server:
        (codex_home / "config.toml").write_text(
            'model = "gpt-5-codex"\nmodel_provider = "fake"\n\n[model_providers.fake]\n'
            f'name = "fake"\nbase_url = "{server.url}/v1"\nwire_api = "responses"\n'
            'env_key = "FAKE_OPENAI_KEY"\n'
        )
        done = subprocess.run(
            [
                codex,
                "exec",
                "--dangerously-bypass-hook-trust",
                "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox",
                "-C",
                str(sandbox.project),
                "do the task",
            ],
            capture_output=True,
            text=True,
            timeout=AGENT_TIMEOUT,
            stdin=subprocess.DEVNULL,
            env=sandbox.env(CODEX_HOME=str(codex_home), FAKE_OPENAI_KEY="sk-dummy"),
        )
    assert done.returncode == 0, done.stderr[-2000:]
    return script


def install_codex(sandbox: Sandbox) -> None:
    codex_home = sandbox.root / "codex-home"
    codex_home.mkdir(parents=True, exist_ok=True)
    install(
        "codex",
        scope="user",
        cwd=str(sandbox.project),
        env=sandbox.env(CODEX_HOME=str(codex_home)),
        out=_quiet,
    )


def test_codex_runs_no_destructive_command_bastion_denies(outside_tmp_sandbox: Sandbox) -> None:
    sandbox = outside_tmp_sandbox
    install_codex(sandbox)

    script = run_codex(sandbox, {"cmd": f"rm -rf {sandbox.victim}"})

    assert (sandbox.victim / "keep.txt").read_text() == "precious\n"
    assert "nobody can be asked" in script.results[0]["content"]


def test_codex_runs_a_benign_command_bastion_allows(outside_tmp_sandbox: Sandbox) -> None:
    sandbox = outside_tmp_sandbox
    install_codex(sandbox)

    script = run_codex(sandbox, {"cmd": "echo ok > marker"})

    assert Path(sandbox.project / "marker").read_text() == "ok\n"
    assert "Process exited with code 0" in script.results[0]["content"]
