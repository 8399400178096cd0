"""Argument-key rules and mapped path/URL arguments, as pure functions and through the Gate.

``Rule.args`` and ``Policy.mcp_servers`` do not exist in the policy model yet: ``ArgsRule``
and ``McpPolicy`` below are the fields the lead adds, and ``gate_with_extras`` is the call
site in ``engine._mcp`` (its ``last_rule`` lookup handed to ``decide_mcp_extras``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from bastion.call.model import ToolCall
from bastion.errors import CallError
from bastion.policy.compiled import McpServerArgs
from bastion.policy.decision import MARKER_DENIED, Decision
from bastion.policy.engine import Gate
from bastion.policy.mcp_args import (
    hiding_rule,
    mapped_values,
    rule_args_match,
)
from bastion.policy.network import StaticResolver
from tests.conftest import PolicyFactory

GateMaker = Callable[..., Gate]


@pytest.fixture
def gate_with_extras(make_policy: PolicyFactory) -> GateMaker:
    """A gate whose rules carry ``args`` (by rule index) and whose policy maps servers."""

    def build(
        text: str,
        *,
        args: Mapping[int, Mapping[str, str]] | None = None,
        servers: Mapping[str, McpServerArgs] | None = None,
    ) -> Gate:
        policy = make_policy(text)
        rules = tuple(replace(r, args=dict((args or {}).get(r.index) or {}) or None) for r in policy.rules)
        return Gate(
            replace(policy, rules=rules, mcp_servers=dict(servers or {})), resolver=StaticResolver({})
        )

    return build


def mcp_call(server: str, tool: str, arguments: Mapping[str, Any], cwd: str, **annotations: bool) -> ToolCall:
    return ToolCall(
        "mcp",
        {"server": server, "tool": tool, "arguments": arguments, "annotations": annotations},
        cwd=cwd,
        interactive=True,
    )


ALLOW_GIT_STATUS = '[[rule]]\ntool = "mcp"\npattern = "shell/run"\naction = "allow"\n'


@pytest.mark.parametrize(
    ("condition", "arguments", "expected"),
    [
        ({"command": "git status"}, {"command": "git status"}, True),
        ({"command": "git status"}, {"command": "whoami", "metadata": {"reason": "git status"}}, False),
        ({"command": "git status"}, {"metadata": {"command": "git status"}}, False),
        ({"command": "git *"}, {"command": "git log -1"}, True),
        ({"command": "git *"}, {"command": "git status\nrm -rf ~"}, False),
        ({"path": "src/**"}, {"path": "src/app.py"}, True),
        ({"path": "src/**"}, {"path": "src/../../etc/shadow"}, False),
        ({"path": "src/**"}, {"path": ["src/app.py"]}, False),
        ({"files[]": "src/*"}, {"files": ["src/a.py", "src/b.py"]}, True),
        ({"files[]": "src/*"}, {"files": ["src/a.py", "/etc/passwd"]}, False),
        ({"files[]": "src/*"}, {"files": []}, False),
        ({"files[]": "src/*"}, {"files": "src/a.py"}, False),
        ({"count": "3"}, {"count": 3}, True),
        ({"path": "*"}, {}, False),
    ],
)
def test_an_argument_condition_matches_each_key_on_its_own(
    condition: dict[str, str], arguments: dict[str, Any], expected: bool
) -> None:
    assert rule_args_match(condition, arguments) is expected


def test_mapped_values_yield_each_path_and_refuse_what_cannot_be_checked() -> None:
    assert list(mapped_values(("path", "files[]"), {"path": "a", "files": ("b", "c")})) == [
        ("path", "a"),
        ("files[]", "b"),
        ("files[]", "c"),
    ]
    with pytest.raises(CallError, match="argument 'files' must be a list of strings"):
        list(mapped_values(("files[]",), {"files": "b"}))
    with pytest.raises(CallError, match="argument 'path' must be a non-empty string"):
        list(mapped_values(("path",), {"path": {"nested": "x"}}))


def test_the_gemini_hole_an_allow_for_git_status_does_not_match_whoami(
    gate_with_extras: GateMaker, workspace: Any
) -> None:
    gate = gate_with_extras(ALLOW_GIT_STATUS, args={1: {"command": "git status"}})
    sneaky = gate.evaluate(
        mcp_call("shell", "run", {"command": "whoami", "metadata": {"reason": "git status"}}, str(workspace))
    )
    plain = gate.evaluate(mcp_call("shell", "run", {"command": "git status"}, str(workspace)))
    assert (sneaky.decision, [r.rule for r in sneaky.reasons]) == (
        Decision.ASK,
        ["mcp.no-rule", "approval.interactive_default"],
    )
    assert (plain.decision, [r.rule for r in plain.reasons]) == (Decision.ALLOW, ["rule[1]"])
    assert plain.reasons[0].message == "rule[1] (allow) matched shell/run command='git status'"


def test_a_mapped_path_argument_is_checked_by_the_path_policy(
    gate_with_extras: GateMaker, workspace: Any, home: Any
) -> None:
    gate = gate_with_extras(
        '[[rule]]\ntool = "mcp"\npattern = "files/*"\naction = "allow"\n',
        servers={"files": McpServerArgs(paths=("path", "paths[]"))},
    )
    cwd = str(workspace)
    inside = gate.evaluate(
        mcp_call("files", "read_text_file", {"path": "src/app.py"}, cwd, readOnlyHint=True)
    )
    key = gate.evaluate(
        mcp_call("files", "read_text_file", {"path": f"{home}/.ssh/id_rsa"}, cwd, readOnlyHint=True)
    )
    many = gate.evaluate(
        mcp_call(
            "files", "read_multiple_files", {"paths": ["README.md", "~/.ssh/id_rsa"]}, cwd, readOnlyHint=True
        )
    )
    outside = gate.evaluate(
        mcp_call("files", "read_text_file", {"path": "/opt/data.txt"}, cwd, readOnlyHint=True)
    )
    system = gate.evaluate(mcp_call("files", "write_file", {"path": "/etc/hosts"}, cwd))
    assert inside.decision is Decision.ALLOW
    assert (key.decision, key.marker, key.reasons[0].rule) == (
        Decision.DENY,
        MARKER_DENIED,
        "hardline.credentials",
    )
    assert (many.decision, many.reasons[0].rule) == (Decision.DENY, "hardline.credentials")
    assert (outside.decision, outside.reasons[0].rule) == (Decision.ASK, "paths.outside-roots")
    assert (system.decision, system.marker) == (Decision.DENY, MARKER_DENIED)


def test_a_read_only_hint_never_allows_a_call_by_itself(gate_with_extras: GateMaker, workspace: Any) -> None:
    gate = gate_with_extras("", servers={"files": McpServerArgs(paths=("path",))})
    result = gate.evaluate(
        mcp_call("files", "read_text_file", {"path": "README.md"}, str(workspace), readOnlyHint=True)
    )
    assert (result.decision, [r.rule for r in result.reasons]) == (
        Decision.ASK,
        ["mcp.no-rule", "approval.interactive_default"],
    )


def test_a_mapped_url_argument_is_checked_by_the_network_policy(
    gate_with_extras: GateMaker, workspace: Any
) -> None:
    gate = gate_with_extras(
        '[[rule]]\ntool = "mcp"\npattern = "web/*"\naction = "allow"\n',
        servers={"web": McpServerArgs(urls=("url",))},
    )
    metadata = gate.evaluate(
        mcp_call("web", "fetch", {"url": "http://169.254.169.254/latest/"}, str(workspace))
    )
    assert (metadata.decision, metadata.marker) == (Decision.DENY, MARKER_DENIED)


def test_a_tool_is_hidden_only_by_a_deny_without_an_argument_condition(make_policy: PolicyFactory) -> None:
    policy = make_policy(
        '[[rule]]\ntool = "mcp"\npattern = "notes/delete_*"\naction = "deny"\n'
        '[[rule]]\ntool = "mcp"\npattern = "notes/*"\naction = "deny"\n'
        '[[rule]]\ntool = "mcp"\npattern = "notes/read_*"\naction = "allow"\n'
    )
    assert hiding_rule(policy, "notes", "delete_note") is not None
    assert hiding_rule(policy, "notes", "read_note") is None  # a later allow offers it again
    assert hiding_rule(policy, "other", "delete_note") is None
