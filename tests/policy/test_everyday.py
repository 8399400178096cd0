"""Approval fatigue: the everyday read-only commands of tests/policy/everyday_commands.txt
are allowed in workspace mode without asking (at least 95% of them)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]

LIST = Path(__file__).with_name("everyday_commands.txt")
COMMANDS = [
    line
    for line in LIST.read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]
#: The files the commands name (no credential file among them).
FILES = {
    "src/util.py": "def util():\n    return 1\n",
    "package.json": '{"name": "demo", "version": "1.0.0", "scripts": {"test": "jest"},'
    ' "dependencies": {"left-pad": "1.0.0"}}\n',
    "f": "b\na\nb\n3 4 11\n",
    "data.csv": "a,b,c\n1,2,3\n",
    "log.txt": "started\n",
    "Makefile": "test:\n\ttrue\n",
}


@pytest.fixture
def everyday_workspace(workspace: Path) -> Path:
    for name, text in FILES.items():
        (workspace / name).write_text(text, encoding="utf-8")
    return workspace


def test_the_everyday_list_is_long_enough_and_has_no_duplicates() -> None:
    assert len(COMMANDS) >= 170
    assert len(set(COMMANDS)) == len(COMMANDS)


def test_at_least_95_percent_of_everyday_commands_are_allowed(
    make_gate: GateFactory, call: Call, everyday_workspace: Path
) -> None:
    gate = make_gate()
    assert gate.policy.mode == "workspace"
    refused = []
    for command in COMMANDS:
        evaluation = gate.explain(call("shell", command=command, cwd=str(everyday_workspace)))
        if evaluation.decision is not Decision.ALLOW:
            refused.append((command, evaluation.decision.name, evaluation.trace[1:]))
    share = 1 - len(refused) / len(COMMANDS)
    print(f"\neveryday commands allowed: {len(COMMANDS) - len(refused)}/{len(COMMANDS)} ({share:.1%})")
    for command, decision, trace in refused:
        print(f"  {decision}: {command}")
        for line in trace:
            print(f"      {line}")
    assert share >= 0.95, [c for c, _, _ in refused]
