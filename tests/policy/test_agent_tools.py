"""The 002 seed's tool vocabulary: every name is decided by the family whose policy input
controls its risk, with reasons; none is ever an unknown family."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bastion import Gate, ToolCall
from bastion.approval.model import NON_GRANTABLE_EFFECTS
from bastion.call.agent_tools import NAMES
from bastion.call.aliases import canonical
from bastion.call.effects import Effect

GateFactory = Callable[..., Gate]
HOSTS = {"api.search.brave.com": ["52.1.2.3"], "images.example.org": ["93.184.215.14"]}
POLICY = '[network]\nallow_hosts = ["api.search.brave.com"]\n'


def decide(gate: Gate, workspace: Path, tool: str, args: dict[str, Any], interactive: bool = True) -> Any:
    family, mapped = canonical(tool, args)
    evaluation = gate.evaluate(ToolCall(family, dict(mapped), cwd=str(workspace), interactive=interactive))
    return family, evaluation.decision.label, [r.rule for r in evaluation.reasons], list(evaluation.effects)


CASES: list[tuple[str, dict[str, Any], tuple[str, str, list[str], list[str]]]] = [
    ("web_search", {"query": "rust", "host": "api.search.brave.com"},
     ("fetch", "allow", ["network.allow_hosts"], ["network"])),
    ("web_search", {"query": "rust"}, ("agent", "ask", ["network.unlisted", "approval.interactive_default"],
                                       ["network"])),
    ("send_file", {"url": "https://images.example.org/cat.png"},
     ("fetch", "ask", ["network.unlisted", "approval.interactive_default"], ["network"])),
    ("send_file", {"path": "README.md"}, ("read", "allow", ["paths.roots"], ["read"])),
    ("memory_write", {"fact": "likes tea"}, ("db", "allow", ["mode.workspace"], ["db-write"])),
    ("memory_read", {"query": "tea"}, ("db", "allow", ["mode.workspace"], ["db-read"])),
    ("memory_recent", {}, ("db", "allow", ["mode.workspace"], ["db-read"])),
    ("person_record", {"name": "Ada"}, ("db", "allow", ["mode.workspace"], ["db-write"])),
    ("attachment_read", {"path": "README.md"}, ("read", "allow", ["paths.roots"], ["read"])),
    ("delegate", {"task": "x"}, ("agent", "allow", ["delegation.ceiling"], [])),
    ("ask_agent", {"agent": "reviewer"}, ("agent", "allow", ["delegation.ceiling"], [])),
    ("task_plan", {"steps": ["a"]}, ("agent", "allow", ["agent.plan"], [])),
    ("skill_create", {"name": "s"}, ("agent", "ask", ["agent.configuration"], ["self"])),
    ("skill_improve", {"name": "s"}, ("agent", "ask", ["agent.configuration"], ["self"])),
    ("skill_toggle", {"name": "s"}, ("agent", "ask", ["agent.configuration"], ["self"])),
    ("agent_create", {"name": "a"}, ("agent", "ask", ["agent.configuration"], ["self"])),
    ("agent_configure", {"name": "a"}, ("agent", "ask", ["agent.configuration"], ["self"])),
    ("sessions", {}, ("agent", "ask", ["agent.configuration"], ["self"])),
]  # fmt: skip


@pytest.mark.parametrize(("tool", "args", "expected"), CASES, ids=lambda v: v if isinstance(v, str) else "")
def test_each_002_tool_is_decided_by_the_family_that_carries_its_risk(
    make_gate: GateFactory, workspace: Path, tool: str, args: dict[str, Any], expected: Any
) -> None:
    gate = make_gate(POLICY, hosts=HOSTS)
    if "path" in args:
        args = {**args, "path": str(workspace / args["path"])}
    assert decide(gate, workspace, tool, args) == expected


def test_the_table_covers_every_002_name() -> None:
    assert {tool for tool, _, _ in CASES} == NAMES
    assert len(NAMES) == 16


def test_agent_configuration_is_never_a_standing_grant_and_nobody_present_means_no(
    make_gate: GateFactory, workspace: Path
) -> None:
    assert Effect.SELF in NON_GRANTABLE_EFFECTS
    assert decide(make_gate(), workspace, "skill_create", {}, interactive=False)[1:3] == (
        "deny",
        ["agent.configuration", "approval.non_interactive_default"],
    )
    # an allow rule for the family does not lift the confirmation either
    gate = make_gate('[[rule]]\ntool = "agent"\naction = "allow"\n')
    assert decide(gate, workspace, "agent_configure", {})[1:3] == ("ask", ["agent.configuration"])


def test_a_delegate_asking_for_a_looser_ceiling_than_its_session_is_denied(
    make_gate: GateFactory, workspace: Path
) -> None:
    gate = make_gate(
        '[ceiling]\napproval = "ask_for_risky"\nfilesystem = "workspace_write"\nnetwork = "denied"\n'
    )
    stricter = decide(gate, workspace, "delegate", {"ceiling": "ask_every_action,read_only,denied"})
    looser = decide(gate, workspace, "ask_agent", {"ceiling": "never_ask,workspace_write,allowed"})
    assert stricter[1:3] == ("allow", ["delegation.ceiling"])
    assert looser[1:3] == ("deny", ["delegation.looser"])
    assert decide(gate, workspace, "delegate", {"ceiling": "everything"})[1:3] == ("deny", ["call.invalid"])


def test_read_only_refuses_memory_writes_and_agent_configuration_but_plans(
    make_gate: GateFactory, workspace: Path
) -> None:
    gate = make_gate('mode = "read-only"')
    assert {
        tool: decide(gate, workspace, tool, {})[1]
        for tool in ("memory_write", "memory_recent", "skill_toggle", "task_plan", "web_search")
    } == {"memory_write": "deny", "memory_recent": "allow", "skill_toggle": "deny", "task_plan": "allow",
          "web_search": "deny"}  # fmt: skip


def test_reading_the_credentials_dir_through_an_attachment_stays_a_credential_read(
    make_gate: GateFactory, workspace: Path, home: Path
) -> None:
    target = str(home / ".bastion" / "credentials" / "token.json")
    assert decide(make_gate(), workspace, "attachment_read", {"path": target})[1:3] == (
        "deny",
        ["hardline.credentials"],
    )
