"""Agents' own records, one JSON value at a time → the calls they proposed.

* Claude Code session transcripts (``~/.claude/projects/<project>/<session>.jsonl``):
  ``assistant`` lines carry ``tool_use`` blocks; ``user`` lines carry the ``tool_result``.
* Codex rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl``): ``response_item``
  lines with ``function_call`` / ``custom_tool_call`` / ``local_shell_call`` payloads; the
  cwd comes from ``session_meta`` / ``turn_context``.
* Gemini CLI chat logs (``~/.gemini/tmp/<hash>/chats/session-….json``): ``messages`` with
  ``toolCalls``; they record no cwd (the caller's ``--cwd`` is used).
* Hook payload logs: the JSON an agent sends its hook (``tool_name``/``tool_input``, or
  Copilot's ``toolName``/``toolArgs``), one object per line.

A record kind this module does not know is skipped (it holds no tool call), never guessed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bastion.evidence.model import Outcome, Proposed

#: Tool results that say a person refused the call (Claude Code, Codex, Gemini CLI).
REJECTIONS = (
    "doesn't want to proceed with this tool use",
    "the user rejected",
    "rejected by user",
    "user denied",
    "was cancelled by the user",
)


@dataclass
class FileState:
    """What one file's earlier lines said (Codex names the cwd once, results come later)."""

    path: str
    default_cwd: str
    cwd: str | None = None
    session: str | None = None
    results: dict[str, tuple[bool, str]] = field(default_factory=dict)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def claude_line(obj: Mapping[str, Any], origin: str, state: FileState) -> list[Proposed]:
    message = obj.get("message")
    content = message.get("content") if isinstance(message, Mapping) else None
    if not isinstance(content, list):
        return []
    cwd = _str(obj.get("cwd")) or state.default_cwd
    session = _str(obj.get("sessionId"))
    out = []
    for block in content:
        if not isinstance(block, Mapping):
            continue
        if block.get("type") == "tool_result" and _str(block.get("tool_use_id")):
            state.results[str(block["tool_use_id"])] = (
                bool(block.get("is_error")),
                _flat(block.get("content")),
            )
        elif block.get("type") == "tool_use" and _str(block.get("name")):
            args = block.get("input")
            out.append(
                Proposed(
                    origin,
                    "claude",
                    str(block["name"]),
                    args if isinstance(args, Mapping) else {},
                    cwd=cwd,
                    session=session,
                    call_id=_str(block.get("id")),
                )
            )
    return out


def _flat(content: Any) -> str:
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, Mapping))
    return "" if content is None else str(content)


def codex_line(obj: Mapping[str, Any], origin: str, state: FileState) -> list[Proposed]:
    payload = obj.get("payload")
    if not isinstance(payload, Mapping):
        return []
    if obj.get("type") in ("session_meta", "turn_context"):
        state.cwd = _str(payload.get("cwd")) or state.cwd
        state.session = _str(payload.get("id")) or _str(payload.get("session_id")) or state.session
        return []
    if obj.get("type") != "response_item":
        return []
    kind, call_id = payload.get("type"), _str(payload.get("call_id"))
    if kind in ("function_call_output", "custom_tool_call_output") and call_id:
        state.results[call_id] = (False, _flat(payload.get("output")))
        return []
    args: Any
    if kind == "function_call":
        try:
            args = json.loads(str(payload.get("arguments") or "{}"))
        except ValueError:
            args = {"arguments": payload.get("arguments")}  # unreadable: the call is denied
    elif kind == "custom_tool_call":
        args = {"input": payload.get("input")}
    elif kind == "local_shell_call":
        action = payload.get("action")
        args = {"command": action.get("command")} if isinstance(action, Mapping) else {}
        payload = {**payload, "name": "shell"}
    else:
        return []
    name = _str(payload.get("name"))
    if name is None:
        return []
    return [
        Proposed(
            origin,
            "codex",
            name,
            args if isinstance(args, Mapping) else {"arguments": args},
            cwd=state.cwd or state.default_cwd,
            session=state.session,
            call_id=call_id,
        )
    ]


def gemini_messages(doc: Mapping[str, Any], origin: str, state: FileState) -> list[Proposed]:
    out = []
    session = _str(doc.get("sessionId"))
    for n, message in enumerate(doc.get("messages") or [], 1):
        for call in (message.get("toolCalls") or []) if isinstance(message, Mapping) else []:
            if not isinstance(call, Mapping) or not _str(call.get("name")):
                continue
            args = call.get("args")
            status = str(call.get("status") or "")
            outcome = Outcome.DENIED if status == "cancelled" else Outcome.UNKNOWN
            out.append(
                Proposed(
                    f"{origin}#message{n}",
                    "gemini",
                    str(call["name"]),
                    args if isinstance(args, Mapping) else {},
                    cwd=state.default_cwd,
                    session=session,
                    call_id=_str(call.get("id")),
                    outcome=outcome,
                )
            )
    return out


def hook_line(obj: Mapping[str, Any], origin: str, state: FileState) -> list[Proposed]:
    tool = _str(obj.get("tool_name")) or _str(obj.get("toolName"))
    if tool is None:
        return []
    args: Any = obj.get("tool_input", obj.get("toolArgs"))
    if isinstance(args, str):  # Copilot sends its arguments as a JSON string
        try:
            args = json.loads(args)
        except ValueError:
            args = {"arguments": args}
    mcp = obj.get("mcp_context")
    server = _str(mcp.get("server_name")) if isinstance(mcp, Mapping) else None
    return [
        Proposed(
            origin,
            "hook",
            tool,
            args if isinstance(args, Mapping) else {},
            cwd=_str(obj.get("cwd")) or state.default_cwd,
            session=_str(obj.get("session_id")),
            call_id=_str(obj.get("tool_use_id")),
            mcp_server=server,
        )
    ]


#: Tool results that say a hook (Bastion, or another) blocked the call: no person decided.
BLOCKED = (
    "blocked by pretooluse hook",
    "pretooluse:",
    "hook error",
    "[policy-denied]",
    "[policy-blocked]",
    "nobody can be asked",
)


def outcome_of(result: tuple[bool, str] | None) -> Outcome:
    """A refusal text means a person denied it; a result without one means it ran."""
    if result is None:
        return Outcome.UNKNOWN
    text = result[1].lower()
    if any(b in text for b in BLOCKED):
        return Outcome.UNKNOWN
    if any(r in text for r in REJECTIONS):
        return Outcome.DENIED
    return Outcome.UNKNOWN if result[0] else Outcome.APPROVED
