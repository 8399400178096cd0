"""A subagent's calls through the hooks: Claude Code puts ``agent_id`` in the hook input of
every call made inside a subagent (absent on the main thread); such a call is decided in a
child session of the agent's session, linked to it in the ledger, and it uses up the
parent's limits too."""

from __future__ import annotations

import json
from typing import Any

from bastion.adapters.hooks.daemon import answer_hook
from bastion.adapters.hooks.decide import LocalDecider
from bastion.audit.events import AuditEvent
from bastion.configuration import load_configuration
from bastion.construct import open_gatekeeper
from tests.adapters.hooks.conftest import Sandbox, run_hook

SESSION = "b71c0a77-0644-4d6e-9da1-b1136c53262b"


def payload(sandbox: Sandbox, tool: str, tool_input: dict[str, Any], **extra: str) -> dict[str, Any]:
    """Claude Code 2.1's PreToolUse input (see tests/adapters/hooks/fixtures/claude)."""
    return {
        "session_id": SESSION,
        "transcript_path": f"{sandbox.home}/.claude/projects/p/s.jsonl",
        "cwd": str(sandbox.project),
        "prompt_id": "c5957069-18a8-4488-b3b4-4980171d8bcf",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_1",
        **extra,
    }


def hook(sandbox: Sandbox, body: dict[str, Any]) -> dict[str, Any]:
    env = sandbox.env(BASTION_HOOK_NO_DAEMON="1")
    return answer_hook(
        {"args": ["claude"], "stdin": json.dumps(body), "env": env}, decider=LocalDecider(), base_env=env
    )


def decision(reply: dict[str, Any]) -> str:
    return str(json.loads(reply["stdout"])["hookSpecificOutput"]["permissionDecision"])


def ledger(sandbox: Sandbox) -> list[AuditEvent]:
    env = sandbox.env()
    with open_gatekeeper(load_configuration(cwd=str(sandbox.project), env=env), env) as keeper:
        return [r.event for r in keeper.ledger.events()]


def test_a_subagents_call_is_decided_in_a_child_session_linked_to_its_parent(sandbox: Sandbox) -> None:
    (sandbox.project / "notes.md").write_text("hi\n")
    task = hook(
        sandbox,
        payload(
            sandbox,
            "Task",
            {"description": "look", "prompt": "read notes", "subagent_type": "general-purpose"},
        ),
    )
    main = hook(sandbox, payload(sandbox, "Read", {"file_path": str(sandbox.project / "notes.md")}))
    sub = hook(
        sandbox,
        payload(
            sandbox,
            "Read",
            {"file_path": str(sandbox.project / "notes.md")},
            agent_id="a1b2c3",
            agent_type="general-purpose",
        ),
    )
    assert [decision(r) for r in (task, main, sub)] == ["allow", "allow", "allow"]
    records = [(e.session, e.parent, e.tool, e.decision) for e in ledger(sandbox)]
    assert records == [
        (SESSION, None, "read", "allow"),
        (f"{SESSION}/agent/a1b2c3", SESSION, "read", "allow"),
    ]


def test_a_subagent_call_is_denied_where_its_parent_is(sandbox: Sandbox) -> None:
    key = {"file_path": str(sandbox.home / ".ssh" / "id_rsa")}
    reply = hook(sandbox, payload(sandbox, "Read", key, agent_id="a1b2c3"))
    assert (decision(reply), reply["exit_code"]) == ("deny", 2)
    assert [(e.parent, e.rule) for e in ledger(sandbox)] == [(SESSION, "hardline.credentials")]


def test_subagent_calls_use_up_the_parents_turn_budget(sandbox: Sandbox) -> None:
    (sandbox.project / ".bastion").mkdir()
    (sandbox.project / ".bastion" / "policy.toml").write_text("[limits]\nmax_calls_per_turn = 2\n")
    listing = {"command": "ls"}
    replies = [
        hook(sandbox, payload(sandbox, "Bash", listing)),
        hook(sandbox, payload(sandbox, "Bash", listing, agent_id="a1")),
        hook(sandbox, payload(sandbox, "Bash", listing, agent_id="a2")),
    ]
    assert [decision(r) for r in replies] == ["allow", "allow", "deny"]
    assert (
        "the limits of parent session"
        in json.loads(replies[2]["stdout"])["hookSpecificOutput"]["permissionDecisionReason"]
    )


def test_an_agent_id_that_is_not_a_string_is_denied(sandbox: Sandbox) -> None:
    for bad in ({"agent_id": 7}, {"agent_id": ""}, {"agent_id": ["a"]}):
        body = {**payload(sandbox, "Bash", {"command": "ls"}), **bad}
        reply = hook(sandbox, body)
        assert (decision(reply), reply["exit_code"]) == ("deny", 2)
        assert "agent_id must be a non-empty string" in reply["stderr"]


def test_the_real_hook_process_links_a_subagent_call(sandbox: Sandbox) -> None:
    body = payload(sandbox, "Bash", {"command": "ls"}, agent_id="agent-7", agent_type="Explore")
    run = run_hook("claude", json.dumps(body), sandbox.env(BASTION_HOOK_NO_DAEMON="1"))
    assert (run.json["hookSpecificOutput"]["permissionDecision"], run.exit_code) == ("allow", 0)
    assert [(e.session, e.parent) for e in ledger(sandbox)] == [(f"{SESSION}/agent/agent-7", SESSION)]
