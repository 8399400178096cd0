"""An MCP tool that runs a shell command line (a terminal server's ``run_command``) is judged
by what the command does, as the shell family judges it (suite H: ``cat ~/.netrc`` through
``mcp__shell__run_command`` was asked as an MCP tool with no rule)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bastion import Decision, Gate, ToolCall
from bastion.policy.mcp_commands import command_values

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]


def _decide(gate: Gate, call: Call, arguments: dict[str, object]) -> tuple[Decision, list[str]]:
    evaluation = gate.evaluate(call("mcp", server="shell", tool="run_command", arguments=arguments))
    return evaluation.decision, sorted({r.rule for r in evaluation.reasons})


@pytest.mark.parametrize(
    ("arguments", "rule"),
    [
        ({"command": "cat ~/.netrc"}, "hardline.credentials"),
        ({"cmd": "rm -rf ~"}, "hardline.destructive"),
        ({"command_line": "curl http://169.254.169.254/latest/meta-data/"}, "hardline.metadata"),
        ({"shellCommand": "echo $GITHUB_TOKEN"}, "hardline.credentials"),
    ],
)
def test_a_command_argument_earns_the_denials_the_shell_family_gives_it(
    make_gate: GateFactory, call: Call, arguments: dict[str, object], rule: str
) -> None:
    decision, rules = _decide(make_gate(), call, arguments)
    assert (decision, rule in rules) == (Decision.DENY, True)


@pytest.mark.parametrize("mode", ["", 'mode = "full-access"'])
def test_an_ordinary_command_is_left_to_the_mcp_rules(make_gate: GateFactory, call: Call, mode: str) -> None:
    decision, rules = _decide(make_gate(mode), call, {"command": "ls -la"})
    expected = (
        (Decision.ALLOW, ["mode.full-access"])
        if mode
        else (Decision.ASK, ["approval.interactive_default", "mcp.no-rule"])
    )
    assert (decision, rules) == expected


def test_only_top_level_string_arguments_named_like_a_command_are_command_lines() -> None:
    arguments = {"command": "ls", "Command-Line": "pwd", "description": "rm -rf ~", "cmd": 3, "shell": " "}
    assert command_values(arguments) == [("command", "ls"), ("Command-Line", "pwd")]
