"""The composition root: the engine's decision, standing grants, limits, the repeat-failure
guard, the approval queue and the audit ledger, behind one object.

``decide`` answers like ``bastion check`` (nothing written). ``request`` is the real thing:
it decides, parks an ASK until someone answers (or resolves it at once when nobody can be
asked), writes every decision to the ledger *before* returning, and returns the final
Evaluation whose first reason says who decided.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from bastion.approval.clock import Clock, SystemClock
from bastion.approval.grants import find_grant
from bastion.approval.guard import limit_reason, repeat_reason
from bastion.approval.model import (
    ApprovalRequest,
    PermissionDecision,
    Resolver,
    grantable,
    new_id,
)
from bastion.approval.outcome import (
    confirmed,
    granted,
    non_interactive,
    overridden,
    resolved,
    resolver_of,
    ttl_text,
)
from bastion.approval.queue import ApprovalQueue
from bastion.approval.settings import LimitsConfig
from bastion.approval.store import Store
from bastion.audit.events import EventKind
from bastion.audit.ledger import Ledger
from bastion.audit.redact import summarize
from bastion.audit.resolutions import LedgerResolutions
from bastion.audit.settings import AuditConfig
from bastion.call.model import ToolCall
from bastion.delegation import Delegation, Delegations
from bastion.errors import BastionError
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Evaluation, deny_for_error
from bastion.policy.judge import Judge
from bastion.runtime.asks import ask_callback, shadow_answer, would_ask
from bastion.runtime.combine import Combiner
from bastion.runtime.contain import held_to_sandbox
from bastion.runtime.parked import parked_request
from bastion.runtime.recording import Built, Draft, Recording

if TYPE_CHECKING:
    from bastion.opinion import SecondOpinion
    from bastion.policy.ceiling import Ceiling
    from bastion.runtime.contain import Containment

DB_FILE = "bastion.db"

#: ``on_permission(request)`` answers a parked call in code: once, always or reject.
Answer = PermissionDecision | Mapping[str, Any]
#: What ``request_sync`` hands the combiner: the bound call, its time, a person's
#: confirmation, and whether the caller runs what it is told contained (the stage applies).
_Settling = tuple[ToolCall, float, bool, bool]
#: A batch once decided: each call's draft (or the ASK to park), and the events to commit.
_Prepared = tuple[list[Draft | tuple[Evaluation, str]], Built]
PermissionCallback = Callable[[ApprovalRequest], Answer | Awaitable[Answer]]
_Decided = tuple[Evaluation, Resolver]


class Gatekeeper(Recording):
    def __init__(
        self,
        gate: Judge,
        *,
        store: Store,
        ledger: Ledger,
        clock: Clock | None = None,
        on_permission: PermissionCallback | None = None,
        limits: LimitsConfig | None = None,
        audit: AuditConfig | None = None,
        opinion: SecondOpinion | None = None,
        containment: Containment | None = None,
    ) -> None:
        self.gate = gate
        self.policy: Policy = gate.policy
        self.store = store
        self.ledger = ledger
        self.clock: Clock = clock or SystemClock()
        self.on_permission = on_permission
        # The loaded [limits], [audit] and [second_opinion] (bastion.construct passes them).
        self.limits = limits or LimitsConfig()
        self.audit = audit or AuditConfig()
        self.resolutions = LedgerResolutions(ledger.store)
        self.queue = ApprovalQueue(store, self.clock, recorder=self.resolutions)
        self._recent: OrderedDict[tuple[str | None, str], str] = OrderedDict()
        #: Child sessions (bastion.delegation) and the escalate-only checker (bastion.opinion).
        self.delegations = Delegations(self)
        self.opinion = opinion
        #: ``[exec] contain`` and the machine's sandbox (the agent hooks); None: no stage.
        self.containment = containment
        self._settler = Combiner(self._prepare_batch, self._record_batch)

    def child(
        self,
        parent: str,
        *,
        ceiling: Ceiling | None = None,
        share: float | None = None,
        session: str | None = None,
    ) -> Delegation:
        """Start (or restart) a child session of ``parent``: its ceiling or a stricter one,
        ``share`` of its limits; raises DelegationRefused for anything looser."""
        return self.delegations.child(parent, ceiling=ceiling, share=share, session=session)

    def with_gate(self, gate: Judge) -> Gatekeeper:
        """A Gatekeeper over ``gate`` (wrapping this one's) sharing everything else."""
        return Gatekeeper(
            gate,
            store=self.store,
            ledger=self.ledger,
            clock=self.clock,
            on_permission=self.on_permission,
            limits=self.limits,
            audit=self.audit,
            opinion=self.opinion,
            containment=self.containment,
        )

    def project_of(self, call: ToolCall) -> str:
        """The project scope: the most specific policy file, or the cwd without one."""
        return self.policy.sources[-1] if self.policy.sources else call.cwd

    # -- deciding ------------------------------------------------------------------------
    def decide(self, call: ToolCall, *, contain: bool = True) -> Evaluation:
        """Gate + standing grants + limits + repeat guard + containment; writes nothing."""
        call = self.delegations.bind(call)
        evaluation = self._decide(call, self.clock.now(), admit=False)[0]
        return self._contained(call, evaluation, run=False) if contain else _as_is(call, evaluation)

    def _contained(self, call: ToolCall, evaluation: Evaluation, *, run: bool = True) -> Evaluation:
        """The containment stage (:mod:`bastion.runtime.contain`); ``run``: not a check. An
        allow that holds only contained asks when the call is not (``held_to_sandbox``)."""
        if self.containment is None:
            return _as_is(call, evaluation)
        return held_to_sandbox(self.containment.stage(call, evaluation, self.gate, run=run))

    def _decide(self, call: ToolCall, now: float, *, admit: bool, headless: bool = False) -> _Decided:
        evaluation, resolver = self._decide_enforcing(call, now, admit=admit)
        opinion = self.opinion
        if opinion is not None and resolver is Resolver.POLICY:  # escalate only (bastion.opinion)
            evaluation = opinion.review(call, evaluation)
        if not self.policy.enforce:  # shadow mode: record would-be (headless: nobody to ask), allow
            evaluation = shadow_answer(self.policy, evaluation, headless=headless)
        return evaluation, resolver

    def _decide_enforcing(self, call: ToolCall, now: float, *, admit: bool) -> tuple[Evaluation, Resolver]:
        try:
            child = self.delegations.of(call)
            evaluation = self.delegations.gate_for(child).evaluate(call)
            key = self.hasher.digest(call)
            if call.session is not None:
                usage = (self.store.admit_call if admit else self.store.peek_usage)(
                    call.session, call.turn, now
                )
                record = self.store.failure_record(call.session, key)
                halt = None
                if record.failures or record.hard:  # a clean call needs no summary (~10 us)
                    halt = repeat_reason(
                        record,
                        matched=summarize(call),
                        now=now,
                        cooldown=self.limits.breaker_cooldown,
                        source=self.limits.source,
                    )
                if halt is not None:
                    return overridden(evaluation, halt), Resolver.BREAKER
                limit = (
                    limit_reason(usage, self.limits, now=now)
                    if child is None
                    else self.delegations.limit(self.store, child, call, usage, now=now, admit=admit)
                )
                if limit is not None:
                    return overridden(evaluation, limit), Resolver.LIMIT
            if would_ask(evaluation) and grantable(evaluation):
                grant = find_grant(
                    self.store.grants_for(call.tool), call, call_key=key, project=self.project_of(call)
                )
                if grant is not None:
                    return granted(evaluation, grant), Resolver.GRANT
            return evaluation, Resolver.POLICY
        except Exception as exc:  # a store failure is never an allow
            return deny_for_error(exc, rule="state.unavailable", transient=True), Resolver.POLICY

    # -- requesting ----------------------------------------------------------------------
    async def request(
        self,
        call: ToolCall,
        *,
        timeout: float | None = None,
        confirmed_by_person: bool = False,
        on_parked: Callable[[ApprovalRequest], None] | None = None,
        contain: bool = True,
    ) -> Evaluation:
        """Decide, park an ASK until it is answered, record everything; the final Evaluation.

        ``timeout`` can only shorten the policy's TTL. ``confirmed_by_person`` is a manual
        confirmation given before the call was sent (``:run!``): it answers an ASK, and
        never turns a DENY into anything else. ``on_parked`` is told the request once it
        is persisted (the CLI prints its id). ``contain=False``: the caller cannot run the
        call contained (an agent whose hook cannot rewrite it): no containment stage."""
        now = self.clock.now()
        call = self.delegations.bind(call)
        settled = self._settle(call, now, confirmed_by_person, contain)
        if not isinstance(settled, Evaluation):
            settled = await self._park_or_deny(call, *settled, now, timeout, on_parked, contain)
        return self._counted(call, now, settled)

    def _draft(
        self, call: ToolCall, now: float, confirmed_by_person: bool, contain: bool = True
    ) -> Draft | tuple[Evaluation, str]:
        """Decide (counting the call): the answer to record, or the ASK to park with its id."""
        decision_id = new_id()
        headless = not call.interactive and not confirmed_by_person
        evaluation, resolver = self._decide(call, now, admit=True, headless=headless)
        stage = self._contained if contain else _as_is
        evaluation = stage(call, evaluation)
        if evaluation.decision is not Decision.ASK:
            return Draft(evaluation, resolver, decision_id)
        if confirmed_by_person:
            return Draft(stage(call, confirmed(evaluation)), Resolver.PERSON, decision_id)
        if not call.interactive:
            answer = non_interactive(
                evaluation, self.policy.non_interactive_default, self.policy.approval_source
            )
            return Draft(answer, Resolver.POLICY, decision_id)
        return evaluation, decision_id

    def _settle(
        self, call: ToolCall, now: float, confirmed_by_person: bool, contain: bool
    ) -> Evaluation | tuple[Evaluation, str]:
        """Decide and record: the final answer, or the ASK to park with its decision id."""
        drafted = self._draft(call, now, confirmed_by_person, contain)
        if not isinstance(drafted, Draft):
            return drafted
        return self._finish(
            call, drafted.evaluation, drafted.resolver, drafted.decision_id, EventKind.DECIDED
        )

    def _draft_batch(self, items: list[_Settling]) -> list[Draft | tuple[Evaluation, str]]:
        """The decisions of concurrent ``request_sync`` callers, made by one of them in
        arrival order (:class:`Combiner`)."""
        if len(items) == 1:  # a caller alone: its counters commit on their own
            return [self._draft(*item) for item in items]
        try:
            with self.store.batch():  # the counters of every call in one commit
                return [self._draft(*item) for item in items]
        except Exception as exc:  # counts that were not kept: no answer built on them stands
            down = deny_for_error(exc, rule="state.unavailable", transient=True)
            return [Draft(down, Resolver.POLICY, new_id()) for _ in items]

    def _prepare_batch(self, items: list[_Settling]) -> _Prepared:
        """The batch's decisions and their events, built while it holds the turn."""
        drafted = self._draft_batch(items)
        decided = [(item[0], d) for item, d in zip(items, drafted, strict=True) if isinstance(d, Draft)]
        return drafted, self._build_many(decided)

    def _record_batch(
        self, items: list[_Settling], prepared: _Prepared
    ) -> list[Evaluation | tuple[Evaluation, str]]:
        """Their records, in one ledger commit (the ASKs to park are passed back)."""
        drafted, built = prepared
        answers = iter(self._commit_many(built))
        return [next(answers) if isinstance(d, Draft) else d for d in drafted]

    async def _park_or_deny(
        self,
        call: ToolCall,
        evaluation: Evaluation,
        decision_id: str,
        now: float,
        timeout: float | None,
        on_parked: Callable[[ApprovalRequest], None] | None,
        contain: bool = True,
    ) -> Evaluation:
        try:
            return await self._park(call, evaluation, decision_id, now, timeout, on_parked, contain)
        except BastionError as exc:
            return self._finish(
                call,
                deny_for_error(exc, rule="state.unavailable", transient=True),
                Resolver.POLICY,
                decision_id,
                EventKind.DECIDED,
            )

    def request_sync(
        self,
        call: ToolCall,
        *,
        timeout: float | None = None,
        confirmed_by_person: bool = False,
        on_parked: Callable[[ApprovalRequest], None] | None = None,
        contain: bool = True,
        hand_off: bool = False,
    ) -> Evaluation:
        """``request`` for synchronous callers (the CLI, the hook daemon's threads); not for use
        inside an event loop. Only a call that parks starts one (≈0.13 ms per loop).

        ``hand_off``: an ASK goes to the agent's own prompt (Claude Code, Gemini CLI, Copilot
        ask their user) instead of Bastion's queue: recorded as requested, resolver
        ``agent``, and returned as the ASK. One decision either way."""
        now = self.clock.now()
        call = self.delegations.bind(call)
        settled = self._settler.submit((call, now, confirmed_by_person, contain))
        if not isinstance(settled, Evaluation):
            if hand_off:
                evaluation, decision_id = settled
                return self._finish(call, evaluation, Resolver.AGENT, decision_id, EventKind.REQUESTED)
            settled = asyncio.run(self._park_or_deny(call, *settled, now, timeout, on_parked, contain))
        return self._counted(call, now, settled)

    def build_request(
        self, call: ToolCall, evaluation: Evaluation, *, request_id: str, now: float, timeout: float | None
    ) -> ApprovalRequest:
        return parked_request(call, evaluation, request_id=request_id, now=now, timeout=timeout,
                              ttl=self.policy.ttl_seconds, project=self.project_of(call),
                              call_key=self.hasher.digest(call))  # fmt: skip

    async def _park(
        self,
        call: ToolCall,
        evaluation: Evaluation,
        decision_id: str,
        now: float,
        timeout: float | None,
        on_parked: Callable[[ApprovalRequest], None] | None,
        contain: bool = True,
    ) -> Evaluation:
        request = self.build_request(call, evaluation, request_id=decision_id, now=now, timeout=timeout)
        watch = self.queue.submit(request)
        self._record(call, evaluation, Resolver.POLICY, decision_id, EventKind.REQUESTED)
        if on_parked is not None:
            on_parked(request)
        task = None
        if self.on_permission is not None:
            task = asyncio.ensure_future(ask_callback(self.on_permission, self.queue, request))
        try:
            final = await self.queue.wait(request.id, request.expires, watch)
        except asyncio.CancelledError:
            gone = self.store.get_request(request.id)
            if gone is not None and gone.state.final:
                with contextlib.suppress(Exception):
                    self._finish(
                        call,
                        resolved(gone, evaluation),
                        Resolver.CANCEL,
                        decision_id,
                        EventKind.RESOLVED,
                        request=gone,
                    )
            raise
        finally:
            if task is not None:
                task.cancel()
        answer = resolved(final, evaluation, ttl_text=ttl_text(request.expires - request.created))
        answer = self._contained(call, answer) if contain else answer
        return self._finish(call, answer, resolver_of(answer), decision_id, EventKind.RESOLVED, request=final)

    def close(self) -> None:
        self.store.close()
        self.ledger.close()

    def __enter__(self) -> Gatekeeper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _as_is(call: ToolCall, evaluation: Evaluation) -> Evaluation:
    """No containment stage: the call runs as written, so nothing rests on a sandbox."""
    return held_to_sandbox(evaluation)
