"""Decide every proposed call against a policy, the way the hooks would have.

The agent's tool name and arguments go through the hooks' own translation
(``bastion.adapters.hooks.translate.to_calls``): a patch touching three files is three
calls and the strictest decision wins; an unknown tool is denied; a tool that only
changes the agent's own state (its to-do list) is allowed, as the hooks allow it. Only
the engine decides here (``Gate``): nothing is recorded, no standing grant or session
limit applies (those depend on the moment, not on the call).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from bastion.adapters.hooks.translate import Context, to_calls
from bastion.call.model import ToolCall, thaw
from bastion.construct import OFFLINE_OPTIONS, build_gate
from bastion.errors import CallError, PolicyError
from bastion.evidence.model import Proposed
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Evaluation, Reason, deny_for_error
from bastion.policy.engine import Gate

INERT_RULE = "tool.inert"


@dataclass(frozen=True, slots=True)
class Replayed:
    proposed: Proposed
    evaluation: Evaluation
    calls: tuple[ToolCall, ...]

    @property
    def decision(self) -> Decision:
        return self.evaluation.decision

    def to_json(self) -> dict[str, Any]:
        p = self.proposed
        return {
            "origin": p.origin,
            "reader": p.reader,
            "tool": p.tool,
            "args": thaw(p.args),
            "cwd": p.cwd,
            "session": p.session,
            "call_id": p.call_id,
            "calls": [c.to_json() for c in self.calls],
            **self.evaluation.to_json(),
            "live": p.live,
            "outcome": p.outcome.value,
            "approximate": p.approximate,
        }


def translate(proposed: Proposed, *, interactive: bool) -> list[ToolCall]:
    """The ToolCalls Bastion decides for one proposed call (raises CallError when unknown)."""
    ctx = Context(agent=proposed.reader, cwd=proposed.cwd, session=proposed.session, interactive=interactive)
    return to_calls(proposed.tool, proposed.args, ctx, mcp_server=proposed.mcp_server)


def _inert(tool: str) -> Evaluation:
    return Evaluation(
        Decision.ALLOW,
        (Reason(Decision.ALLOW, INERT_RULE, "built-in", tool, f"{tool} only changes the agent's own state"),),
    )


#: The engine for a call's cwd: the hooks load the policy that applies where the agent runs
#: (the workspace defaults to that folder), so a replay does the same.
GateFor = Callable[[str], Gate]


def gates(load: Callable[[str], Policy]) -> GateFor:
    """``load(cwd)`` once per folder, each policy behind its own Gate."""
    cache: dict[str, Gate] = {}

    def gate_for(cwd: str) -> Gate:
        if cwd not in cache:
            cache[cwd] = build_gate(load(cwd), OFFLINE_OPTIONS)
        return cache[cwd]

    return gate_for


def decide(gate_for: GateFor, proposed: Proposed, *, interactive: bool = True) -> Replayed:
    """One proposed call decided; any error is a deny, never an allow."""
    try:
        calls = translate(proposed, interactive=interactive)
        gate = gate_for(proposed.cwd)
    except (CallError, PolicyError) as exc:
        return Replayed(proposed, deny_for_error(str(exc), rule="call.invalid"), ())
    if not calls:
        return Replayed(proposed, _inert(proposed.tool), ())
    evaluations = []
    for call in calls:
        try:
            evaluations.append(gate.evaluate(call))
        except Exception as exc:  # one call never stops a replay, and never allows
            evaluations.append(deny_for_error(exc))
    return Replayed(proposed, max(evaluations, key=lambda e: e.decision), tuple(calls))


def replay(
    gate_for: GateFor,
    calls: Iterable[Proposed],
    *,
    interactive: bool = True,
    step: Callable[[], None] | None = None,
) -> Iterator[Replayed]:
    for proposed in calls:
        yield decide(gate_for, proposed, interactive=interactive)
        if step is not None:
            step()
