"""Containment is a stage of the gate: the hook asks the gate once, the ledger holds the
answer the agent was told (profile decided and an allowed call's run prepared before the
record), and the adapter only renders the run the answer carries."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bastion.adapters.hooks.decide import LocalDecider, Options
from bastion.adapters.hooks.entry import protocol_for
from bastion.adapters.hooks.protocol import Verdict
from bastion.audit.redact import redact
from bastion.configuration import default_configuration
from bastion.construct import open_gatekeeper
from bastion.exec import host, prepared
from bastion.exec.prepared import runs_dir
from bastion.exec.settle import pending
from bastion.policy.engine import Gate
from tests.adapters.hooks.contained import canonical


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

    profile, prepared = verdict.evaluation.profile, verdict.evaluation.prepared
    assert (verdict.decision, profile.label) == ("allow", "read-only, network: none")
    assert verdict.updated_input == {"command": prepared.shell_command("ls src", 120.0)}
    assert canonical(verdict.updated_input["command"]) == (
        "$CONTAINED(read-only, network: none) --timeout 120 -- bash -c 'ls src'"
    )


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


@pytest.mark.parametrize("broken", ["no bwrap", "no run record"])
def test_an_allowed_call_whose_run_cannot_be_prepared_is_recorded_as_the_question_the_agent_got(
    broken: str, workspace: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if broken == "no bwrap":
        monkeypatch.setattr(host, "bwrap_problem", lambda: "bubblewrap ('bwrap') is not installed")
    else:
        monkeypatch.setattr(prepared, "write_record", _refuse)

    verdict = _hook({**env, "BASTION_HOOK_INTERACTIVE": "1"}, workspace, "ls src")

    assert (verdict.decision, verdict.updated_input, verdict.evaluation.prepared) == ("ask", None, None)
    assert _last_record(env, workspace) == ("ask", "exec.uncontainable", redact(verdict.reason))
    assert verdict.reason.startswith("this call cannot run contained here")


def _refuse(*args: object) -> None:
    raise PermissionError(13, "the state dir refused the run's record")


def test_a_check_builds_no_run(workspace: Path, env: dict[str, str]) -> None:
    from bastion.call.model import ToolCall
    from bastion.construct import HOOK_OPTIONS

    config = default_configuration(cwd=str(workspace), env=env)
    with open_gatekeeper(config, env, options=HOOK_OPTIONS) as keeper:
        answer = keeper.decide(ToolCall(tool="shell", args={"command": "ls src"}, cwd=str(workspace)))

    assert (answer.decision.label, answer.profile.label, answer.prepared) == (
        "allow",
        "read-only, network: none",
        None,
    )
    assert pending(runs_dir(env["BASTION_STATE_DIR"])) == []


def test_the_exit_of_a_contained_run_is_recorded_by_the_next_call(
    workspace: Path, env: dict[str, str]
) -> None:
    first = _hook(env, workspace, "ls src")
    done = subprocess.run(["bash", "-c", first.updated_input["command"]], cwd=workspace, env=env,
                          capture_output=True, text=True, timeout=60, check=False)  # fmt: skip
    _wait_settleable(env)

    _hook(env, workspace, "ls")

    with open_gatekeeper(default_configuration(cwd=str(workspace), env=env), env) as keeper:
        events = [e.event for e in keeper.ledger.events()]
    executed = [(e.kind, e.summary, e.rule, e.exit_code, e.session) for e in events if e.kind == "executed"]
    assert (done.returncode, done.stdout) == (0, "app.py\n")
    assert executed == [("executed", "shell: ls src", "exec.contained", 0, "s1")]


def test_the_daemon_records_the_exit_after_its_reply(workspace: Path, env: dict[str, str]) -> None:
    from bastion.adapters.hooks.daemon import ResidentDecider

    decider = ResidentDecider()
    protocol = protocol_for("claude")
    try:
        verdict = decider.decide(
            protocol.parse(_payload(workspace, "ls src"), env), protocol, Options(env=env)
        )
        subprocess.run(["bash", "-c", verdict.updated_input["command"]], cwd=workspace, env=env,
                       capture_output=True, timeout=60, check=False)  # fmt: skip
        _wait_settleable(env)
        decider.settle_runs()
    finally:
        decider.close()

    with open_gatekeeper(default_configuration(cwd=str(workspace), env=env), env) as keeper:
        kinds = [(e.event.kind, e.event.exit_code) for e in keeper.ledger.events()]
    assert kinds == [("decided", None), ("executed", 0)]
    assert pending(runs_dir(env["BASTION_STATE_DIR"])) == []


def _wait_settleable(env: dict[str, str]) -> None:
    """Until the run's sandbox has finished its teardown (its cgroups empty): a run is
    settled only then, so that its exit is never recorded while a process of it lives."""
    import time

    folder = runs_dir(env["BASTION_STATE_DIR"])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        records = [p for p in Path(folder).glob("*.json")]
        if all(not _occupied(p) for p in records):
            return
        time.sleep(0.02)


def _occupied(record: Path) -> bool:
    import json as j

    from bastion.exec.settle import _occupied as occupied

    return occupied(j.loads(record.read_text()).get("cgroups", []))
