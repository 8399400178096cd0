"""The hook path writes through the gatekeeper only: a broken policy, an unknown tool and a
hand-off to the agent's prompt all leave a ledger record; ``bastion serve --policy FILE``
governs the hooks its socket answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bastion.adapters.hooks.daemon import ResidentDecider, answer_hook
from bastion.adapters.hooks.decide import LocalDecider, Options
from bastion.adapters.hooks.entry import protocol_for
from bastion.configuration import default_configuration
from bastion.construct import open_gatekeeper


def _payload(cwd: Path, tool: str, tool_input: dict[str, object]) -> dict[str, object]:
    return {"session_id": "s1", "transcript_path": "/dev/null", "cwd": str(cwd),
            "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input,
            "tool_use_id": "toolu_1"}  # fmt: skip


def _recorded(env: dict[str, str], cwd: Path) -> list[tuple[str, str, str, str]]:
    with open_gatekeeper(default_configuration(cwd=str(cwd), env=env), env) as keeper:
        return [
            (r.event.kind, r.event.decision, r.event.resolver, r.event.rule) for r in keeper.ledger.events()
        ]


def _decide(env: dict[str, str], cwd: Path, tool: str, tool_input: dict[str, object],
            policy: str | None = None) -> tuple[str, str, object]:  # fmt: skip
    protocol = protocol_for("claude")
    request = protocol.parse(_payload(cwd, tool, tool_input), env)
    verdict = LocalDecider().decide(request, protocol, Options(env=env, policy_path=policy))
    return verdict.decision, verdict.reason, verdict.evaluation.reasons[0].rule


@pytest.mark.parametrize("text", ["[[rule]\n", "mode = 3\n", 'ttl = "forever"\n'])
def test_a_hook_that_fails_on_a_broken_policy_still_leaves_a_ledger_record(
    text: str, workspace: Path, env: dict[str, str], tmp_path: Path
) -> None:
    policy = tmp_path / "policy.toml"
    policy.write_text(text)
    decision, reason, rule = _decide(env, workspace, "Bash", {"command": "git status"}, str(policy))
    assert (decision, rule) == ("deny", "policy.invalid")
    assert reason.startswith("[policy-denied] cannot decide safely: the policy failed to load")
    assert _recorded(env, workspace) == [("decided", "deny", "policy", "policy.invalid")]


def test_an_unknown_tool_is_refused_with_the_same_words_and_recorded(
    workspace: Path, env: dict[str, str]
) -> None:
    decision, reason, rule = _decide(env, workspace, "FrobnicateTool", {"x": 1})
    assert (decision, reason, rule) == (
        "deny",
        "cannot decide safely: UnknownTool: unknown tool 'FrobnicateTool': Bastion cannot tell what it does. "
        "It cannot be allowed as it is: Bastion could not decide it safely (see why above).",
        "call.invalid",
    )
    assert _recorded(env, workspace) == [("decided", "deny", "policy", "call.invalid")]


def test_an_ask_handed_to_the_agents_prompt_is_recorded_by_the_gatekeeper(
    workspace: Path, env: dict[str, str]
) -> None:
    interactive = {**env, "BASTION_HOOK_INTERACTIVE": "1"}
    decision, _, _ = _decide(interactive, workspace, "Bash", {"command": "git push origin main"})
    assert decision == "ask"
    assert [r[:3] for r in _recorded(env, workspace)] == [("requested", "ask", "agent")]


def test_serve_policy_governs_the_hooks_its_daemon_answers(
    workspace: Path, env: dict[str, str], tmp_path: Path
) -> None:
    served = tmp_path / "served.toml"
    served.write_text('mode = "read-only"\n')
    message = {"args": ["claude"], "env": {}, "stdin": json.dumps(_payload(workspace, "Write", {
        "file_path": str(workspace / "notes.txt"), "content": "x"}))}  # fmt: skip
    free = ResidentDecider()
    governed = ResidentDecider(policy_path=str(served))
    try:
        answers = [
            json.loads(answer_hook(message, decider=d, base_env=env)["stdout"]) for d in (free, governed)
        ]
    finally:
        free.close()
        governed.close()
    assert [a["hookSpecificOutput"]["permissionDecision"] for a in answers] == ["allow", "deny"]


def test_a_hook_runs_the_one_boot_check_and_records_its_refusal(
    workspace: Path, env: dict[str, str], tmp_path: Path
) -> None:
    policy = tmp_path / "creds.toml"
    policy.write_text(f'credentials_dir = "{workspace / "secrets"}"\n')
    decision, reason, rule = _decide(
        env, workspace, "Read", {"file_path": str(workspace / "README.md")}, str(policy)
    )
    assert (decision, rule) == ("deny", "policy.invalid")
    assert "lies inside the readable root" in reason
    assert _recorded(env, workspace) == [("decided", "deny", "policy", "policy.invalid")]
