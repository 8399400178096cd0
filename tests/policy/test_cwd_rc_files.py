"""Programs that read an option file from where they run (#31): ``valgrind`` beside a
``.valgrindrc`` takes its options from it (``--log-file=~/.bashrc`` truncates the rc file),
gdb and lldb run an init file, ack a project ``.ackrc`` (``--pager=``): with such a file
present the call asks; without one the program is what its table says."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]

A, Q = Decision.ALLOW, Decision.ASK


def _decide(gate: Gate, call: Call, command: str, cwd: Path | None = None) -> tuple[Decision, list[str]]:
    evaluation = gate.evaluate(call("shell", command=command, cwd=str(cwd) if cwd else None))
    return evaluation.decision, [r.rule for r in evaluation.reasons if r.decision is evaluation.decision]


@pytest.mark.parametrize(
    ("name", "command"),
    [
        (".valgrindrc", "valgrind -q true"),
        (".valgrindrc", "valgrind --tool=none ls"),
        (".ackrc", "ack TODO src"),
    ],
)
def test_a_reader_beside_its_option_file_asks_and_without_one_stays_a_reader(
    make_gate: GateFactory, call: Call, workspace: Path, name: str, command: str
) -> None:
    (workspace / "src").mkdir(exist_ok=True)
    assert _decide(make_gate(), call, command) == (A, ["mode.workspace"])
    (workspace / name).write_text("--log-file=/tmp/x\n--pager=sh\n")

    assert _decide(make_gate(), call, command) == (Q, ["shell.rc-file"])


def test_an_init_file_makes_a_debugger_ask_for_why_it_does(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    (workspace / ".gdbinit").write_text("shell id\n")

    decision, rules = _decide(make_gate(), call, "gdb -batch -ex 'info files' ./app")
    assert decision is Q
    assert "shell.rc-file" in rules


def test_an_option_file_is_read_only_where_the_program_runs_unless_it_looks_in_parents(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    (workspace / "src").mkdir(exist_ok=True)
    (workspace / ".valgrindrc").write_text("--log-file=/tmp/x\n")
    (workspace / ".ackrc").write_text("--pager=sh\n")

    assert _decide(make_gate(), call, "valgrind -q true", workspace / "src") == (A, ["mode.workspace"])
    assert _decide(make_gate(), call, "ack TODO", workspace / "src") == (Q, ["shell.rc-file"])
