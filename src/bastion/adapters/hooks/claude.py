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

from collections.abc import Mapping
from typing import Any

from bastion.adapters.hooks.protocol import AgentProtocol, env_interactive


class ClaudeProtocol(AgentProtocol):
    name = "claude"
    honours_ask = True

    def interactive(self, payload: Mapping[str, Any], env: Mapping[str, str]) -> bool | None:
        entrypoint = env.get("CLAUDE_CODE_ENTRYPOINT")
        if entrypoint:
            return entrypoint == "cli"
        return env_interactive(env)


PROTOCOL = ClaudeProtocol()
