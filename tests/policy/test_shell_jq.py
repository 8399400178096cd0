"""What a jq program's module system reads is judged as a read (#31): a directive or ``-L``
that reaches a credential location is denied, whether the program is the filter argument or
a ``-f`` file; a module import, or a program or search path known only at run time, asks;
programs without directives are the readers they were."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]

A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY


@pytest.fixture
def planted(home: Path, workspace: Path) -> Path:
    (home / ".docker").mkdir()
    (home / ".docker" / "config.json").write_text('{"auths": {"r": {"auth": "SECRET"}}}\n')
    (workspace / "scripts").mkdir()
    rel = Path(*[".."] * (len((workspace / "scripts").relative_to(home).parts)))
    (workspace / "scripts" / "registry.jq").write_text(
        f'import "config" as $c {{search: "{rel}/.docker"}}; $c\n'
    )
    (workspace / "scripts" / "home.jq").write_text('import "config" as $r {search: "~/.docker"}; $r\n')
    (workspace / "scripts" / "lib.jq").write_text("def twice: . * 2;\n")
    (workspace / "lookup.json").write_text('{"a": 1}\n')
    (workspace / "data.json").write_text('{"a": 1}\n')
    return workspace


def _decide(gate: Gate, call: Call, command: str) -> tuple[Decision, list[str]]:
    evaluation = gate.evaluate(call("shell", command=command))
    return evaluation.decision, [r.rule for r in evaluation.reasons if r.decision is evaluation.decision]


@pytest.mark.parametrize(
    "command",
    [
        "jq -n -f scripts/registry.jq",
        "jq -n --from-file scripts/home.jq",
        """jq -n 'import "config" as $c {search: "~/.docker"}; $c'""",
        """jq -n -L ~/.docker 'import "config" as $c; $c'""",
        """jq -n -L~/.docker 'import "config" as $c; $c'""",
        """jq -n 'import "config" as $c {search: ["lib", "~/.docker"]}; include "x" {search: "~/.docker"}; $c'""",
        """gojq -n 'import "config" as $c {search: "~/.docker"}; $c'""",
        "yq -n -f scripts/registry.jq",
    ],
)
def test_a_jq_import_that_loads_a_credential_is_denied(
    make_gate: GateFactory, call: Call, planted: Path, command: str
) -> None:
    assert _decide(make_gate(), call, command) == (D, ["hardline.credentials"])


@pytest.mark.parametrize(
    "command",
    [
        "jq -L scripts 'include \"lib\"; .a | twice' data.json",  # a module: its imports are not read
        """jq -n 'import "c" as $c {search: "/opt/elsewhere"}; $c'""",  # outside every root
        'jq -n "import \\"c\\" as \\$c {search: \\"$D\\"}; \\$c"',  # known at run time
        "jq -n -f scripts/missing.jq",
        """jq -n '"config" | modulemeta'""",
    ],
)
def test_a_jq_import_that_cannot_be_told_harmless_asks(
    make_gate: GateFactory, call: Call, planted: Path, command: str
) -> None:
    decision, rules = _decide(make_gate(), call, command)
    assert decision is Q
    assert "shell.jq-modules" in rules


@pytest.mark.parametrize(
    "command",
    [
        "jq '.a' data.json",
        'jq -r \'.import, "import \\"x\\" as $c;"\' data.json  # import "y" as $z;',
        """jq -n 'import "lookup" as $l; $l'""",  # a data file in the workspace
        """jq -n 'import "lookup" as $l {search: "."}; $l'""",
        "jq --arg import x -n '$import'",
    ],
)
def test_a_jq_program_that_loads_only_workspace_files_stays_a_read(
    make_gate: GateFactory, call: Call, planted: Path, command: str
) -> None:
    assert _decide(make_gate(), call, command) == (A, ["mode.workspace"])
