"""A ``HookRequest`` → a ``Verdict``, with the one engine behind the Gatekeeper (standing
grants, limits, the repeat guard, the approval queue and the audit ledger).

ASK, by ``ask_via`` (policy key, default ``"agent"``):

* ``"agent"`` and the agent shows its own prompt for ``ask`` (Claude Code, Gemini CLI,
  Copilot): the question goes to that prompt, unless the run is known to be
  non-interactive (then the non-interactive default applies: deny). The hand-off is audited.
* ``"agent"`` and the agent ignores ``ask`` (Codex, Qwen Code): deny, with the reason.
* ``"bastion"``: a run a person is known to attend parks the call in Bastion's queue and
  waits (at most the hook timeout minus 5 s) for an answer from ``bastion approve`` or the
  web page; any other run gets the non-interactive default (deny).

Several calls from one tool (a patch touching three files) are decided one by one, and the
strictest answer wins. The ``Decider`` protocol is the seam where a client of the resident
``bastion serve`` daemon plugs in; ``LocalDecider`` decides in this process.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Protocol

from bastion.adapters.hooks.protocol import PERMISSION_REQUEST, AgentProtocol, HookRequest, Verdict
from bastion.adapters.hooks.translate import to_calls

if TYPE_CHECKING:
    from bastion.call.model import ToolCall
    from bastion.policy.compiled import Policy
    from bastion.policy.decision import Evaluation
    from bastion.runtime import Gatekeeper

ASK_VIA_AGENT = "agent"
ASK_VIA_BASTION = "bastion"
_RANK = {"allow": 0, "ask": 1, "deny": 2}


@dataclasses.dataclass(frozen=True, slots=True)
class Options:
    env: Mapping[str, str]
    policy_path: str | None = None
    #: Seconds a parked ASK may wait: the hook timeout ``install`` wrote, minus 5 s.
    park_budget: float = 0.0
    #: Called before a parked wait starts, with its length (the entry extends its watchdog).
    on_park: object = None


class Decider(Protocol):
    def decide(self, request: HookRequest, protocol: AgentProtocol, options: Options) -> Verdict: ...


def ask_via(policy: Policy) -> str:
    value = policy.ask_via
    return value if value in (ASK_VIA_AGENT, ASK_VIA_BASTION) else ASK_VIA_AGENT


def strictest(verdicts: list[Verdict]) -> Verdict:
    return max(verdicts, key=lambda v: _RANK[v.decision])


class LocalDecider:
    """Decides in this process (no daemon)."""

    def decide(self, request: HookRequest, protocol: AgentProtocol, options: Options) -> Verdict:
        policy = self.policy(options, request.ctx.cwd)
        mode = ask_via(policy)
        known = request.ctx.interactive
        if mode == ASK_VIA_BASTION:
            interactive = known is True
        else:
            interactive = protocol.honours_ask and known is not False
        ctx = dataclasses.replace(request.ctx, interactive=interactive)
        calls = to_calls(request.tool, request.args, ctx, mcp_server=request.mcp_server)
        if not calls:
            return Verdict(
                "allow",
                f"{request.tool} only changes the agent's own state; the "
                "tool calls it leads to are decided one by one",
                request.event,
            )
        delegate = mode == ASK_VIA_AGENT and protocol.honours_ask and interactive
        parks = any(call.interactive for call in calls) and not delegate
        with self.keeper(policy, options.env, parks=parks) as keeper:
            verdicts = [self._one(keeper, call, request, delegate, options) for call in calls]
        verdict = strictest(verdicts)
        if not protocol.rewrites_input:
            return verdict
        from bastion.adapters.hooks.contain import contain_verdict

        return contain_verdict(verdict, request, calls, policy, policy_path=options.policy_path)

    def policy(self, options: Options, cwd: str) -> Policy:
        from bastion.adapters.hooks.policy_cache import load_cached_policy

        return load_cached_policy(options.policy_path, cwd=cwd, env=options.env)

    @contextlib.contextmanager
    def keeper(self, policy: Policy, env: Mapping[str, str], *, parks: bool) -> Iterator[Gatekeeper]:
        from bastion.runtime import open_gatekeeper

        with open_gatekeeper(policy, env) as keeper:
            yield keeper

    def _one(
        self, keeper: Gatekeeper, call: ToolCall, request: HookRequest, delegate: bool, options: Options
    ) -> Verdict:
        from bastion.policy.decision import Decision

        if request.tool_use_id:
            call = dataclasses.replace(call, agent=f"{call.agent}/{request.tool_use_id}")
        if delegate:
            peek = keeper.decide(call)
            if peek.decision is Decision.ASK:
                _record_handoff(keeper, call, peek)
                if request.event == PERMISSION_REQUEST:
                    return Verdict("ask", peek.message, request.event, defer=True)
                return Verdict("ask", peek.message, request.event, evaluation=peek)
        if call.interactive and callable(options.on_park):
            options.on_park(options.park_budget)
        final = keeper.request_sync(call, timeout=max(options.park_budget, 0.0))
        return _verdict(final, request.event)


def _verdict(evaluation: Evaluation, event: str) -> Verdict:
    return Verdict(
        evaluation.decision.label, evaluation.message or "no reason given", event, evaluation=evaluation
    )


def _record_handoff(keeper: Gatekeeper, call: ToolCall, evaluation: Evaluation) -> None:
    """Audit an ASK handed to the agent's own prompt (the runtime has no call for it yet)."""
    from bastion.approval.model import new_id
    from bastion.audit.events import EventKind, make_event

    keeper.ledger.append(
        make_event(
            call,
            evaluation,
            kind=EventKind.REQUESTED,
            decision_id=new_id(),
            resolver="agent",
            time=keeper.clock.now(),
            hasher=keeper.hasher,
            config=keeper.audit,
        )
    )
