"""Golden stdin/stdout per agent and tool, through the real ``bastion hook AGENT`` process.

``fixtures/<agent>/<case>.json`` holds the agent's hook input (``$HOME``/``$PROJECT`` stand
for the throwaway home and project, ``$BASTION`` for the entry point a contained command runs), the environment the agent gives its hooks, and the
exact answer expected on stdout with its exit code. A prepared run's line (an allowed call,
contained with no Python) is pinned as ``$CONTAINED(PROFILE) --timeout S -- bash -c ORIGINAL``
once its structure is checked (``tests/adapters/hooks/contained.py``): its run id, state
dir and cgroup paths differ from run to run. ``captured-*.stdin.json`` are inputs
recorded from the real CLIs (Claude Code 2.1.197, Codex 0.171.0) in the end-to-end runs.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from bastion.adapters.hooks.entry import protocol_for
from tests.adapters.hooks.conftest import FIXTURES, Sandbox, bastion_exe, run_hook
from tests.adapters.hooks.contained import canonical_answer

CASES = sorted(
    p for p in FIXTURES.glob("*/*.json") if p.parent.name != "settings" and not p.name.startswith("captured-")
)


def _sub(value: Any, mapping: dict[str, str]) -> Any:
    if isinstance(value, str):
        for key, replacement in mapping.items():
            value = value.replace(key, replacement)
        return value
    if isinstance(value, dict):
        return {k: _sub(v, mapping) for k, v in value.items()}
    if isinstance(value, list):
        return [_sub(v, mapping) for v in value]
    return value


@pytest.mark.parametrize("case", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_each_agent_gets_its_exact_golden_answer(case: Path, sandbox: Sandbox) -> None:
    (sandbox.project / "README.md").write_text("# hi a\n")
    fixture = json.loads(case.read_text())
    forward = {"$PROJECT": str(sandbox.project), "$HOME": str(sandbox.home)}
    back = {bastion_exe(): "$BASTION", str(sandbox.project): "$PROJECT", str(sandbox.home): "$HOME"}

    run = run_hook(
        case.parent.name, json.dumps(_sub(fixture["stdin"], forward)), sandbox.env(**fixture["env"])
    )

    if os.environ.get("BASTION_UPDATE_GOLDEN") == "1":  # regenerate after a deliberate change
        case.write_text(
            json.dumps(fixture | {"stdout": _sub(canonical_answer(run.json), back)}, indent=2) + "\n"
        )
    assert (_sub(canonical_answer(run.json), back), run.exit_code) == (
        fixture["stdout"],
        fixture["exit_code"],
    )


def test_the_captured_claude_code_input_reads_as_a_shell_call_with_its_ids() -> None:
    payload = json.loads((FIXTURES / "claude" / "captured-bash.stdin.json").read_text())

    request = protocol_for("claude").parse(payload, {"CLAUDE_CODE_ENTRYPOINT": "sdk-cli"})

    assert (request.event, request.tool, dict(request.args), request.tool_use_id) == (
        "PreToolUse",
        "Bash",
        {"command": "echo ok > marker", "description": "write marker"},
        "toolu_bastion_test_1",
    )
    assert (request.ctx.agent, request.ctx.cwd, request.ctx.session, request.ctx.interactive) == (
        "claude",
        "/tmp/e2e1/proj",
        payload["session_id"],
        False,
    )
    assert request.ctx.turn == payload["prompt_id"]


def test_the_captured_codex_input_reads_as_a_shell_call_with_its_turn() -> None:
    payload = json.loads((FIXTURES / "codex" / "captured-bash.stdin.json").read_text())

    request = protocol_for("codex").parse(payload, {})

    assert (request.tool, dict(request.args), request.tool_use_id, request.ctx.turn) == (
        "Bash",
        {"command": "echo ok > marker"},
        "call_bastion_test_1",
        payload["turn_id"],
    )
    assert request.ctx.interactive is None
