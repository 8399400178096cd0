"""Codex ``PreToolUse`` (verified against @openai/codex 0.171.0: its embedded
``pre-tool-use.command.input`` schema requires cwd, hook_event_name, model, permission_mode,
session_id, tool_input, tool_name, tool_use_id, transcript_path and turn_id; its output
parser rejects ``permissionDecision: "ask"`` as unsupported, and a deny needs a non-empty
``permissionDecisionReason``; exit 2 blocks with stderr as the reason).

Codex does not honour ``ask``: Bastion answers deny with the reason instead (or parks the
call in its own queue with ``ask_via = "bastion"``). An allow is answered with no output at
all, so Codex's own sandbox and approvals still apply.
"""

from __future__ import annotations

from bastion.adapters.hooks.protocol import PRE_TOOL_USE, AgentProtocol, Answer, Verdict


class CodexProtocol(AgentProtocol):
    name = "codex"
    honours_ask = False

    def render(self, verdict: Verdict) -> Answer:
        if verdict.event == PRE_TOOL_USE and verdict.decision == "allow":
            return Answer("", "", 0)
        return super().render(verdict)


PROTOCOL = CodexProtocol()
