"""``[exec] contain`` through the real ``bastion hook`` process: which answers rewrite the
shell call to run contained (an allowed call: its prepared run's line, no Python; a
question: ``bastion sandbox run``), and which agents can be rewritten at all."""

from __future__ import annotations

import json
import os
import shlex
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.adapters.hooks.conftest import Sandbox, bastion_exe, run_hook
from tests.adapters.hooks.contained import canonical_answer


def _env(sandbox: Sandbox, policy: str, **extra: str) -> dict[str, str]:
    folder = sandbox.home / ".config" / "bastion"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "policy.toml").write_text(policy)
    source = {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}
    return sandbox.env(**source, **extra)


def _claude(sandbox: Sandbox, command: str, env: dict[str, str]) -> dict[str, Any]:
    payload = {
        "hook_event_name": "PreToolUse", "cwd": str(sandbox.project), "session_id": "s",
        "tool_name": "Bash", "tool_input": {"command": command},
    }  # fmt: skip
    out: dict[str, Any] = canonical_answer(run_hook("claude", json.dumps(payload), env).json)
    return out["hookSpecificOutput"]  # type: ignore[no-any-return]


def _contained(sandbox: Sandbox, profile: str, command: str, timeout: str = "120") -> str:
    return (
        f"{bastion_exe()} sandbox run --profile {profile} --cwd {sandbox.project} "
        f"--timeout {timeout} -- bash -c '{command}'"
    )


def _prepared(profile: str, command: str, timeout: str = "120") -> str:
    """An allowed call's prepared line, as ``canonical`` reads it."""
    return f"$CONTAINED({profile}, network: none) --timeout {timeout} -- bash -c '{command}'"


def test_contain_allowed_rewrites_an_allowed_call(sandbox: Sandbox) -> None:
    env = _env(sandbox, '[exec]\ncontain = "allowed"\n', CLAUDE_CODE_ENTRYPOINT="sdk-cli")

    out = _claude(sandbox, "ls src", env)

    assert out["permissionDecision"] == "allow"
    assert out["updatedInput"] == {"command": _prepared("read-only", "ls src")}


#: A call that asks whatever runs it: what runs is only known at run time (``shell.dynamic``).
ASKED = "$PYTHON build.py"


def test_contain_allowed_leaves_a_call_the_person_is_asked_about_as_written(sandbox: Sandbox) -> None:
    env = _env(sandbox, '[exec]\ncontain = "allowed"\n', CLAUDE_CODE_ENTRYPOINT="cli")

    out = _claude(sandbox, ASKED, env)

    assert out["permissionDecision"] == "ask"
    assert "updatedInput" not in out


def test_contain_all_shows_the_person_the_contained_command_they_approve(sandbox: Sandbox) -> None:
    env = _env(sandbox, '[exec]\ncontain = "all"\n', CLAUDE_CODE_ENTRYPOINT="cli")

    out = _claude(sandbox, ASKED, env)

    assert out["permissionDecision"] == "ask"
    assert out["updatedInput"] == {"command": _contained(sandbox, "workspace-write", ASKED)}


def test_workspace_code_is_allowed_and_runs_in_its_prepared_workspace_code_sandbox(sandbox: Sandbox) -> None:
    env = _env(sandbox, '[exec]\ncontain = "all"\n', CLAUDE_CODE_ENTRYPOINT="cli")

    out = _claude(sandbox, "python3 build.py", env)

    assert out["permissionDecision"] == "allow"
    assert out["updatedInput"] == {"command": _prepared("workspace-code", "python3 build.py")}


def test_workspace_code_asks_where_the_call_would_run_as_written(sandbox: Sandbox) -> None:
    env = _env(sandbox, '[exec]\ncontain = "off"\n', CLAUDE_CODE_ENTRYPOINT="cli")

    out = _claude(sandbox, "python3 build.py", env)

    assert (out["permissionDecision"], "updatedInput" in out) == ("ask", False)
    assert "allowed only inside the sandbox" in out["permissionDecisionReason"]


def test_contain_off_rewrites_nothing(sandbox: Sandbox) -> None:
    env = _env(sandbox, '[exec]\ncontain = "off"\n', CLAUDE_CODE_ENTRYPOINT="sdk-cli")

    out = _claude(sandbox, "ls src", env)

    assert (out["permissionDecision"], "updatedInput" in out) == ("allow", False)


