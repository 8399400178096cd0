"""Bastion: a permission gate for AI-agent tool calls.

A model may propose a tool call; Bastion decides — allow, ask a person, or deny with a
reason — in code, never in the prompt::

    from bastion import Gate, ToolCall, load_policy

    gate = Gate(load_policy())
    evaluation = gate.evaluate(ToolCall("shell", {"command": "git status"}, cwd="/work"))
    evaluation.decision  # Decision.ALLOW
"""

from bastion.call.model import Family, ToolCall
from bastion.errors import BastionError, CallError, PolicyError, StoreError
from bastion.policy.compiled import Policy
from bastion.policy.decision import (
    MARKER_BLOCKED,
    MARKER_DENIED,
    Decision,
    Effect,
    Evaluation,
    Reason,
)
from bastion.policy.engine import Gate
from bastion.policy.loader import load_policy, load_policy_text

__all__ = [
    "MARKER_BLOCKED",
    "MARKER_DENIED",
    "BastionError",
    "CallError",
    "Decision",
    "Effect",
    "Evaluation",
    "Family",
    "Gate",
    "Policy",
    "PolicyError",
    "Reason",
    "StoreError",
    "ToolCall",
    "load_policy",
    "load_policy_text",
]
