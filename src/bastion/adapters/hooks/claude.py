"""Claude Code ``PreToolUse`` / ``PermissionRequest`` (verified against @anthropic-ai/claude-code
2.1.197: the hook-output schema in its bundle accepts ``permissionDecision`` allow, deny, ask
or defer with ``permissionDecisionReason``; exit 2 is a blocking error whose stderr reaches
the model; any other non-zero exit lets the tool run).

Claude honours ``ask`` with its own prompt; in ``-p`` mode it turns ``ask`` into a denial.
Claude sets ``CLAUDE_CODE_ENTRYPOINT=cli`` for its interactive terminal and another value
(``sdk-cli``) for ``-p``; hooks inherit it, which is how Bastion tells whether a person is
at the terminal.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bastion.adapters.hooks.protocol import (
    PERMISSION_REQUEST,
    AgentProtocol,
    Answer,
    Verdict,
    dumps,
    env_interactive,
)
from bastion.agents.registry import enforcement_of


class ClaudeProtocol(AgentProtocol):
    """``updatedInput`` (with allow, or with ask: the prompt shows the rewritten command)
    replaces the tool input Claude Code runs: verified against 2.1.197, with and without
    ``--allowedTools Bash`` and for ``run_in_background`` (tests/adapters/hooks)."""

    name = "claude"
    honours_ask = enforcement_of("claude").honours_ask
    rewrites_input = enforcement_of("claude").rewrite

    def render(self, verdict: Verdict) -> Answer:
        answer = super().render(verdict)
        if verdict.updated_input is None or verdict.event == PERMISSION_REQUEST:
            return answer
        if verdict.decision not in ("allow", "ask"):
            return answer
        body = json.loads(answer.stdout)
        body["hookSpecificOutput"]["updatedInput"] = dict(verdict.updated_input)
        return Answer(dumps(body), answer.stderr, answer.exit_code)

    def interactive(self, payload: Mapping[str, Any], env: Mapping[str, str]) -> bool | None:
        entrypoint = env.get("CLAUDE_CODE_ENTRYPOINT")
        if entrypoint:
            return entrypoint == "cli"
        return env_interactive(env)


PROTOCOL = ClaudeProtocol()
