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

from bastion.adapters.hooks.protocol import (
    OUTCOME_EVENTS,
    PERMISSION_REQUEST,
    AgentProtocol,
    HookRequest,
    Verdict,
)
from bastion.adapters.hooks.settings import AskVia
from bastion.adapters.hooks.translate import to_calls
from bastion.errors import CallError

if TYPE_CHECKING:
    from bastion.call.model import ToolCall
    from bastion.configuration import Configuration
    from bastion.construct import GateOptions
    from bastion.policy.decision import Evaluation
    from bastion.policy.sources import PolicySources
    from bastion.runtime import Gatekeeper

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


def strictest(verdicts: list[Verdict]) -> Verdict:
    return max(verdicts, key=lambda v: _RANK[v.decision])


class LocalDecider:
    """Decides in this process (no daemon). ``policy_path`` (``bastion serve --policy FILE``)
    replaces the hook's own ``--policy`` for every call; ``options`` are the gate options
    (default: :data:`~bastion.construct.HOOK_OPTIONS`)."""

    #: Finish earlier contained runs (and record their exits) in the call itself: a hook
    #: process has no later moment. The daemon does it after its reply instead.
    settles_inline = True

    def __init__(self, *, policy_path: str | None = None, options: GateOptions | None = None) -> None:
        self.policy_path = policy_path
        self.gate_options = options

    def decide(self, request: HookRequest, protocol: AgentProtocol, options: Options) -> Verdict:
        if request.event in OUTCOME_EVENTS:  # a report of what happened, not a call to decide
            from bastion.adapters.hooks.after_tool import record_outcome

            return record_outcome(self, request, protocol, options)
        from bastion.policy.sources import PolicySources

        sources = PolicySources.find(
            self.policy_path or options.policy_path, cwd=request.ctx.cwd, env=options.env
        )
        loaded = self.load(sources, options.env)
        if isinstance(loaded, Exception):  # a broken policy: denied, and recorded like any call
            return self._refuse(sources, options.env, loaded, request, to_deny=None)
        config = loaded
        mode = config.hooks.ask_via
        known = request.ctx.interactive
        # "bastion": a person answers through Bastion only when one is known to be there.
        interactive = known is True if mode is AskVia.BASTION else protocol.honours_ask and known is not False
        ctx = dataclasses.replace(request.ctx, interactive=interactive)
        try:
            calls = to_calls(request.tool, request.args, ctx, mcp_server=request.mcp_server)
        except CallError as exc:  # an unknown tool or a malformed input: refused, recorded
            return self._refuse(sources, options.env, config, request, to_deny=exc)
        if not calls:
            return Verdict(
                "allow",
                f"{request.tool} only changes the agent's own state; the "
                "tool calls it leads to are decided one by one",
                request.event,
            )
        delegate = mode is AskVia.AGENT and protocol.honours_ask and interactive
        parks = any(call.interactive for call in calls) and not delegate
        rewrites = protocol.rewrites_input
        with self.keeper(sources, options.env, config, parks=parks) as keeper:
            verdicts = [self._one(keeper, call, request, delegate, rewrites, options) for call in calls]
            if self.settles_inline:
                settle_quietly(keeper)
        verdict = strictest(verdicts)
        if not rewrites:
            return verdict
        from bastion.adapters.hooks.contain import contain_verdict

        # A contained run reads the same policy file as this decision (serve's --policy first).
        used = self.policy_path or options.policy_path
        return contain_verdict(verdict, request, calls, policy_path=used)

    def load(self, sources: PolicySources, env: Mapping[str, str]) -> Configuration | Exception:
        """The policy of ``sources`` (from the pickle cache), or why it does not load."""
        from bastion.adapters.hooks.policy_cache import load_cached_sources

        try:
            return load_cached_sources(sources, env)
        except Exception as exc:  # any failure to load: every call is denied (and recorded)
            return exc

    @contextlib.contextmanager
    def keeper(
        self,
        sources: PolicySources,
        env: Mapping[str, str],
        loaded: Configuration | Exception,
        *,
        parks: bool,
    ) -> Iterator[Gatekeeper]:
        from bastion.construct import HOOK_OPTIONS, broken_keeper, keeper_for

        if isinstance(loaded, Exception):
            opened = broken_keeper(loaded, sources, env)
        else:
            opened = keeper_for(sources, env, options=self.gate_options or HOOK_OPTIONS, config=loaded)
        with opened as keeper:
            yield keeper

    def _refuse(
        self,
        sources: PolicySources,
        env: Mapping[str, str],
        loaded: Configuration | Exception,
        request: HookRequest,
        *,
        to_deny: CallError | None,
    ) -> Verdict:
        """Deny a call the gate cannot take as it is, through the gatekeeper (so recorded)."""
        from bastion.policy.decision import deny_for_error

        call = _raw_call(request)
        with self.keeper(sources, env, loaded, parks=False) as keeper:
            if to_deny is None:
                return _verdict(keeper.request_sync(call), request.event)
            refusal = deny_for_error(to_deny, rule="call.invalid")
            final = keeper.refuse(call, refusal)
        # The agent reads the same words as before this was recorded (the golden wire files),
        # then how to allow it.
        from bastion.policy.remedy import how_to_allow

        reason = refusal.reasons[0].message if final is refusal else final.message
        remedy = how_to_allow(final)
        return Verdict("deny", f"{reason}. {remedy}" if remedy else reason, request.event, evaluation=final)

    def _one(
        self,
        keeper: Gatekeeper,
        call: ToolCall,
        request: HookRequest,
        delegate: bool,
        rewrites: bool,
        options: Options,
    ) -> Verdict:
        """One gate request: the recorded answer (an ASK handed to the agent's prompt is
        recorded as such by the gatekeeper), with the profile it runs in."""
        from bastion.policy.decision import Decision

        if request.tool_use_id:
            call = dataclasses.replace(call, agent=f"{call.agent}/{request.tool_use_id}")
        if delegate and request.event == PERMISSION_REQUEST:
            # Claude is about to ask: its PreToolUse recorded this hand-off already (this
            # event has no tool-use id to tell it apart), so an ASK defers unrecorded.
            again = keeper.decide(call, contain=rewrites)
            if again.decision is Decision.ASK:
                return Verdict("ask", again.message, request.event, defer=True)
        if call.interactive and not delegate and callable(options.on_park):
            options.on_park(options.park_budget)
        final = keeper.request_sync(
            call, timeout=max(options.park_budget, 0.0), contain=rewrites, hand_off=delegate
        )
        handed = None
        if delegate and final.decision is Decision.ASK and request.tool_use_id:
            _mark_hand_off(options, call)
            if rewrites and final.profile is not None and final.profile.hosts:
                from bastion.runtime.handed_run import hand_off_of

                handed = hand_off_of(keeper.ledger, keeper.hasher, call)
        if delegate and final.decision is Decision.ASK and request.event == PERMISSION_REQUEST:
            return Verdict("ask", final.message, request.event, defer=True)
        return dataclasses.replace(_verdict(final, request.event), hand_off=handed)


