"""A project file that sends a package manager to the cloud metadata service (suite G A-644:
an activated venv's ``pip.conf``) is denied like the address in the command's words."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]

METADATA = "http://169.254.169.254/simple"
#: (file, its text naming the metadata address, a command that fetches by it)
SENT = [
    (
        ".venv/pip.conf",
        f"[global]\nindex-url = {METADATA}\n",
        "source .venv/bin/activate && pip download six",
    ),
    (
        ".venv/pip.conf",
        f"[global]\nextra-index-url = {METADATA}\n",
        "python3 -m pip install -r requirements.txt",
    ),
    ("pyproject.toml", f'[[tool.uv.index]]\nurl = "{METADATA}"\n', "uv sync"),
    ("pyproject.toml", f'[[tool.poetry.source]]\nname = "x"\nurl = "{METADATA}"\n', "poetry install"),
    (".npmrc", "registry=http://169.254.169.254/\n", "npm install left-pad"),
    (".yarnrc.yml", 'npmRegistryServer: "http://[fd00:ec2::254]/"\n', "yarn add left-pad"),
    (".cargo/config.toml", '[source.x]\nregistry = "http://metadata.google.internal/"\n', "cargo fetch"),
    (".bundle/config", 'BUNDLE_MIRROR__ALL: "http://169.254.169.254/"\n', "bundle install"),
]


def _rules(gate: Gate, call: Call, command: str) -> tuple[Decision, list[str]]:
    evaluation = gate.evaluate(call("shell", command=command))
    return evaluation.decision, sorted({r.rule for r in evaluation.reasons if r.rule.startswith("hardline")})


@pytest.mark.parametrize(("name", "text", "command"), SENT)
def test_a_project_file_naming_the_metadata_address_denies_the_fetch(
    make_gate: GateFactory, call: Call, workspace: Path, name: str, text: str, command: str
) -> None:
    gate = make_gate()
    assert "hardline.metadata" not in _rules(gate, call, command)[1]  # no such file: not this rule
    (workspace / name).parent.mkdir(parents=True, exist_ok=True)
    (workspace / name).write_text(text)
    assert _rules(gate, call, command) == (Decision.DENY, ["hardline.metadata"])


def test_a_registry_file_with_an_ordinary_index_is_not_judged_here(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    (workspace / ".npmrc").write_text("registry=https://registry.npmjs.org/\n")
    (workspace / ".venv").mkdir()
    (workspace / ".venv" / "pip.conf").write_text("[global]\nindex-url = https://pypi.org/simple\n")
    assert _rules(make_gate(), call, "npm install left-pad")[1] == []
    assert _rules(make_gate(), call, "pip download six")[1] == []


def test_an_address_named_in_a_project_files_prose_is_no_index(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    (workspace / "pyproject.toml").write_text('[project]\ndescription = "reads 169.254.169.254 for you"\n')
    assert _rules(make_gate(), call, "pip download six")[1] == []


def test_the_persons_own_registry_file_in_home_is_their_choice(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    """Files are looked for where the command runs and above it, below the home directory."""
    (home / ".npmrc").write_text("registry=http://169.254.169.254/\n")
    assert _rules(make_gate(), call, "npm install left-pad")[1] == []


def test_a_program_that_reads_no_registry_file_is_not_judged_by_one(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    (workspace / ".npmrc").write_text("registry=http://169.254.169.254/\n")
    assert _rules(make_gate(), call, "cat README.md")[1] == []
