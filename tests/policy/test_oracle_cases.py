"""Cases the differential oracle found by running allowed commands for real: each was allowed
and did more than its decision declared. A workspace symlink ``k`` points at the fake key."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall


@pytest.fixture
def gate(make_gate: Callable[..., Gate], workspace: Path, home: Path) -> Gate:
    (workspace / "k").symlink_to(home / ".ssh" / "id_rsa")
    (workspace / "notes.txt").write_text("TODO\n")
    return make_gate()


@pytest.mark.parametrize(("command", "decision"), [
    # a glob in a pattern or option-value position is expanded by bash into paths
    ("rg *", Decision.DENY), ("strings -s *", Decision.DENY), ("bash -c 'strings -s *'", Decision.DENY),
    ("grep -e *", Decision.DENY),
    # programs that do more than read, seen under strace
    ("docker ps", Decision.ASK), ("docker images -q", Decision.ASK), ("docker inspect x", Decision.DENY),  # it prints the container's environment too
    ("terraform validate", Decision.ASK),
    ("networkctl", Decision.ASK), ("hostnamectl status", Decision.ASK),
    ("ag TODO", Decision.ASK),
])  # fmt: skip
def test_a_command_the_oracle_caught_is_no_longer_allowed(
    gate: Gate, call: Callable[..., ToolCall], command: str, decision: Decision
) -> None:
    assert gate.evaluate(call("shell", command=command)).decision is decision


@pytest.mark.parametrize("command", [
    "rg TODO notes.txt", "strings -n 4 notes.txt", "file notes.txt",
    # pip reads its pip.conf under HOME (a config read to the oracle) and writes nothing
    "pip freeze", "pip show requests", "pip list --disable-pip-version-check",
])  # fmt: skip
def test_the_same_programs_reading_plainly_stay_allowed(
    gate: Gate, call: Callable[..., ToolCall], command: str
) -> None:
    assert gate.evaluate(call("shell", command=command)).decision is Decision.ALLOW


def test_file_p_declares_the_write_it_makes_to_the_file_s_times(
    gate: Gate, call: Callable[..., ToolCall]
) -> None:
    from bastion.call.effects import Effect

    evaluation = gate.evaluate(call("shell", command="file -p notes.txt"))
    assert Effect.WRITE in evaluation.effects  # a workspace write: allowed in workspace mode, declared
