"""Each agent as its default install runs a shell call: the hook command ``bastion install``
writes (``sh -c '… hook AGENT --timeout 60 --autostart || exit 2'``, so the self-starting
daemon too), fed the JSON the agent sends on stdin; then what the agent does with the answer.

* deny (or a block exit) → nothing runs;
* allow → the agent runs the rewritten command where its answer carries one (Claude Code
  ``updatedInput``, Copilot ``modifiedArgs``, Gemini CLI ``hookSpecificOutput.tool_input``,
  Codex ``updatedInput``), else the command as the model wrote it;
* ask → a person approves it in the agent's own prompt, and the agent runs what it would
  then run (the rewritten command if the answer carried one). Codex and Qwen Code cannot
  ask: Bastion answers them deny.

The agents run as a person would use them, at the terminal (Claude Code's interactive
entrypoint; ``BASTION_HOOK_INTERACTIVE=1`` for the others, as a person at Gemini's prompt is
found from its prompt log).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bastion.adapters.hooks.own_file import hook_words
from bastion.adapters.hooks.targets import hook_command, hook_launcher

HOOK_TIMEOUT = 60


@dataclass(frozen=True)
class Agent:
    name: str
    #: The hook's stdin for a shell call (command, cwd, session).
    payload: Callable[[str, str, str], dict[str, Any]]
    #: The hook's answer → (decision, the command the agent then runs or None).
    read: Callable[[str, int], tuple[str, str | None]]
    #: How the agent starts a shell command.
    shell: tuple[str, ...]
    env: Mapping[str, str]
    #: Its hook is run by Bastion's extension file, argv as installed, no ``sh -c … || exit 2``.
    extension: bool = False


def _claude_payload(command: str, cwd: str, session: str) -> dict[str, Any]:
    return {"session_id": session, "transcript_path": "/nonexistent/t.jsonl", "cwd": cwd,
            "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command, "description": "run"}, "tool_use_id": "toolu_harm"}  # fmt: skip


def _codex_payload(command: str, cwd: str, session: str) -> dict[str, Any]:
    return {"session_id": session, "turn_id": "t", "transcript_path": "/nonexistent/r.jsonl", "cwd": cwd,
            "hook_event_name": "PreToolUse", "model": "gpt-5-codex", "permission_mode": "default",
            "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "call_harm"}  # fmt: skip


def _gemini_payload(command: str, cwd: str, session: str) -> dict[str, Any]:
    return {"session_id": session, "transcript_path": "/nonexistent/chats/s.json", "cwd": cwd,
            "hook_event_name": "BeforeTool", "timestamp": "2026-12-01T00:00:00.000Z",
            "tool_name": "run_shell_command", "tool_input": {"command": command, "description": "run"}}  # fmt: skip


def _qwen_payload(command: str, cwd: str, session: str) -> dict[str, Any]:
    return {"session_id": session, "transcript_path": "/nonexistent/s.jsonl", "cwd": cwd,
            "hook_event_name": "PreToolUse", "timestamp": "2026-12-01T00:00:00.000Z",
            "permission_mode": "default", "tool_name": "run_shell_command",
            "tool_input": {"command": command}, "tool_use_id": "call_harm"}  # fmt: skip


def _copilot_payload(command: str, cwd: str, session: str) -> dict[str, Any]:
    return {"timestamp": 1764446400000, "cwd": cwd, "sessionId": session, "toolName": "bash",
            "toolArgs": json.dumps({"command": command, "description": "run"})}  # fmt: skip


def _pi_payload(command: str, cwd: str, session: str) -> dict[str, Any]:
    """What Bastion's pi extension sends (a person at pi's dialog: ``ctx.hasUI``)."""
    return {"toolName": "bash", "toolCallId": "toolu_harm", "input": {"command": command}, "cwd": cwd,
            "sessionId": session, "hasUI": True}  # fmt: skip


def _opencode_payload(command: str, cwd: str, session: str) -> dict[str, Any]:
    return {"hook_event_name": "tool.execute.before", "cwd": cwd, "session_id": session,
            "tool_use_id": "call_harm", "tool_name": "bash",
            "tool_input": {"command": command, "description": "run"}}  # fmt: skip


def _json(stdout: str) -> dict[str, Any]:
    try:
        found = json.loads(stdout) if stdout.strip() else {}
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _claude_style(key: str) -> Callable[[str, int], tuple[str, str | None]]:
    def read(stdout: str, code: int) -> tuple[str, str | None]:
        if code == 2:
            return "deny", None
        out = _json(stdout).get("hookSpecificOutput") or {}
        decision = str(out.get("permissionDecision") or "allow")  # Codex: no output is an allow
        updated = out.get(key) if isinstance(out.get(key), dict) else None
        if decision == "deny":
            return decision, None
        return decision, str(updated["command"]) if updated and "command" in updated else ""

    return read


def _read_gemini(stdout: str, code: int) -> tuple[str, str | None]:
    body = _json(stdout)
    decision = str(body.get("decision") or "allow")
    if code == 2 or decision in ("deny", "block"):
        return "deny", None
    updated = (body.get("hookSpecificOutput") or {}).get("tool_input")
    return decision, str(updated["command"]) if isinstance(updated, dict) and "command" in updated else ""


def _read_copilot(stdout: str, code: int) -> tuple[str, str | None]:
    body = _json(stdout)
    decision = str(body.get("permissionDecision") or "allow")
    if code == 2 or decision == "deny":
        return "deny", None
    updated = body.get("modifiedArgs")
    return decision, str(updated["command"]) if isinstance(updated, dict) and "command" in updated else ""


def _read_pi(stdout: str, code: int) -> tuple[str, str | None]:
    """The extension's rule: exit 0 with allow, or exit 3 with ask a person confirms; else blocked."""
    body = _json(stdout)
    decision = body.get("decision")
    if (code, decision) not in ((0, "allow"), (3, "ask")):
        return "deny", None
    updated = body.get("input")
    rewritten = updated.get("command") if isinstance(updated, dict) else None
    return str(decision), str(rewritten) if rewritten is not None else ""


