"""Qwen Code ``PreToolUse`` (verified against @qwen-code/qwen-code 0.15.10,
``bundled/qc-helper/docs/features/hooks.md``: Claude-shaped input with ``permission_mode``
default|plan|auto_edit|yolo, ``tool_name``, ``tool_input``, ``tool_use_id``; output
``hookSpecificOutput.permissionDecision``; exit 2 blocks with stderr as feedback, any
other non-zero exit lets the tool run).

Qwen runs the hook after its own approval and treats ``ask`` as a denial, so Bastion answers
deny with the reason (or parks the call with ``ask_via = "bastion"``).
"""

from __future__ import annotations

from bastion.adapters.hooks.protocol import AgentProtocol
from bastion.agents.registry import enforcement_of


class QwenProtocol(AgentProtocol):
    name = "qwen"
    honours_ask = enforcement_of("qwen").honours_ask
    rewrites_input = enforcement_of("qwen").rewrite


PROTOCOL = QwenProtocol()
