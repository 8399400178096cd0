"""Fault injection: whatever goes wrong inside ``bastion hook``, the answer is a deny with
the exit code the agent treats as a block (2), never an allow."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.adapters.hooks.conftest import Sandbox, run_hook

DENY_CLAUDE = ("deny", 2)


def claude_call(sandbox: Sandbox, command: str = "ls") -> str:
    return json.dumps(
        {
            "session_id": "s",
            "cwd": str(sandbox.project),
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "tool_use_id": "t",
        }
    )


def outcome(run: object) -> tuple[str, int]:
    answer = run.json  # type: ignore[attr-defined]
    return answer["hookSpecificOutput"]["permissionDecision"], run.exit_code  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "stdin",
    [
        b"",
        b"not json at all",
        b"\xff\xfe\x00garbage",
        b"[1, 2, 3]",
        b'"a string"',
        b"{}",
        b'{"cwd": "relative/dir", "tool_name": "Bash", "tool_input": {"command": "ls"}}',
        b'{"cwd": "/", "tool_name": "Bash", "tool_input": "rm -rf /"}',
    ],
    ids=["empty", "garbage", "binary", "array", "string", "empty-object", "relative-cwd", "input-not-object"],
)
def test_unreadable_input_is_denied_with_exit_2(stdin: bytes, sandbox: Sandbox) -> None:
    run = run_hook("claude", stdin, sandbox.env())

    assert outcome(run) == DENY_CLAUDE
    assert run.stderr.startswith("Bastion: ")


def test_input_larger_than_the_cap_is_denied(sandbox: Sandbox) -> None:
    huge = claude_call(sandbox, "echo " + "x" * (9 * 1024 * 1024))

    run = run_hook("claude", huge, sandbox.env())

    assert outcome(run) == DENY_CLAUDE
    assert "larger than" in run.json["hookSpecificOutput"]["permissionDecisionReason"]


def test_an_unknown_tool_is_denied(sandbox: Sandbox) -> None:
    stdin = claude_call(sandbox).replace('"Bash"', '"SomeNewTool"')

    run = run_hook("claude", stdin, sandbox.env())

    assert outcome(run) == DENY_CLAUDE
    assert "unknown tool 'SomeNewTool'" in run.json["hookSpecificOutput"]["permissionDecisionReason"]


def test_a_missing_policy_file_is_denied(sandbox: Sandbox) -> None:
    run = run_hook("claude", claude_call(sandbox), sandbox.env(), "--policy", "/nonexistent/policy.toml")

    assert outcome(run) == DENY_CLAUDE
    assert "cannot read policy file" in run.json["hookSpecificOutput"]["permissionDecisionReason"]


@pytest.mark.parametrize(
    "text", ["mode = ", "mode = 'yolo'\n", "[paths]\ndeny_read = 3\n", "bogus_key = 1\n"]
)
def test_an_invalid_policy_file_is_denied(text: str, sandbox: Sandbox) -> None:
    policy = sandbox.root / "policy.toml"
    policy.write_text(text)

    run = run_hook("claude", claude_call(sandbox), sandbox.env(), "--policy", str(policy))

    assert outcome(run) == DENY_CLAUDE
    assert str(policy) in run.json["hookSpecificOutput"]["permissionDecisionReason"]


def test_an_unwritable_state_dir_is_denied(sandbox: Sandbox) -> None:
    blocker = sandbox.root / "state-is-a-file"
    blocker.write_text("")

    run = run_hook("claude", claude_call(sandbox), {**sandbox.env(), "BASTION_STATE_DIR": str(blocker)})

    assert outcome(run) == DENY_CLAUDE


def test_a_read_only_state_dir_is_denied(sandbox: Sandbox) -> None:
    sandbox.state.mkdir(mode=0o500)
    # Root writes through permission bits; an immutable folder stops root too.
    immutable = os.geteuid() == 0
    if immutable:
        subprocess.run(["chattr", "+i", str(sandbox.state)], check=True)
    try:
        run = run_hook("claude", claude_call(sandbox), sandbox.env())
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(sandbox.state)], check=True)

    assert outcome(run) == DENY_CLAUDE


def test_a_decision_that_hangs_is_denied_by_the_watchdog(sandbox: Sandbox) -> None:
    fifo = sandbox.root / "never.toml"
    os.mkfifo(fifo)

    run = run_hook("claude", claude_call(sandbox), sandbox.env(), "--policy", str(fifo), "--deadline", "1")

    assert outcome(run) == DENY_CLAUDE
    assert "no decision within 1 s" in run.json["hookSpecificOutput"]["permissionDecisionReason"]


@pytest.mark.parametrize("agent", ["gemini", "codex", "copilot", "qwen", "generic"])
def test_every_agent_gets_exit_2_for_garbage(agent: str, sandbox: Sandbox) -> None:
    run = run_hook(agent, b"{{{", sandbox.env())

    assert run.exit_code == 2
    assert "not JSON" in run.stderr


@pytest.mark.parametrize(
    "args", [[], ["nosuchagent"], ["claude", "--bogus"], ["claude", "--timeout", "soon"]]
)
def test_a_bad_command_line_exits_2(args: list[str], sandbox: Sandbox) -> None:
    import subprocess

    from tests.adapters.hooks.conftest import bastion_exe

    done = subprocess.run([bastion_exe(), "hook", *args], input=b"{}", capture_output=True, env=sandbox.env())

    assert (done.returncode, done.stdout) == (2, b"")
    assert b"usage: bastion hook AGENT" in done.stderr


def test_a_corrupt_policy_cache_is_a_miss_not_an_allow(sandbox: Sandbox) -> None:
    first = run_hook("claude", claude_call(sandbox, "cat ~/.ssh/id_rsa"), sandbox.env())
    for cached in Path(sandbox.state, "cache").glob("policy-*.pickle"):
        cached.write_bytes(b"\x80\x05corrupt")

    again = run_hook("claude", claude_call(sandbox, "cat ~/.ssh/id_rsa"), sandbox.env())

    assert outcome(first) == outcome(again) == DENY_CLAUDE