def _read_opencode(stdout: str, code: int) -> tuple[str, str | None]:
    """Bastion's plugin: anything but exit 0 with ``allow`` throws (the call fails); an
    allow's ``args`` replace the call's."""
    body = _json(stdout)
    if code != 0 or body.get("decision") != "allow":
        return "deny", None
    updated = body.get("args")
    return "allow", str(updated["command"]) if isinstance(updated, dict) and "command" in updated else ""


INTERACTIVE = {"BASTION_HOOK_INTERACTIVE": "1"}
AGENTS = {
    "claude": Agent("claude", _claude_payload, _claude_style("updatedInput"), ("bash", "-c"),
                    {"CLAUDE_CODE_ENTRYPOINT": "cli"}),
    "copilot": Agent("copilot", _copilot_payload, _read_copilot, ("bash", "-c"), INTERACTIVE),
    "gemini": Agent("gemini", _gemini_payload, _read_gemini, ("bash", "-c"), INTERACTIVE),
    "codex": Agent("codex", _codex_payload, _claude_style("updatedInput"), ("bash", "-lc"), INTERACTIVE),
    "qwen": Agent("qwen", _qwen_payload, _claude_style("updatedInput"), ("bash", "-c"), INTERACTIVE),
    "pi": Agent("pi", _pi_payload, _read_pi, ("bash", "-c"), {}, extension=True),
    "opencode": Agent("opencode", _opencode_payload, _read_opencode, ("bash", "-c"), INTERACTIVE),
}  # fmt: skip


@dataclass(frozen=True)
class Plan:
    """What the agent does with one call: the hook's decision, and the argv it runs (None:
    nothing runs)."""

    decision: str
    argv: tuple[str, ...] | None
    rewritten: bool


def plan(agent: Agent, command: str, cwd: str, env: Mapping[str, str], *, session: str) -> Plan:
    """``session``: one per case, so one case's denials do not weigh on the next (the gate's
    repeat guard counts them per session)."""
    hook = ["sh", "-c", hook_command(agent.name, hook_launcher(), timeout=HOOK_TIMEOUT)]
    if agent.extension:
        hook = hook_words(agent.name, hook_launcher(), HOOK_TIMEOUT)
    done = subprocess.run(hook, input=json.dumps(agent.payload(command, cwd, session)).encode(), capture_output=True,
                          env={**env, **agent.env}, cwd=cwd, timeout=HOOK_TIMEOUT)  # fmt: skip
    decision, rewritten = agent.read(done.stdout.decode(), done.returncode)
    if rewritten is None:
        return Plan(decision, None, False)
    runs = rewritten or command
    return Plan(decision, (*agent.shell, runs), bool(rewritten))


def bare(command: str) -> Plan:
    """No hook, no agent: the command as written (the baseline every case must harm in)."""
    return Plan("none", ("bash", "-c", command), False)
