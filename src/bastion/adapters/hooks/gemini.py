"""Gemini CLI ``BeforeTool`` (verified against @google/gemini-cli 0.61.0,
``bundle/docs/hooks/reference.md`` and its hook runner: input adds ``tool_name``,
``tool_input``, ``mcp_context`` {server_name, tool_name, …} to session_id, transcript_path,
cwd, hook_event_name, timestamp; output ``{"decision": "allow"|"deny"|"ask", "reason"}``
— ``ask`` forces Gemini's own confirmation (``forcedDecision: "ask_user"``); exit 2 blocks
with stderr as the reason; any other non-zero exit is only a warning and the tool runs).

Gemini has no timeout on the confirmation an ``ask`` forces: under ``gemini -p`` (headless)
nobody can answer it and the run hangs for ever. Neither the hook input nor the hook's
environment says which mode runs (verified: both are identical for ``-p`` and ``-i``), but
Gemini's terminal UI logs every prompt a person submits, with its session id, to
``logs.json`` in the project's temp folder — the folder above the transcript's ``chats/`` —
before the model is asked; a headless run logs none. So a session with a logged prompt has a
person at the terminal; any other is non-interactive and an ASK is denied with its reason
(``BASTION_HOOK_INTERACTIVE=1`` says otherwise, e.g. for an IDE that confirms over ACP).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from typing import Any

from bastion.adapters.hooks.protocol import (
    PRE_TOOL_USE,
    AgentProtocol,
    Answer,
    HookRequest,
    Verdict,
    env_interactive,
    text,
)
from bastion.adapters.hooks.translate import Context
from bastion.agents.registry import enforcement_of
from bastion.errors import CallError

BEFORE_TOOL = "BeforeTool"
PROMPT_LOG = "logs.json"
#: The log grows by one entry per prompt, newest last: this session's prompts are in its tail.
PROMPT_LOG_TAIL = 1 << 20


def prompt_logged(transcript: str | None, session: str | None) -> bool:
    """Did a person submit a prompt in Gemini's terminal UI in this session?"""
    if not transcript or not session or not os.path.isabs(transcript):
        return False
    log = os.path.join(os.path.dirname(os.path.dirname(transcript)), PROMPT_LOG)
    try:
        with open(log, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - PROMPT_LOG_TAIL))
            data = handle.read(PROMPT_LOG_TAIL)
    except OSError:
        return False
    entry = re.compile(rb'"sessionId"\s*:\s*' + re.escape(json.dumps(session).encode()))
    return entry.search(data) is not None


class GeminiProtocol(AgentProtocol):
    """``hookSpecificOutput.tool_input`` (with allow, or with ask: Gemini's own prompt then
    confirms the rewritten call) replaces the arguments Gemini runs the tool with — its
    scheduler rebuilds the invocation from them. Verified against 0.61.0 with a hook whose
    rewrite writes a marker file: the rewritten command ran, the original did not
    (tests/adapters/hooks/test_e2e_rewrite.py)."""

    name = "gemini"
    honours_ask = enforcement_of("gemini").honours_ask
    rewrites_input = enforcement_of("gemini").rewrite
    events = (BEFORE_TOOL,)

    def interactive(self, payload: Mapping[str, Any], env: Mapping[str, str]) -> bool | None:
        if env_interactive(env):
            return True
        return prompt_logged(text(payload.get("transcript_path")), text(payload.get("session_id")))

    def parse(self, payload: Any, env: Mapping[str, str], *, event: str | None = None) -> HookRequest:
        if not isinstance(payload, Mapping):
            raise CallError("the hook input must be a JSON object")
        found = str(payload.get("hook_event_name") or event or BEFORE_TOOL)
        if found != BEFORE_TOOL:
            raise CallError(f"gemini: unsupported hook event {found!r}")
        cwd = payload.get("cwd")
        if not isinstance(cwd, str) or not cwd.startswith("/"):
            raise CallError("the hook input has no absolute 'cwd'")
        mcp = payload.get("mcp_context")
        server = text(mcp.get("server_name")) if isinstance(mcp, Mapping) else None
        ctx = Context(
            agent=self.name,
            cwd=cwd,
            session=text(payload.get("session_id")),
            interactive=self.interactive(payload, env),
        )
        return HookRequest(
            event=PRE_TOOL_USE,
            tool=str(payload.get("tool_name") or ""),
            args=payload.get("tool_input"),
            ctx=ctx,
            mcp_server=server,
        )

    def render(self, verdict: Verdict) -> Answer:
        body: dict[str, Any] = {"decision": verdict.decision, "reason": verdict.reason}
        if verdict.updated_input is not None and verdict.decision in ("allow", "ask"):
            body["hookSpecificOutput"] = {
                "hookEventName": BEFORE_TOOL,
                "tool_input": dict(verdict.updated_input),
            }
        return self.finish(verdict.decision, body, verdict.reason)


PROTOCOL = GeminiProtocol()
