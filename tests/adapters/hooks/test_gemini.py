"""Gemini CLI's hook input → whether a person is at the terminal (the prompt log), and the
answer a headless run gets for an ASK (the real CLI runs are in test_e2e_gemini.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from bastion.adapters.hooks.gemini import PROTOCOL, prompt_logged
from tests.adapters.hooks.conftest import Sandbox, run_hook

SESSION = "9a49b0ab-90b3-4476-8736-fd984ccf9882"


def hook_env(sandbox: Sandbox) -> dict[str, str]:
    """The hook process imports the Bastion under test (a worktree), not another one."""
    found = os.environ.get("PYTHONPATH")
    return sandbox.env(**({"PYTHONPATH": found} if found else {}))


def project_tmp(home: Path) -> Path:
    folder = home / ".gemini" / "tmp" / "proj"
    (folder / "chats").mkdir(parents=True, exist_ok=True)
    return folder


def transcript(home: Path) -> str:
    return str(project_tmp(home) / "chats" / f"session-2026-12-01T09-34-{SESSION[:8]}.jsonl")


def log_prompts(home: Path, *sessions: str) -> None:
    """What Gemini's terminal UI writes when a person submits a prompt (captured, 0.61.0)."""
    entries = [
        {"sessionId": s, "messageId": 0, "type": "user", "message": "do the task", "timestamp": "t"}
        for s in sessions
    ]
    (project_tmp(home) / "logs.json").write_text(json.dumps(entries, indent=2))


def payload(home: Path, cwd: Path, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {
        "session_id": SESSION,
        "transcript_path": transcript(home),
        "cwd": str(cwd),
        "hook_event_name": "BeforeTool",
        "timestamp": "2026-12-01T09:34:28.030Z",
        "tool_name": "write_file",
        "tool_input": tool_input,
    }


def test_a_session_whose_prompt_gemini_logged_has_a_person_at_the_terminal(tmp_path: Path) -> None:
    log_prompts(tmp_path, "another-session", SESSION)

    assert prompt_logged(transcript(tmp_path), SESSION) is True


@pytest.mark.parametrize(
    "logged",
    [(), ("another-session",), (SESSION[:-1],)],
    ids=["no-log", "other-session-only", "prefix-of-the-id"],
)
def test_a_session_with_no_logged_prompt_is_headless(tmp_path: Path, logged: tuple[str, ...]) -> None:
    if logged:
        log_prompts(tmp_path, *logged)

    assert prompt_logged(transcript(tmp_path), SESSION) is False


@pytest.mark.parametrize("path", ["", "relative/chats/session.jsonl", None])
def test_a_missing_or_relative_transcript_path_is_headless(tmp_path: Path, path: str | None) -> None:
    assert prompt_logged(path, SESSION) is False


def test_parse_reads_interactive_from_the_prompt_log_and_the_person_s_override(tmp_path: Path) -> None:
    body = payload(tmp_path, tmp_path, {"file_path": str(tmp_path / "a"), "content": ""})
    headless = PROTOCOL.parse(body, {}).ctx.interactive
    told = PROTOCOL.parse(body, {"BASTION_HOOK_INTERACTIVE": "1"}).ctx.interactive
    log_prompts(tmp_path, SESSION)
    logged = PROTOCOL.parse(body, {}).ctx.interactive

    assert (headless, told, logged) == (False, True, True)


def test_a_headless_run_gets_a_deny_for_an_rc_file_write_instead_of_a_prompt_nobody_answers(
    sandbox: Sandbox,
) -> None:
    body = payload(
        sandbox.home, sandbox.project, {"file_path": str(sandbox.home / ".bashrc"), "content": "x"}
    )

    run = run_hook("gemini", json.dumps(body), hook_env(sandbox))

    assert (run.json, run.exit_code) == (
        {
            "decision": "deny",
            "reason": f"{sandbox.home / '.bashrc'} controls agent permissions or shell "
            "start-up: a person must confirm; nobody can be asked here, so the call is denied",
        },  # the real reason
        2,
    )


def test_an_interactive_run_gets_gemini_s_own_prompt_for_an_rc_file_write(sandbox: Sandbox) -> None:
    log_prompts(sandbox.home, SESSION)
    bashrc = sandbox.home / ".bashrc"
    body = payload(sandbox.home, sandbox.project, {"file_path": str(bashrc), "content": "x"})

    run = run_hook("gemini", json.dumps(body), hook_env(sandbox))

    assert (run.json, run.exit_code) == (
        {
            "decision": "ask",
            "reason": f"{bashrc} controls agent permissions or shell start-up: a person must confirm",
        },
        0,
    )


def test_a_glob_in_a_credential_folder_named_by_dir_path_is_denied(tmp_path: Path) -> None:
    """Gemini CLI's ``glob`` names its folder ``dir_path``: decided as the working directory,
    it listed ~/.ssh unasked (``canonical`` passes a family name's arguments through)."""
    from bastion.adapters.hooks.decide import LocalDecider, Options
    from bastion.adapters.hooks.entry import protocol_for

    home = tmp_path / "home"
    (home / "proj").mkdir(parents=True)
    (home / ".ssh").mkdir()
    env = {"HOME": str(home), "BASTION_STATE_DIR": str(tmp_path / "state"), "PATH": "/usr/bin:/bin"}
    payloads = [
        {"cwd": str(home / "proj"), "session_id": "s", "hook_event_name": "BeforeTool", "tool_name": "glob",
         "tool_input": {"pattern": "*", "dir_path": str(home / where)}}
        for where in (".ssh", "proj")
    ]  # fmt: skip
    protocol = protocol_for("gemini")

    verdicts = [LocalDecider().decide(protocol.parse(p, env), protocol, Options(env=env)) for p in payloads]

    assert [v.decision for v in verdicts] == ["deny", "allow"]
