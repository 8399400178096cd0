"""Issue 13, root cause 7 (Bastion's own verbs): an agent must never change Bastion's state
(answer approvals, grant, trust, keys, db, install) by any spelling, path or nesting:
hardline self, denied in every mode."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bastion import Decision, Gate, ToolCall
from bastion.shell.analysis import analyze
from bastion.shell.self_verbs import SandboxedRun, sandboxed_run, self_change

Call = Callable[..., ToolCall]
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY
U = ["approval.interactive_default"]  # not a pure reader: a person decides
W = ["mode.workspace"]  # a pure reader touching only allowed paths


def decide(gate: Gate, call: Call, command: str) -> tuple[Decision, list[str]]:
    evaluation = gate.evaluate(call("shell", command=command))
    return evaluation.decision, sorted({r.rule for r in evaluation.reasons})


MODES = ["", 'mode = "read-only"', 'mode = "full-access"']

SELF = [
    "bastion approvals approve 12",
    "bastion approvals deny 3 --feedback no",
    "/x/.venv/bin/bastion grants revoke g1",
    "bastion grants add x",
    "python -m bastion policy trust",
    "python3 -m bastion.adapters.cli.main keys create --role admin",
    "bastion keys revoke k1",
    "bastion db upgrade",
    "bastion install claude",
    "bastion uninstall codex",
    "bastion service install",
    "bastion mcp trust files",
    "sudo bastion uninstall claude",
    "bash -c 'bastion approvals deny 3'",
    "env X=1 bastion service install",
    '"$HOME/.venv/bin/bastion" approvals approve 1',
    'bastion approvals "$VERB" 1',
    "uv run bastion grants revoke x",
    'f() { bastion approvals approve "$1"; }; f 1',
    "xargs bastion approvals approve < ids.txt",
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("command", SELF)
def test_a_state_changing_bastion_verb_is_denied_in_every_mode(
    make_gate: Callable[..., Gate], call: Call, mode: str, command: str
) -> None:
    decision, rules = decide(make_gate(mode), call, command)
    # read-only blocks anything not a pure read first; the other modes name the hardline
    assert (decision, "hardline.self" in rules or mode.endswith('"read-only"')) == (D, True)


READ_ONLY = [
    "bastion approvals list",
    "bastion grants list --json",
    "bastion keys list",
    "bastion db status",
    "bastion policy test",
    "bastion explain shell 'ls'",
    "bastion grants revoke --help",
]


@pytest.mark.parametrize("command", READ_ONLY)
def test_a_read_only_bastion_verb_is_not_self(
    make_gate: Callable[..., Gate], call: Call, command: str
) -> None:
    assert decide(make_gate('mode = "full-access"'), call, command) == (A, ["mode.full-access"])


def test_the_reason_names_the_verb() -> None:
    (c,) = analyze("/x/.venv/bin/bastion grants revoke g1").commands
    assert c.self_change == "bastion grants revoke"


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["approvals", "approve", "1"], "bastion approvals approve"),
        (["grants", None], "bastion grants verb only known at run time"),
        ([None], "bastion subcommand only known at run time"),
        (["install", "claude"], "bastion install"),
        (["approvals"], None),
        (["approvals", "list"], None),
        (["explain", "shell", "ls"], None),
        (["keys", "create", "--help"], None),
    ],
)
def test_self_change_reads_the_verb_table(args: list[str | None], why: str | None) -> None:
    assert self_change(args) == why


@pytest.mark.parametrize(
    ("args", "run"),
    [
        (["sandbox", "run", "--profile", "read-only", "--", "ls"], SandboxedRun(5, (), None)),
        (["sandbox", "run", "--write=/h", "--write", None, "--", "rm"], SandboxedRun(6, ("/h", None), None)),
        (["sandbox", "run", "--cwd", None, "--", "ls", "-l"], SandboxedRun(5, (), "")),
        (["sandbox", "run", "--profile", "read-only", "--"], None),  # no command: a usage error
        (["sandbox", "run", "--bogus", "--", "ls"], None),  # an option it does not take
        (["sandbox", "run", None, "--", "ls"], None),
        (["sandbox", "prepare", "--profile", "read-only", "--", "ls"], None),  # prints, runs nothing
        (["approvals", "list"], None),
    ],
)
def test_sandboxed_run_finds_the_command_and_the_folders_it_opens(
    args: list[str | None], run: SandboxedRun | None
) -> None:
    assert sandboxed_run(args) == run


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # suite G: the sandbox line an agent writes itself does not hide the catastrophic
        (
            "bastion sandbox run --profile workspace-write --write ~ -- rm -rf ~",
            (D, ["hardline.destructive"]),
        ),
        (
            "bastion sandbox run --profile workspace-write -- cat ~/.ssh/id_rsa",
            (D, ["hardline.credentials", "paths.deny_read"]),
        ),
        ("bastion sandbox run --profile read-only -- ls", (A, ["mode.workspace"])),
        ("bastion sandbox run --profile read-only --write /etc -- ls", (D, ["hardline.system"])),
    ],
)
def test_a_sandbox_run_the_agent_writes_is_decided_by_the_command_it_runs(
    make_gate: Callable[..., Gate], call: Call, command: str, expected: tuple[Decision, list[str]]
) -> None:
    assert decide(make_gate(), call, command) == expected