def test_a_denied_call_is_never_rewritten(sandbox: Sandbox) -> None:
    env = _env(sandbox, '[exec]\ncontain = "all"\n', CLAUDE_CODE_ENTRYPOINT="sdk-cli")

    out = _claude(sandbox, "rm -rf ~", env)

    assert (out["permissionDecision"], "updatedInput" in out) == ("deny", False)


def test_a_workspace_too_big_to_check_asks_with_how_to_skip_it_instead_of_running(sandbox: Sandbox) -> None:
    for index in range(60):
        (sandbox.project / f"f{index}").touch()
    env = _env(sandbox, "[exec]\nscan_max_entries = 50\n", CLAUDE_CODE_ENTRYPOINT="cli")

    out = _claude(sandbox, "ls", env)

    assert out["permissionDecision"] == "ask"
    assert "more than 50 entries" in out["permissionDecisionReason"]
    assert "[exec] scan_skip" in out["permissionDecisionReason"]
    assert "updatedInput" not in out


def test_copilot_gets_the_contained_command_as_modified_args(sandbox: Sandbox) -> None:
    env = _env(sandbox, "")
    payload = {"timestamp": 1, "cwd": str(sandbox.project), "toolName": "bash",
               "toolArgs": json.dumps({"command": "ls src"})}  # fmt: skip

    out = canonical_answer(run_hook("copilot", json.dumps(payload), env).json)

    assert out["permissionDecision"] == "allow"
    assert out["modifiedArgs"] == {"command": _prepared("read-only", "ls src")}


def test_codex_gets_the_contained_command_as_updated_input_with_an_explicit_allow(sandbox: Sandbox) -> None:
    env = _env(sandbox, "")
    payload = {"hook_event_name": "PreToolUse", "cwd": str(sandbox.project), "session_id": "s",
               "tool_name": "Bash", "tool_input": {"command": "ls src"}}  # fmt: skip

    run = run_hook("codex", json.dumps(payload), env)

    assert (run.exit_code, run.stderr) == (0, "")
    assert canonical_answer(run.json) == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": run.json["hookSpecificOutput"]["permissionDecisionReason"],
            "updatedInput": {"command": _prepared("read-only", "ls src")},
        }
    }


def test_codex_gets_no_output_for_an_allow_that_is_not_rewritten(sandbox: Sandbox) -> None:
    env = _env(sandbox, '[exec]\ncontain = "off"\n')
    payload = {"hook_event_name": "PreToolUse", "cwd": str(sandbox.project), "session_id": "s",
               "tool_name": "Bash", "tool_input": {"command": "ls src"}}  # fmt: skip

    run = run_hook("codex", json.dumps(payload), env)

    assert (run.exit_code, run.stdout, run.stderr) == (0, "", "")


def test_gemini_gets_the_contained_command_as_hook_specific_tool_input(sandbox: Sandbox) -> None:
    env = _env(sandbox, "")
    payload = {"hook_event_name": "BeforeTool", "cwd": str(sandbox.project), "session_id": "s",
               "tool_name": "run_shell_command", "tool_input": {"command": "ls src", "description": "list"}}  # fmt: skip

    run = run_hook("gemini", json.dumps(payload), env)

    assert run.exit_code == 0
    assert canonical_answer(run.json) == {
        "decision": "allow",
        "reason": run.json["reason"],
        "hookSpecificOutput": {
            "hookEventName": "BeforeTool",
            "tool_input": {"command": _prepared("read-only", "ls src"), "description": "list"},
        },
    }


def test_gemini_gets_no_rewrite_on_a_denied_call(sandbox: Sandbox) -> None:
    env = _env(sandbox, "")
    payload = {"hook_event_name": "BeforeTool", "cwd": str(sandbox.project), "session_id": "s",
               "tool_name": "run_shell_command", "tool_input": {"command": "rm -rf ~"}}  # fmt: skip

    run = run_hook("gemini", json.dumps(payload), env)

    assert (run.exit_code, run.json["decision"], "hookSpecificOutput" in run.json) == (2, "deny", False)


