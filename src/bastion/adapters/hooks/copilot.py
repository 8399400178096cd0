"""GitHub Copilot CLI ``preToolUse`` (verified against @github/copilot 1.0.102: its bundled
changelog — "preToolUse hook errors now deny the tool call", "preToolUse hooks that exit
with code 2 deny tool calls", "Claude-format hook payloads carry the Claude tool name" — and
GitHub's hooks reference: input ``{timestamp, cwd, toolName, toolArgs}`` with ``toolArgs``
a JSON *string*; output ``{"permissionDecision": "allow"|"deny"|"ask",
"permissionDecisionReason"}``). The Claude-format payload (tool_name/tool_input) is read too.
"""

from __future__ import annotations

import json
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
from bastion.agents.registry import enforcement_of
from bastion.errors import CallError


class CopilotProtocol(AgentProtocol):
    """``modifiedArgs`` (GitHub's hooks reference: the arguments the tool runs with instead)
    carries the command rewritten to run inside Bastion's sandbox."""

    name = "copilot"
    honours_ask = enforcement_of("copilot").honours_ask
    rewrites_input = enforcement_of("copilot").rewrite

    def parse(self, payload: Any, env: Mapping[str, str], *, event: str | None = None) -> HookRequest:
        if isinstance(payload, Mapping) and "tool_name" in payload:
            return super().parse(payload, env, event=PRE_TOOL_USE)
        if not isinstance(payload, Mapping):
            raise CallError("the hook input must be a JSON object")
        cwd = payload.get("cwd")
        if not isinstance(cwd, str) or not cwd.startswith("/"):
            raise CallError("the hook input has no absolute 'cwd'")
        args: Any = payload.get("toolArgs")
        if isinstance(args, str):
            try:
                args = json.loads(args) if args.strip() else {}
            except ValueError as exc:
                raise CallError(f"copilot: toolArgs is not JSON: {exc}") from exc
        ctx = Context(
            agent=self.name,
            cwd=cwd,
            session=text(payload.get("sessionId")),
            interactive=self.interactive(payload, env),
        )
        return HookRequest(
            event=PRE_TOOL_USE,
            tool=str(payload.get("toolName") or ""),
            args=args,
            ctx=ctx,
            tool_use_id=text(payload.get("toolCallId")),
        )

    def render(self, verdict: Verdict) -> Answer:
        body: dict[str, Any] = {
            "permissionDecision": verdict.decision,
            "permissionDecisionReason": verdict.reason,
        }
        if verdict.updated_input is not None and verdict.decision in ("allow", "ask"):
            body["modifiedArgs"] = dict(verdict.updated_input)
        return self.finish(verdict.decision, body, verdict.reason)


PROTOCOL = CopilotProtocol()
