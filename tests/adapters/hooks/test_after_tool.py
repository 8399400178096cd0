"""What people decide in Claude Code's own prompt reaches the ledger: an ASK handed to the
prompt is resolved ``allow`` by ``claude prompt`` once Claude reports that the call ran
(``PostToolUse``, ``PostToolUseFailure``), and ``deny`` once the turn, the subagent or the
session ends without that report. The payloads are the real ones Claude Code 2.1.197 sent
(``fixtures/claude/captured-*.stdin.json``, recorded in the end-to-end runs)."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

import pytest

from bastion.adapters.hooks.daemon import ResidentDecider, answer_hook
from bastion.adapters.hooks.decide import LocalDecider, Options
from bastion.adapters.hooks.entry import protocol_for
from bastion.adapters.hooks.hand_off_marks import marks_dir
from bastion.adapters.hooks.install import hook_checks, install
from bastion.adapters.hooks.protocol import OUTCOME_EVENTS
from bastion.agents.registry import hooks_of
from bastion.configuration import default_configuration
from bastion.construct import open_gatekeeper
from tests.adapters.hooks.conftest import FIXTURES, Sandbox, run_hook

PUSH = {"command": "git push origin main", "description": "push"}
#: Claude Code's own terminal: a person is there, so an ASK goes to its prompt.
AT_THE_TERMINAL = {"CLAUDE_CODE_ENTRYPOINT": "cli"}
REPORTS = ["PostToolUse", "PostToolUseFailure", "Stop", "SubagentStop", "SessionEnd"]


def captured(name: str, sandbox: Sandbox, **changes: Any) -> dict[str, Any]:
    text = (FIXTURES / "claude" / f"captured-{name}.stdin.json").read_text()
    text = text.replace("$PROJECT", str(sandbox.project)).replace("$HOME", str(sandbox.home))
    return {**json.loads(text), **changes}


def hook(sandbox: Sandbox, payload: dict[str, Any]) -> tuple[str, str]:
    """One hook event decided as the installed hook decides it: (decision, stdout)."""
    env = sandbox.env(**AT_THE_TERMINAL)
    protocol = protocol_for("claude")
    verdict = LocalDecider().decide(protocol.parse(payload, env), protocol, Options(env=env))
    return verdict.decision, protocol.render(verdict).stdout


def ask(sandbox: Sandbox, tool_use_id: str = "toolu_bastion_test_1", **changes: Any) -> None:
    payload = captured("pre-tool-use", sandbox, tool_input=PUSH, tool_use_id=tool_use_id, **changes)
    assert hook(sandbox, payload)[0] == "ask"


def ledger(sandbox: Sandbox) -> list[tuple[str, str, str, str | None, str | None]]:
    env = sandbox.env()
    with open_gatekeeper(default_configuration(cwd=str(sandbox.project), env=env), env) as keeper:
        return [
            (r.event.kind, r.event.decision, r.event.resolver, r.event.approver, r.event.agent)
            for r in keeper.ledger.events()
        ]


def test_an_ask_claude_put_to_its_prompt_that_then_ran_is_resolved_allow_by_claude_prompt(
    sandbox: Sandbox,
) -> None:
    ask(sandbox)

    answer = hook(sandbox, captured("post-tool-use", sandbox, tool_input=PUSH))

    assert answer == ("allow", "")
    assert ledger(sandbox) == [
        ("requested", "ask", "agent", None, "claude/toolu_bastion_test_1"),
        ("resolved", "allow", "agent", "claude prompt", "claude/toolu_bastion_test_1"),
    ]


def test_the_resolution_is_the_requested_calls_own_record_led_by_the_prompts_reason(
    sandbox: Sandbox,
) -> None:
    ask(sandbox)

    hook(sandbox, captured("post-tool-use", sandbox, tool_input=PUSH))

    env = sandbox.env()
    with open_gatekeeper(default_configuration(cwd=str(sandbox.project), env=env), env) as keeper:
        requested, resolved = (r.to_json() for r in keeper.ledger.events())
    same = ("decision_id", "tool", "args_hash", "summary", "session", "agent", "turn")
    assert {k: resolved[k] for k in same} == {k: requested[k] for k in same}
    assert (resolved["rule"], resolved["source"], resolved["message"]) == (
        "approval.agent_prompt",
        "claude prompt",
        "approved in the claude prompt: the call ran",
    )
    assert resolved["reasons"] == [
        {"rule": "approval.agent_prompt", "source": "claude prompt", "decision": "allow"},
        *requested["reasons"],
    ]


def test_a_call_that_ran_and_failed_was_approved_all_the_same(sandbox: Sandbox) -> None:
    ask(sandbox)
    session = captured("pre-tool-use", sandbox)["session_id"]  # captured in another run

    hook(sandbox, captured("post-tool-use-failure", sandbox, tool_input=PUSH, session_id=session))

    assert [row[:4] for row in ledger(sandbox)] == [
        ("requested", "ask", "agent", None),
        ("resolved", "allow", "agent", "claude prompt"),
    ]


@pytest.mark.parametrize("end", ["stop", "session-end"])
def test_an_ask_that_never_ran_is_resolved_deny_when_the_turn_or_session_ends(
    end: str, sandbox: Sandbox
) -> None:
    ask(sandbox)

    answer = hook(sandbox, captured(end, sandbox))

    assert answer == ("allow", "")
    assert [row[:4] for row in ledger(sandbox)] == [
        ("requested", "ask", "agent", None),
        ("resolved", "deny", "agent", "claude prompt"),
    ]


def test_only_the_call_that_ran_is_approved_and_a_later_end_changes_nothing_recorded(
    sandbox: Sandbox,
) -> None:
    ask(sandbox, "toolu_1")
    ask(sandbox, "toolu_2")

    hook(sandbox, captured("post-tool-use", sandbox, tool_input=PUSH, tool_use_id="toolu_2"))
    hook(sandbox, captured("stop", sandbox))
    hook(sandbox, captured("post-tool-use", sandbox, tool_input=PUSH, tool_use_id="toolu_1"))  # too late
    hook(sandbox, captured("session-end", sandbox))

    assert [(kind, decision, agent) for kind, decision, _, _, agent in ledger(sandbox)] == [
        ("requested", "ask", "claude/toolu_1"),
        ("requested", "ask", "claude/toolu_2"),
        ("resolved", "allow", "claude/toolu_2"),
        ("resolved", "deny", "claude/toolu_1"),
    ]


def test_a_subagent_stop_closes_only_that_subagents_hand_offs(sandbox: Sandbox) -> None:
    ask(sandbox, "toolu_main")
    ask(sandbox, "toolu_sub", agent_id="a1", agent_type="general-purpose")

    hook(sandbox, {**captured("stop", sandbox), "hook_event_name": "SubagentStop", "agent_id": "a1"})

    assert [(kind, decision, agent) for kind, decision, _, _, agent in ledger(sandbox)] == [
        ("requested", "ask", "claude/toolu_main"),
        ("requested", "ask", "claude/toolu_sub"),
        ("resolved", "deny", "claude/toolu_sub"),
    ]


def test_another_sessions_report_resolves_nothing(sandbox: Sandbox) -> None:
    ask(sandbox)

    hook(sandbox, captured("post-tool-use", sandbox, tool_input=PUSH, session_id="another-session"))
    hook(sandbox, captured("stop", sandbox, session_id="another-session"))

    assert [row[0] for row in ledger(sandbox)] == ["requested"]


@pytest.mark.parametrize("mode", ["bypassPermissions", "acceptEdits", "auto"])
def test_a_call_run_in_a_mode_that_asks_nobody_names_the_mode_not_a_prompt(
    mode: str, sandbox: Sandbox
) -> None:
    ask(sandbox)

    hook(sandbox, captured("post-tool-use", sandbox, tool_input=PUSH, permission_mode=mode))

    assert ledger(sandbox)[1][:4] == ("resolved", "allow", "agent", f"claude {mode}")


def test_a_report_of_a_call_nobody_was_asked_about_records_nothing(sandbox: Sandbox) -> None:
    hook(sandbox, captured("pre-tool-use", sandbox))  # echo ok > marker: allowed

    hook(sandbox, captured("post-tool-use", sandbox))
    hook(sandbox, captured("stop", sandbox))

    assert [row[:3] for row in ledger(sandbox)] == [("decided", "allow", "policy")]


def test_one_call_claude_asks_about_is_requested_once_though_permission_request_follows(
    sandbox: Sandbox,
) -> None:
    ask(sandbox)
    permission = captured("pre-tool-use", sandbox, hook_event_name="PermissionRequest", tool_input=PUSH)
    del permission["tool_use_id"]  # Claude Code's PermissionRequest carries none
    permission["permission_suggestions"] = []

    answer = hook(sandbox, permission)
    hook(sandbox, captured("post-tool-use", sandbox, tool_input=PUSH))

    assert answer == ("ask", "")  # deferred: Claude shows its own prompt
    assert [row[:4] for row in ledger(sandbox)] == [
        ("requested", "ask", "agent", None),
        ("resolved", "allow", "agent", "claude prompt"),
    ]


@pytest.mark.parametrize("event", ["PostToolUse", "PostToolUseFailure", "Stop", "SubagentStop", "SessionEnd"])
@pytest.mark.parametrize("stdin", ["not json", '{"hook_event_name": "Stop"}', "{}"])
def test_a_report_never_blocks_even_when_it_cannot_be_read(event: str, stdin: str, sandbox: Sandbox) -> None:
    run = run_hook("claude", stdin, sandbox.env(**AT_THE_TERMINAL), "--event", event)

    assert (run.stdout, run.exit_code) == ("", 0)
    assert run.stderr.startswith("Bastion: ")


def test_a_post_tool_use_without_its_tool_use_id_resolves_nothing(sandbox: Sandbox) -> None:
    ask(sandbox)
    report = captured("post-tool-use", sandbox, tool_input=PUSH)
    del report["tool_use_id"]

    assert hook(sandbox, report)[0] == "deny"  # answered with nothing all the same
    assert [row[0] for row in ledger(sandbox)] == ["requested"]


def test_the_captured_reports_carry_the_tool_use_id_of_the_call_they_follow() -> None:
    payloads = {
        name: json.loads((FIXTURES / "claude" / f"captured-{name}.stdin.json").read_text())
        for name in ("pre-tool-use", "post-tool-use", "post-tool-use-failure", "stop", "session-end")
    }

    assert {name: (p["hook_event_name"], p.get("tool_use_id")) for name, p in payloads.items()} == {
        "pre-tool-use": ("PreToolUse", "toolu_bastion_test_1"),
        "post-tool-use": ("PostToolUse", "toolu_bastion_test_1"),
        "post-tool-use-failure": ("PostToolUseFailure", "toolu_bastion_test_1"),
        "stop": ("Stop", None),
        "session-end": ("SessionEnd", None),
    }
    assert payloads["post-tool-use"]["session_id"] == payloads["pre-tool-use"]["session_id"]
    assert payloads["post-tool-use"]["permission_mode"] == "default"


def test_install_adds_each_report_so_that_it_can_never_block(sandbox: Sandbox) -> None:
    install("claude", cwd=str(sandbox.project), env=sandbox.env(), executable="/opt/bastion", out=_quiet)

    hooks = json.loads((sandbox.project / ".claude" / "settings.json").read_text())["hooks"]

    assert sorted(hooks) == sorted(["PreToolUse", "PermissionRequest", *REPORTS])
    assert {event: [h["command"] for g in hooks[event] for h in g["hooks"]] for event in REPORTS} == {
        event: [
            'sh -c \'for m in "${BASTION_STATE_DIR:-$HOME/.local/state/bastion}/hand-offs"/*; do '
            f'[ -e "$m" ] && {{ /opt/bastion hook claude --timeout 60 --autostart --event {event}; exit 0; }}; '
            "break; done; exit 0'"
        ]
        for event in REPORTS
    }


def marks(sandbox: Sandbox) -> list[str]:
    folder = marks_dir(sandbox.env())
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


def test_a_hand_off_is_marked_until_its_report_settles_it(sandbox: Sandbox) -> None:
    ask(sandbox, "toolu_a")
    ask(sandbox, "toolu_b")
    marked = marks(sandbox)

    hook(sandbox, captured("post-tool-use", sandbox, tool_input=PUSH, tool_use_id="toolu_a"))
    left = marks(sandbox)
    hook(sandbox, captured("stop", sandbox))

    assert (len(marked), len(left), marks(sandbox)) == (2, 1, [])
    assert set(left) < set(marked)


def test_an_allowed_call_marks_nothing_so_its_report_starts_no_python(sandbox: Sandbox) -> None:
    payload = captured("pre-tool-use", sandbox, tool_input={"command": "git status"}, tool_use_id="toolu_c")

    decision = hook(sandbox, payload)[0]

    assert (decision, marks(sandbox)) == ("allow", [])


def test_the_installed_hooks_record_an_approval_from_claudes_prompt(sandbox: Sandbox) -> None:
    install("claude", cwd=str(sandbox.project), env=sandbox.env(), out=_quiet)
    hooks = json.loads((sandbox.project / ".claude" / "settings.json").read_text())["hooks"]
    env = sandbox.env(**AT_THE_TERMINAL, BASTION_HOOK_AUTOSTART="0")

    def installed(event: str, payload: dict[str, Any]) -> subprocess.CompletedProcess[str]:
        command = hooks[event][0]["hooks"][0]["command"]
        return subprocess.run(
            ["sh", "-c", command], input=json.dumps(payload), capture_output=True, text=True, env=env
        )

    asked = installed("PreToolUse", captured("pre-tool-use", sandbox, tool_input=PUSH))
    ran = installed("PostToolUse", captured("post-tool-use", sandbox, tool_input=PUSH))

    assert json.loads(asked.stdout)["hookSpecificOutput"]["permissionDecision"] == "ask"
    assert (ran.stdout, ran.returncode) == ("", 0)
    assert [row[:4] for row in ledger(sandbox)] == [
        ("requested", "ask", "agent", None),
        ("resolved", "allow", "agent", "claude prompt"),
    ]


def _quiet(*_: object) -> None:
    return None


@pytest.mark.parametrize("event", ["PostToolUse", "Stop"])
def test_a_report_that_hangs_past_its_deadline_still_never_blocks(event: str, sandbox: Sandbox) -> None:
    fifo = sandbox.root / "policy-that-never-opens.toml"
    os.mkfifo(fifo)  # opening it for reading blocks for ever: a real hang inside the hook
    payload = captured("stop" if event == "Stop" else "post-tool-use", sandbox)

    run = run_hook(
        "claude",
        json.dumps(payload),
        sandbox.env(),
        "--event",
        event,
        "--policy",
        str(fifo),
        "--deadline",
        "1",
    )

    assert (run.stdout, run.exit_code) == ("", 0)
    assert "no decision within 1 s" in run.stderr


def test_the_daemon_records_a_report_as_the_hook_process_does(sandbox: Sandbox) -> None:
    ask(sandbox)
    message = {"args": ["claude", "--event", "PostToolUse"], "env": AT_THE_TERMINAL,
               "stdin": json.dumps(captured("post-tool-use", sandbox, tool_input=PUSH))}  # fmt: skip
    decider = ResidentDecider()
    try:
        reply = answer_hook(message, decider=decider, base_env=sandbox.env())
    finally:
        decider.close()

    assert reply == {"stdout": "", "stderr": "", "exit_code": 0}
    assert [row[:4] for row in ledger(sandbox)] == [
        ("requested", "ask", "agent", None),
        ("resolved", "allow", "agent", "claude prompt"),
    ]


def test_doctor_probes_the_deciding_hook_even_when_a_report_comes_first_in_the_settings(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = sandbox.project / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(
        json.dumps({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}})
    )
    install("claude", cwd=str(sandbox.project), env=sandbox.env(), out=_quiet)
    for key, value in sandbox.env().items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(sandbox.project)

    checks = hook_checks(None)

    assert [(ok, detail.startswith("denies a probe 'rm -rf /'")) for _, ok, detail in checks] == [
        (True, True)
    ]


def test_every_report_claudes_record_installs_is_one_the_hook_reads() -> None:
    reports = hooks_of("claude").report_events

    assert sorted(reports) == sorted(REPORTS)
    assert set(reports) == OUTCOME_EVENTS
    assert set(reports) <= set(protocol_for("claude").events)
