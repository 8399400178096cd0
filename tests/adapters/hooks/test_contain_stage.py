"""Containment is a stage of the gate: the hook asks the gate once, the ledger holds the
answer the agent was told (profile decided before the record), and the adapter only
renders the profile the answer carries."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bastion.adapters.hooks.decide import LocalDecider, Options
from bastion.adapters.hooks.entry import protocol_for
from bastion.adapters.hooks.protocol import Verdict
from bastion.audit.redact import redact
from bastion.configuration import default_configuration
from bastion.construct import open_gatekeeper
from bastion.policy.engine import Gate


def _payload(cwd: Path, command: str) -> dict[str, object]:
    return {"session_id": "s1", "transcript_path": "/dev/null", "cwd": str(cwd),
            "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command},
            "tool_use_id": "toolu_1"}  # fmt: skip


def _hook(env: dict[str, str], cwd: Path, command: str, agent: str = "claude") -> Verdict:
    protocol = protocol_for(agent)
    request = protocol.parse(_payload(cwd, command), env)
    return LocalDecider().decide(request, protocol, Options(env=env))


def _last_record(env: dict[str, str], cwd: Path) -> tuple[str, str, str]:
    with open_gatekeeper(default_configuration(cwd=str(cwd), env=env), env) as keeper:
        event = list(keeper.ledger.events())[-1].event
    return event.decision, event.rule, event.message


@pytest.fixture
def evaluations(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every gate request made, by command."""
    made: list[str] = []
    real = Gate.evaluate

    def counting(self: Gate, call: object) -> object:
        made.append(str(getattr(call, "args", {}).get("command")))
        return real(self, call)  # type: ignore[arg-type]

    monkeypatch.setattr(Gate, "evaluate", counting)
    yield made


def _policy(home: Path, text: str) -> None:
    folder = home / ".config" / "bastion"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "policy.toml").write_text(text)


@pytest.mark.parametrize("interactive", ["1", "0"])
@pytest.mark.parametrize("command", ["git status", "git push origin main", "python3 build.py", "rm -rf ~"])
def test_each_hook_call_asks_the_gate_exactly_once(
    command: str, interactive: str, workspace: Path, env: dict[str, str], evaluations: list[str]
) -> None:
    _hook({**env, "BASTION_HOOK_INTERACTIVE": interactive}, workspace, command)

    assert evaluations == [command]


@pytest.mark.parametrize("interactive", ["1", "0"])
@pytest.mark.parametrize("command", ["ls src", "git push origin main", "python3 build.py", "rm -rf ~"])
def test_the_ledger_holds_the_answer_the_agent_was_told(
    command: str, interactive: str, workspace: Path, env: dict[str, str]
) -> None:
    verdict = _hook({**env, "BASTION_HOOK_INTERACTIVE": interactive}, workspace, command)

    decision, rule, message = _last_record(env, workspace)
    # The agent is told the recorded message, a denial's followed by how to allow it.
    from bastion.policy.remedy import how_to_allow

    remedy = how_to_allow(verdict.evaluation)
    told = f"{message}. {remedy}" if remedy else message
    assert (decision, rule, told) == (verdict.decision, verdict.evaluation.reasons[0].rule, verdict.reason)


def test_a_call_that_cannot_be_contained_is_recorded_as_the_question_the_agent_got(
    workspace: Path, env: dict[str, str], home: Path
) -> None:
    # Before containment was a stage, the ledger said "allow" and the agent was asked.
    for index in range(60):
        (workspace / f"f{index}").touch()
    _policy(home, "[exec]\nscan_max_entries = 50\n")

    verdict = _hook({**env, "BASTION_HOOK_INTERACTIVE": "1"}, workspace, "ls")

    assert (verdict.decision, verdict.updated_input) == ("ask", None)
    # The ledger keeps metadata only: its copy of the reason is redacted (a tmp path can
    # look like a token), the same words the agent got otherwise.
    assert _last_record(env, workspace) == ("ask", "exec.uncontainable", redact(verdict.reason))
    assert "more than 50 entries" in verdict.reason


def test_the_rewritten_command_is_the_profile_the_answer_carries(
    workspace: Path, env: dict[str, str]
) -> None:
    verdict = _hook(env, workspace, "ls src")

    profile = verdict.evaluation.profile
    assert (verdict.decision, profile.label) == ("allow", "read-only, network: none")
    assert verdict.updated_input is not None
    assert " ".join(profile.argv()) in verdict.updated_input["command"]


def test_an_agent_that_cannot_rewrite_gets_no_profile_it_would_not_apply(
    workspace: Path, env: dict[str, str]
) -> None:
    verdict = _hook(env, workspace, "ls src", agent="qwen")

    assert (
        verdict.decision,
        verdict.evaluation.profile,
        "sandbox run" in json.dumps(verdict.updated_input),
    ) == (
        "allow",
        None,
        False,
    )
