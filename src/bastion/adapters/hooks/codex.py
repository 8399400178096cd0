"""Codex ``PreToolUse`` (verified against @openai/codex 0.171.0: its embedded
``pre-tool-use.command.input`` schema requires cwd, hook_event_name, model, permission_mode,
session_id, tool_input, tool_name, tool_use_id, transcript_path and turn_id; its output
parser rejects ``permissionDecision: "ask"`` as unsupported, and a deny needs a non-empty
``permissionDecisionReason``; exit 2 blocks with stderr as the reason).

Codex does not honour ``ask``: Bastion answers deny with the reason instead (or parks the
call in its own queue with ``ask_via = "bastion"``). An allow is answered with no output at
all, so Codex's own sandbox and approvals still apply — except an allow whose shell command
Bastion rewrote to run in its sandbox: that one needs ``permissionDecision: "allow"`` with
``updatedInput`` (Codex rejects ``updatedInput`` on any other decision, and one without a
string ``command``). Verified against 0.171.0 with a hook whose rewrite writes a marker
file: the rewritten command ran, the original did not (tests/adapters/hooks/test_e2e_rewrite.py).
"""

from __future__ import annotations

from bastion.adapters.hooks.protocol import PRE_TOOL_USE, AgentProtocol, Answer, Verdict, dumps
from bastion.agents.registry import enforcement_of


class CodexProtocol(AgentProtocol):
    name = "codex"
    honours_ask = enforcement_of("codex").honours_ask
    rewrites_input = enforcement_of("codex").rewrite

    def render(self, verdict: Verdict) -> Answer:
        if verdict.event != PRE_TOOL_USE or verdict.decision != "allow":
            return super().render(verdict)
        if verdict.updated_input is None:
            return Answer("", "", 0)
        body = {
            "hookSpecificOutput": {
                "hookEventName": PRE_TOOL_USE,
                "permissionDecision": "allow",
                "permissionDecisionReason": verdict.reason,
                "updatedInput": dict(verdict.updated_input),
            }
        }
        return Answer(dumps(body), "", 0)


PROTOCOL = CodexProtocol()
