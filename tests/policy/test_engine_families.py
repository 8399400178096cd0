"""Each family through the engine: whole Evaluations pinned (decision, reasons, effects, marker)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bastion import Decision, Gate, ToolCall
from bastion.policy.decision import Evaluation

Call = Callable[..., ToolCall]
GateFactory = Callable[..., Gate]


def summary(evaluation: Evaluation) -> dict[str, Any]:
    data = evaluation.to_json()
    return {
        "decision": data["decision"],
        "rules": [r["rule"] for r in data["reasons"]],
        "effects": data["effects"],
        "marker": data["marker"],
    }


def test_an_unknown_family_is_denied_with_a_reason(make_gate: GateFactory, call: Call) -> None:
    evaluation = make_gate().evaluate(call("teleport", target="mars"))
    assert summary(evaluation) == {
        "decision": "deny",
        "rules": ["call.unknown-family"],
        "effects": ["unknown"],
        "marker": "[policy-denied]",
    }
    assert "teleport" in evaluation.reasons[0].message


@pytest.mark.parametrize(
    ("tool", "args", "rule"),
    [
        ("read", {}, "call.invalid"),
        ("read", {"path": 3}, "call.invalid"),
        ("fetch", {}, "call.invalid"),
        ("code", {"language": "cobol", "source": "x"}, "call.invalid"),
        ("code", {"language": "python", "source": "x", "timeout": -1}, "call.invalid"),
        ("code", {"language": "python", "source": "x", "timeout": float("nan")}, "call.invalid"),
        ("install", {"manager": "pip", "packages": []}, "call.invalid"),
        ("db", {"operation": "drop", "target": "t"}, "call.invalid"),
        ("mcp", {"server": "fs"}, "call.invalid"),
    ],
)
def test_malformed_arguments_are_denied_never_allowed(
    make_gate: GateFactory, call: Call, tool: str, args: dict[str, Any], rule: str
) -> None:
    evaluation = make_gate('mode = "full-access"').evaluate(call(tool, **args))
    assert evaluation.decision is Decision.DENY
    assert evaluation.reasons[0].rule == rule


def test_an_exception_inside_the_engine_is_a_denial(make_gate: GateFactory, call: Call) -> None:
    class Broken:
        def resolve(self, path: str) -> str:
            raise RuntimeError("disk on fire")

    gate = make_gate()
    gate.fs = Broken()
    evaluation = gate.evaluate(call("read", path="README.md"))
    assert summary(evaluation) == {
        "decision": "deny",
        "rules": ["internal-error"],
        "effects": ["unknown"],
        "marker": "[policy-denied]",
    }
    assert "disk on fire" in evaluation.message


@pytest.mark.parametrize(
    ("mode", "tool", "args", "expected"),
    [
        ("workspace", "read", {"path": "README.md"}, ("allow", ["paths.roots"])),
        ("workspace", "write", {"path": "src/new.py"}, ("allow", ["paths.roots"])),
        ("workspace", "edit", {"path": "src/app.py"}, ("allow", ["paths.roots"])),
        ("workspace", "list", {}, ("allow", ["paths.roots"])),
        ("workspace", "grep", {"pattern": "x"}, ("allow", ["paths.roots"])),
        (
            "workspace",
            "write",
            {"path": "/opt/x"},
            ("ask", ["paths.outside-roots", "approval.interactive_default"]),
        ),
        ("read-only", "read", {"path": "README.md"}, ("allow", ["paths.roots"])),
        ("read-only", "write", {"path": "src/new.py"}, ("deny", ["mode.read-only"])),
        ("full-access", "write", {"path": "/opt/x"}, ("allow", ["mode.full-access"])),
        ("full-access", "read", {"path": "/opt/x"}, ("allow", ["mode.full-access"])),
    ],
)
def test_file_families_follow_the_mode(
    make_gate: GateFactory,
    call: Call,
    mode: str,
    tool: str,
    args: dict[str, Any],
    expected: tuple[str, list[str]],
) -> None:
    evaluation = make_gate(f'mode = "{mode}"').evaluate(call(tool, **args))
    assert (evaluation.decision.label, [r.rule for r in evaluation.reasons]) == expected


def test_a_mode_block_carries_the_blocked_marker(make_gate: GateFactory, call: Call) -> None:
    evaluation = make_gate('mode = "read-only"').evaluate(call("write", path="a.txt"))
    assert evaluation.marker == "[policy-blocked]"
    assert evaluation.message.startswith("[policy-blocked] ")


def test_an_unmatched_call_nobody_can_answer_is_denied_without_a_permanent_marker(
    make_gate: GateFactory, call: Call
) -> None:
    evaluation = make_gate().evaluate(call("write", interactive=False, path="/opt/x"))
    assert summary(evaluation) == {
        "decision": "deny",
        "rules": ["paths.outside-roots", "approval.non_interactive_default"],
        "effects": ["write"],
        "marker": None,
    }


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://pypi.org/simple/", ("allow", ["network.allow_hosts"])),
        ("https://api.github.com/x", ("allow", ["network.allow_hosts"])),
        ("https://github.com/x", ("ask", ["network.unlisted", "approval.interactive_default"])),
        ("http://169.254.169.254/latest/meta-data", ("deny", ["hardline.metadata"])),
        ("http://127.0.0.1:8080/", ("deny", ["network.private"])),
        ("http://0x7f.1/", ("deny", ["network.private"])),
        ("http://[::ffff:10.0.0.1]/", ("deny", ["network.private"])),
        ("file:///etc/passwd", ("deny", ["network.scheme"])),
        ("https://evil.example/", ("deny", ["network.deny_hosts"])),
        ("https://rebind.test/", ("deny", ["network.private"])),
    ],
)
def test_fetch_follows_the_network_policy(
    make_gate: GateFactory, call: Call, url: str, expected: tuple[str, list[str]]
) -> None:
    gate = make_gate(
        '[network]\nallow_hosts = ["pypi.org", "*.github.com", "rebind.test"]\ndeny_hosts = ["evil.example"]',
        hosts={
            "pypi.org": ["151.101.0.223"],
            "api.github.com": ["140.82.112.6"],
            "rebind.test": ["10.1.2.3"],
        },
    )
    evaluation = gate.evaluate(call("fetch", url=url))
    assert (evaluation.decision.label, [r.rule for r in evaluation.reasons]) == expected


def test_fetch_to_an_unlisted_host_is_blocked_in_read_only_mode(make_gate: GateFactory, call: Call) -> None:
    evaluation = make_gate('mode = "read-only"').evaluate(call("fetch", url="https://example.com/"))
    assert summary(evaluation) == {
        "decision": "deny",
        "rules": ["mode.read-only"],
        "effects": ["network"],
        "marker": "[policy-blocked]",
    }


@pytest.mark.parametrize(
    ("mode", "sandboxed", "expected"),
    [
        ("workspace", True, ("allow", ["mode.workspace"])),
        ("full-access", True, ("allow", ["mode.full-access"])),
        ("workspace", False, ("ask", ["code.unsandboxed"])),
        ("full-access", False, ("ask", ["code.unsandboxed"])),
        ("read-only", True, ("deny", ["mode.read-only"])),
    ],
)
def test_code_runs_only_when_sandboxed_and_never_in_read_only(
    make_gate: GateFactory, call: Call, mode: str, sandboxed: bool, expected: tuple[str, list[str]]
) -> None:
    gate = make_gate(f'mode = "{mode}"', sandboxed=sandboxed)
    evaluation = gate.evaluate(call("code", language="python", source="print(1)"))
    assert (evaluation.decision.label, [r.rule for r in evaluation.reasons]) == expected
    assert evaluation.effects == tuple(evaluation.effects)  # ordered, stable


def test_installs_ask_even_in_full_access(make_gate: GateFactory, call: Call) -> None:
    evaluation = make_gate('mode = "full-access"').evaluate(
        call("install", manager="pip", packages=["requests"])
    )
    assert summary(evaluation) == {
        "decision": "ask",
        "rules": ["install.confirm"],
        "effects": ["install"],
        "marker": None,
    }


def test_a_non_interactive_install_is_denied(make_gate: GateFactory, call: Call) -> None:
    evaluation = make_gate().evaluate(
        call("install", interactive=False, manager="npm", packages=["left-pad"])
    )
    assert [r.rule for r in evaluation.reasons] == ["install.non-interactive"]
    assert evaluation.decision is Decision.DENY


def test_an_install_rule_naming_the_manager_and_every_package_allows_it(
    make_gate: GateFactory, call: Call
) -> None:
    gate = make_gate('[[rule]]\ntool = "install"\npattern = "pip requests*"\naction = "allow"\n')
    assert gate.evaluate(call("install", manager="pip", packages=["requests"])).decision is Decision.ALLOW
    assert (
        gate.evaluate(call("install", manager="pip", packages=["requests", "evil"])).decision is Decision.ASK
    )
    assert gate.evaluate(call("install", manager="npm", packages=["requests"])).decision is Decision.ASK


@pytest.mark.parametrize(
    ("mode", "operation", "expected"),
    [
        ("workspace", "read", "allow"),
        ("workspace", "write", "allow"),
        ("workspace", "delete", "ask"),
        ("full-access", "delete", "ask"),
        ("read-only", "read", "allow"),
        ("read-only", "write", "deny"),
        ("read-only", "delete", "deny"),
    ],
)
def test_database_operations_by_class(
    make_gate: GateFactory, call: Call, mode: str, operation: str, expected: str
) -> None:
    evaluation = make_gate(f'mode = "{mode}"').evaluate(call("db", operation=operation, target="users"))
    assert evaluation.decision.label == expected


def test_mcp_calls_ask_by_default_and_follow_server_tool_rules(make_gate: GateFactory, call: Call) -> None:
    gate = make_gate(
        '[[rule]]\ntool = "mcp"\npattern = "files/read_*"\naction = "allow"\n'
        '[[rule]]\ntool = "mcp"\npattern = "files/delete_*"\naction = "deny"\nreason = "no deleting"\n'
    )
    assert gate.evaluate(call("mcp", server="files", tool="read_file")).decision is Decision.ALLOW
    denied = gate.evaluate(call("mcp", server="files", tool="delete_all"))
    assert (denied.decision, denied.reasons[0].message, denied.marker) == (
        Decision.DENY,
        "no deleting",
        "[policy-denied]",
    )
    assert gate.evaluate(call("mcp", server="other", tool="x")).decision is Decision.ASK


def test_mcp_hints_only_tighten(make_gate: GateFactory, call: Call) -> None:
    gate = make_gate('mode = "full-access"')
    destructive = gate.evaluate(call("mcp", server="s", tool="t", annotations={"destructiveHint": True}))
    assert [r.rule for r in destructive.reasons] == ["mcp.destructive"]
    read_only_hint = make_gate().evaluate(
        call("mcp", server="s", tool="t", annotations={"readOnlyHint": True})
    )
    assert read_only_hint.decision is Decision.ASK
