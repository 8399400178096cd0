"""Gemini CLI ``BeforeTool`` (verified against @google/gemini-cli 0.61.0,
``bundle/docs/hooks/reference.md`` and its hook runner: input adds ``tool_name``,
``tool_input``, ``mcp_context`` {server_name, tool_name, …} to session_id, transcript_path,
cwd, hook_event_name, timestamp; output ``{"decision": "allow"|"deny"|"ask", "reason"}``
— ``ask`` forces Gemini's own confirmation (``forcedDecision: "ask_user"``); exit 2 blocks
with stderr as the reason; any other non-zero exit is only a warning and the tool runs).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bastion.adapters.hooks.protocol import (
    PRE_TOOL_USE,
    AgentProtocol,
    Answer,
    HookRequest,
    Verdict,
    text,
)
from bastion.adapters.hooks.translate import Context
from bastion.errors import CallError

BEFORE_TOOL = "BeforeTool"


class GeminiProtocol(AgentProtocol):
    name = "gemini"
    honours_ask = True
    events = (BEFORE_TOOL,)

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
        body = {"decision": verdict.decision, "reason": verdict.reason}
        return self.finish(verdict.decision, body, verdict.reason)


PROTOCOL = GeminiProtocol()
