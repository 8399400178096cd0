"""Bastion: a permission gate for AI-agent tool calls.

A model may propose a tool call; Bastion decides — allow, ask a person, or deny with a
reason — in code, never in the prompt::

    from bastion import Gate, ToolCall, load_policy

    gate = build_gate(load_policy())
    evaluation = gate.evaluate(ToolCall("shell", {"command": "git status"}, cwd="/work"))
    evaluation.decision  # Decision.ALLOW

A call that asks parks until a person answers (``bastion approvals``); nobody answering is
a denial, and every request and resolution is written to the audit ledger::

    with open_gatekeeper(load_configuration()) as keeper:
        evaluation = await keeper.request(call)
"""

from __future__ import annotations

# Not ``typing.TYPE_CHECKING``: importing typing costs a hook milliseconds on every call.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    # imported on first use: ``bastion hook`` must start without pydantic
    from bastion.call.effects import Effect
    from bastion.call.families import Family
    from bastion.call.model import ToolCall
    from bastion.configuration import Configuration, load_configuration, load_policy, load_policy_text
    from bastion.construct import GateOptions, build_gate, open_gatekeeper
    from bastion.errors import BastionError, CallError, PolicyError, StoreError
    from bastion.policy.compiled import Policy
    from bastion.policy.decision import MARKER_BLOCKED, MARKER_DENIED, Decision, Evaluation, Reason
    from bastion.policy.engine import Gate
    from bastion.runtime import Gatekeeper

_WHERE = {
    "Family": "bastion.call.families",
    "ToolCall": "bastion.call.model",
    "BastionError": "bastion.errors",
    "CallError": "bastion.errors",
    "PolicyError": "bastion.errors",
    "StoreError": "bastion.errors",
    "Policy": "bastion.policy.compiled",
    "MARKER_BLOCKED": "bastion.policy.decision",
    "MARKER_DENIED": "bastion.policy.decision",
    "Decision": "bastion.policy.decision",
    "Effect": "bastion.call.effects",
    "Evaluation": "bastion.policy.decision",
    "Reason": "bastion.policy.decision",
    "Gate": "bastion.policy.engine",
    "Configuration": "bastion.configuration",
    "load_configuration": "bastion.configuration",
    "load_policy": "bastion.configuration",
    "load_policy_text": "bastion.configuration",
    "Gatekeeper": "bastion.runtime",
    "open_gatekeeper": "bastion.construct",
    "build_gate": "bastion.construct",
    "GateOptions": "bastion.construct",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'bastion' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "MARKER_BLOCKED",
    "MARKER_DENIED",
    "BastionError",
    "CallError",
    "Configuration",
    "Decision",
    "Effect",
    "Evaluation",
    "Family",
    "Gate",
    "GateOptions",
    "Gatekeeper",
    "Policy",
    "PolicyError",
    "Reason",
    "StoreError",
    "ToolCall",
    "build_gate",
    "load_configuration",
    "load_policy",
    "load_policy_text",
    "open_gatekeeper",
]