def _mark_hand_off(options: Options, call: ToolCall) -> None:
    """Its report will be read (``hand_off_marks``); a mark that cannot be made leaves the
    hand-off ``requested``, which claims nothing, so it is no reason to fail the call."""
    from bastion.adapters.hooks.hand_off_marks import mark

    with contextlib.suppress(OSError):
        mark(options.env, session=call.session, agent=call.agent or "")


def settle_quietly(keeper: Gatekeeper) -> None:
    """:func:`bastion.runtime.contain.settle_runs`, whose failure is no reason to fail a
    call: what it could not finish stays for the next look."""
    from bastion.runtime.contain import settle_runs

    with contextlib.suppress(Exception):
        settle_runs(keeper)


def _raw_call(request: HookRequest) -> ToolCall:
    """The hook's call as the agent named it, for a refusal's record (no family needed)."""
    from bastion.call.model import ToolCall

    args = request.args if isinstance(request.args, Mapping) else {"input": request.args}
    ctx = request.ctx
    agent = f"{ctx.agent}/{request.tool_use_id}" if request.tool_use_id else ctx.agent
    return ToolCall(
        tool=str(request.tool or "unknown"),
        args=dict(args),
        cwd=ctx.cwd,
        session=ctx.session,
        turn=ctx.turn,
        agent=agent,
        interactive=False,
    )


def _verdict(evaluation: Evaluation, event: str) -> Verdict:
    """The agent is told the decision's message; a denial's ends with how to allow it."""
    from bastion.policy.remedy import told

    return Verdict(evaluation.decision.label, told(evaluation), event, evaluation=evaluation)