def test_qwen_whose_hooks_cannot_rewrite_gets_the_plain_answer(sandbox: Sandbox) -> None:
    env = _env(sandbox, "")
    payload = {"hook_event_name": "PreToolUse", "cwd": str(sandbox.project), "session_id": "s",
               "tool_name": "run_shell_command", "tool_input": {"command": "ls src"}}  # fmt: skip

    run = run_hook("qwen", json.dumps(payload), env)

    assert run.exit_code == 0
    assert ("sandbox run" in run.stdout, "bwrap" in run.stdout) == (False, False)


@given(st.text(min_size=1, max_size=200))
@settings(max_examples=200, deadline=None)
def test_the_rewritten_command_carries_the_original_word_for_word_whatever_it_holds(command: str) -> None:
    from bastion.adapters.hooks.contain import contained_command
    from bastion.policy.containment import Filesystem, Profile

    profile = Profile(Filesystem.WORKSPACE_WRITE)

    rewritten = contained_command({"command": command}, profile, cwd="/w d", policy_path=None)

    words = shlex.split(rewritten)
    assert words[1:] == ["sandbox", "run", "--profile", "workspace-write", "--cwd", "/w d", "--timeout", "120",
                         "--", "bash", "-c", command]  # fmt: skip


def test_gemini_shows_the_person_the_contained_command_under_contain_all(sandbox: Sandbox) -> None:
    env = _env(sandbox, '[exec]\ncontain = "all"\n', BASTION_HOOK_INTERACTIVE="1")
    payload = {"hook_event_name": "BeforeTool", "cwd": str(sandbox.project), "session_id": "s",
               "tool_name": "run_shell_command", "tool_input": {"command": ASKED}}  # fmt: skip

    run = run_hook("gemini", json.dumps(payload), env)

    assert (run.exit_code, run.json["decision"]) == (0, "ask")
    assert run.json["hookSpecificOutput"] == {
        "hookEventName": "BeforeTool",
        "tool_input": {"command": _contained(sandbox, "workspace-write", ASKED)},
    }


def test_codex_which_cannot_ask_gets_a_denial_without_any_rewrite_under_contain_all(sandbox: Sandbox) -> None:
    env = _env(sandbox, '[exec]\ncontain = "all"\n')
    payload = {"hook_event_name": "PreToolUse", "cwd": str(sandbox.project), "session_id": "s",
               "tool_name": "Bash", "tool_input": {"command": ASKED}}  # fmt: skip

    run = run_hook("codex", json.dumps(payload), env)

    assert run.exit_code == 2
    assert run.json["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "updatedInput" not in run.json["hookSpecificOutput"]


def test_a_host_profile_a_person_approved_names_its_request_and_nothing_else_does() -> None:
    import dataclasses

    from bastion.adapters.hooks.contain import contain_verdict
    from bastion.adapters.hooks.protocol import Context, HookRequest, Verdict
    from bastion.call.model import ToolCall
    from bastion.policy.containment import Filesystem, Profile
    from bastion.policy.decision import Decision, Evaluation, Reason

    rid = "AbCdEfGhIjKlMnOpQrStUv"
    profile = Profile(Filesystem.WORKSPACE_WRITE, hosts=("github.com",))
    person = Reason(Decision.ALLOW, "approval.person", f"request {rid}", rid, "approved once by a person")
    grant = Reason(Decision.ALLOW, "grant.exact", "grant g1", "git push origin main", "a standing grant")
    args = {"command": "git push origin main"}
    request = HookRequest(tool="Bash", args=args, ctx=Context(agent="claude", cwd="/p"), event="PreToolUse")
    call = ToolCall("shell", args, cwd="/p")

    def line(reason: Reason, chosen: Profile) -> list[str]:
        answer = Evaluation(Decision.ALLOW, (reason,), profile=chosen)
        verdict = contain_verdict(Verdict("allow", "ok", "PreToolUse", evaluation=answer), request, [call])
        assert verdict.updated_input is not None
        return shlex.split(verdict.updated_input["command"])

    approved, granted = line(person, profile), line(grant, profile)
    quiet = line(person, dataclasses.replace(profile, hosts=()))
    assert approved[approved.index("--") - 2 :] == [
        "--approval",
        rid,
        "--",
        "bash",
        "-c",
        "git push origin main",
    ]
    assert ("--approval" in granted, "--approval" in quiet) == (False, False)
