"""One boot check on every entry point: with the credentials dir inside a readable root,
``check``, ``explain``, ``request``, ``tool``, ``serve`` and ``mcp serve`` refuse alike (exit 2,
the same sentence), and a hook denies every call with ``policy.invalid`` and that sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.adapters.cli.test_check_cli import run

REFUSAL = "lies inside the readable root"


@pytest.fixture
def bad_policy(workspace: Path) -> Path:
    policy = workspace / "p.toml"
    policy.write_text('credentials_dir = "creds"\n')  # under the workspace: readable
    return policy


@pytest.mark.parametrize(
    "args",
    [
        ["check", "read", "README.md"],
        ["check", "--non-interactive", "shell", "git status"],
        ["explain", "read", "README.md"],
        ["request", "--non-interactive", "read", "README.md"],
        ["tool", "read", "--args", '{"path": "README.md"}'],
        ["serve", "--port", "0"],
        ["mcp", "serve"],
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_every_command_entry_point_refuses_a_credentials_dir_inside_a_readable_root(
    env: dict[str, str], workspace: Path, bad_policy: Path, args: list[str]
) -> None:
    result = run([*args, "--policy", str(bad_policy)], env, workspace, stdin="")
    assert (result.returncode, result.stdout) == (2, "")
    assert REFUSAL in " ".join(result.stderr.split())


def test_check_batch_refuses_before_deciding_a_line(
    env: dict[str, str], workspace: Path, bad_policy: Path
) -> None:
    line = json.dumps({"tool": "read", "args": {"path": "README.md"}})
    result = run(["check", "--batch", "-", "--policy", str(bad_policy)], env, workspace, stdin=line + "\n")
    assert (result.returncode, result.stdout) == (2, "")


def test_a_hook_denies_every_call_with_the_same_sentence(
    env: dict[str, str], workspace: Path, bad_policy: Path
) -> None:
    event = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": str(workspace / "README.md")},
        "cwd": str(workspace),
        "session_id": "s1",
    }
    result = run(["hook", "claude", "--policy", str(bad_policy)], env, workspace, stdin=json.dumps(event))
    answer = json.loads(result.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"
    assert REFUSAL in answer["permissionDecisionReason"]
