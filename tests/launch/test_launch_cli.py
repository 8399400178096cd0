"""``bastion agents`` / ``launch`` / ``resume`` through the real CLI, with fake agents on PATH."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bastion.adapters.cli.app import build_app
from bastion.agents.registry import AGENTS


@pytest.fixture
def env(fake_agents: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    home = tmp_path / "home"
    project = home / "proj"  # a project dir: launched from HOME itself, the boot check refuses
    project.mkdir(parents=True)
    monkeypatch.delenv("BASTION_POLICY", raising=False)
    monkeypatch.chdir(project)
    return {"PATH": str(fake_agents.bin), "HOME": str(home), "BASTION_STATE_DIR": str(tmp_path / "state")}


def _run(env: dict[str, str], *args: str) -> Any:
    return CliRunner().invoke(build_app(), list(args), env=env)


def test_agents_json_lists_each_agent_on_path_with_its_mapping(fake_agents: Any, env: dict[str, str]) -> None:
    claude = fake_agents.add("claude")
    result = _run(env, "agents", "--json", "--ceiling", "ask_every_action,read_only,allowed")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [
        {
            "agent": "claude",
            "path": str(claude),
            "version": "2.1.197",
            "started": True,
            "flags": ["--permission-mode", "plan"],
            "notes": [
                "--permission-mode plan: plan/read-only mode: asks about everything, writes "
                "nothing (until you approve leaving it in the agent's own prompt)",
                "left out: --permission-mode auto (meaning not clear from its name)",
                "left out: --permission-mode dontAsk (meaning not clear from its name)",
                # the fake PATH has no bubblewrap and no socat: Claude's sandbox could not start
                "left out: --settings <…> (needs bwrap, socat on PATH, or claude refuses to start; "
                "install them, e.g. apt-get install bubblewrap socat)",
            ],
            "assumptions": [],
            "title": "Claude Code",
            "hook": ["deny", "ask", "rewrite"],
        }
    ]


def test_agents_lists_every_registry_agent_with_what_its_hook_can_do(
    fake_agents: Any, env: dict[str, str]
) -> None:
    fake_agents.add("qwen")
    result = _run(env, "agents")

    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    absent = lines[lines.index("not on PATH:") + 1 :]
    # One line per other agent of the registry (pi and opencode gain hooks on other branches).
    assert [line.split()[0] for line in absent] == [a.name for a in AGENTS if a.name != "qwen"]
    assert absent[:2] == [
        "  claude (Claude Code, checked with @anthropic-ai/claude-code 2.1.197): hook: bastion install "
        "claude (its answers hold: deny, ask, rewrite)",
        "  codex (Codex, checked with @openai/codex 0.171.0): hook: bastion install codex (its answers "
        "hold: deny, rewrite)",
    ]
    assert (
        "  - hook: bastion install qwen (its answers hold: deny); calls it runs are not contained "
        "unless started with bastion launch qwen"
    ) in lines


def test_without_a_ceiling_in_the_policy_bastion_adds_no_restriction(
    fake_agents: Any, env: dict[str, str]
) -> None:
    fake_agents.add("gemini")
    result = _run(env, "agents")
    assert "ceiling ask_for_risky,unrestricted,allowed" in result.stdout
    assert "starts with --approval-mode auto_edit" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["agents", "--bypass-permissions"],
        ["launch", "claude", "--bypass-permissions", "--help"],
        ["resume", "x", "--bypass-permissions", "--help"],
    ],
)
def test_bypass_is_refused_for_commands_that_start_nothing(
    fake_agents: Any, env: dict[str, str], args: list[str]
) -> None:
    fake_agents.add("claude")
    result = _run(env, *args)
    assert result.exit_code == 2
    assert "--bypass-permissions is refused" in result.stderr
    assert fake_agents.calls("claude") == []


def test_launch_then_resume_through_the_cli(fake_agents: Any, env: dict[str, str]) -> None:
    fake_agents.add("claude")
    result = _run(
        env,
        "launch",
        "claude",
        "--uncontained",
        "--ceiling",
        "ask_every_action,read_only,allowed",
        "--",
        "hi",
    )
    assert result.exit_code == 0, result.output
    session = result.stderr.strip().split("session ")[-1]
    again = _run(env, "resume", session, "--uncontained", "--ceiling", "never_ask,unrestricted,allowed")
    assert again.exit_code == 2
    assert "resume --ceiling refused" in again.stderr
    assert fake_agents.calls("claude") == [["--permission-mode", "plan", "hi"]]


@pytest.mark.parametrize(
    "command",
    [
        ["launch", "claude"],
        ["launch", "claude", "--ceiling", "ask_for_risky,workspace_write,allowed"],
        ["resume", "s-1"],
    ],
)
def test_launch_and_resume_from_home_are_refused_by_the_boot_check_and_start_nothing(
    fake_agents: Any, env: dict[str, str], monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    fake_agents.add("claude")
    monkeypatch.chdir(env["HOME"])  # the default workspace is HOME: it holds ~/.bastion/credentials
    result = _run(env, *command)
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"bastion: the credentials dir {env['HOME']}/.bastion/credentials lies inside the readable root {env['HOME']}"
    )
    assert "hint: fix the policy" in result.stderr
    assert fake_agents.calls("claude") == []


def test_launch_with_a_broken_policy_starts_nothing_even_with_a_ceiling_given(
    fake_agents: Any, env: dict[str, str]
) -> None:
    fake_agents.add("claude")
    policy = Path.cwd() / ".bastion" / "policy.toml"
    policy.parent.mkdir()
    policy.write_text("mode = 'read-only'\n[paths]\nallow_read = 3\n")
    result = _run(env, "launch", "claude", "--ceiling", "ask_for_risky,workspace_write,allowed")
    assert result.exit_code == 2
    assert result.stderr.startswith("bastion: ")
    assert "allow_read" in result.stderr
    assert fake_agents.calls("claude") == []


def test_launch_starts_no_agent_it_cannot_contain_and_says_how_to_run_it_uncontained(
    fake_agents: Any, env: dict[str, str]
) -> None:
    fake_agents.add("claude")  # the fake PATH has no bubblewrap: no agent:claude sandbox
    result = _run(env, "launch", "claude", "--", "hi")
    assert result.exit_code == 3
    assert result.stderr.splitlines()[:2] == [
        "bastion: claude not started: it cannot be contained here: bubblewrap ('bwrap') is not installed",
        "  hint: install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap), or start it on the host "
        "with bastion launch --uncontained claude",
    ]
    assert fake_agents.calls("claude") == []


def test_launch_uncontained_runs_the_agent_on_the_host_and_says_so(
    fake_agents: Any, env: dict[str, str]
) -> None:
    fake_agents.add("claude")
    result = _run(env, "launch", "claude", "--uncontained", "--", "hi")
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(
        "bastion: --uncontained: the agent runs on the host, outside its sandbox\n"
    )
    assert fake_agents.calls("claude") == [["--permission-mode", "acceptEdits", "hi"]]
