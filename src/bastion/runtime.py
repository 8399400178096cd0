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
import inspect
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from bastion.approval.clock import Clock, SystemClock
from bastion.approval.grants import find_grant, shell_argv, suggest_pattern
from bastion.approval.guard import limit_reason, repeat_reason
from bastion.approval.model import (
    CALLBACK,
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
from bastion.approval.queue import AnswerError, ApprovalQueue
from bastion.approval.settings import LimitsConfig
from bastion.approval.store import Store
from bastion.audit.events import EventKind, make_event
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.redact import redact, summarize
from bastion.audit.resolutions import LedgerResolutions
from bastion.audit.settings import AuditConfig
from bastion.call.model import ToolCall
from bastion.delegation import Delegation, Delegations
from bastion.errors import BastionError
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Evaluation, deny_for_error
from bastion.policy.engine import Gate

if TYPE_CHECKING:
    from bastion.opinion import SecondOpinion
    from bastion.policy.ceiling import Ceiling

DB_FILE = "bastion.db"
#: Rules of the transient denials given while a store or the ledger is unavailable.
_STATE_DOWN = frozenset({"state.unavailable", "audit.unavailable"})

#: ``on_permission(request)`` answers a parked call in code: once, always or reject.
Answer = PermissionDecision | Mapping[str, Any]
PermissionCallback = Callable[[ApprovalRequest], Answer | Awaitable[Answer]]


def would_ask(evaluation: Evaluation) -> bool:
    """An ASK, or the engine's soft non-interactive DENY of what would have been an ASK
    (a standing grant may answer both); never a hardline call, never a real DENY."""
    if evaluation.hardline:
        return False
    if evaluation.decision is Decision.ASK:
        return True
    deciding = [r for r in evaluation.reasons if r.decision is Decision.DENY]
    return (evaluation.decision is Decision.DENY and evaluation.marker is None and bool(deciding)
            and all(r.rule == "approval.non_interactive_default" for r in deciding))


class Gatekeeper:
    def __init__(
        self,
        gate: Gate,
        *,
        store: Store,
        ledger: Ledger,
        clock: Clock | None = None,
        on_permission: PermissionCallback | None = None,
        limits: LimitsConfig | None = None,
        audit: AuditConfig | None = None,
        opinion: SecondOpinion | None = None,
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

    def child(self, parent: str, *, ceiling: Ceiling | None = None, share: float | None = None,
              session: str | None = None) -> Delegation:
        """Start (or restart) a child session of ``parent``: its ceiling or a stricter one,
        ``share`` of its limits; raises DelegationRefused for anything looser."""
        return self.delegations.child(parent, ceiling=ceiling, share=share, session=session)

    @property
    def hasher(self) -> ArgumentHasher:
        return self.ledger.hasher

    def project_of(self, call: ToolCall) -> str:
        """The project scope: the most specific policy file, or the cwd without one."""
        return self.policy.sources[-1] if self.policy.sources else call.cwd

    # -- deciding ------------------------------------------------------------------------
    def decide(self, call: ToolCall) -> Evaluation:
        """Gate + standing grants + limits + repeat guard; writes nothing."""
        return self._decide(self.delegations.bind(call), self.clock.now(), admit=False)[0]

    def _decide(self, call: ToolCall, now: float, *, admit: bool) -> tuple[Evaluation, Resolver]:
        evaluation, resolver = self._decide_enforcing(call, now, admit=admit)
        opinion = self.opinion
        if opinion is not None and resolver is Resolver.POLICY:  # escalate only (bastion.opinion)
            evaluation = opinion.review(call, evaluation)
        if not self.policy.enforce:  # shadow mode: record would-be, allow
            from bastion.policy.shadow import shadowed

            evaluation = shadowed(evaluation, self.policy.enforce_source)
        return evaluation, resolver

    def _decide_enforcing(self, call: ToolCall, now: float, *, admit: bool) -> tuple[Evaluation, Resolver]:
        try:
            child = self.delegations.of(call)
            evaluation = self.delegations.gate_for(child).evaluate(call)
            key = self.hasher.digest(call)
            if call.session is not None:
                usage = (self.store.admit_call if admit else self.store.peek_usage)(
                    call.session, call.turn, now)
                halt = repeat_reason(self.store.failure_record(call.session, key),
                                     matched=summarize(call), now=now,
                                     cooldown=self.limits.breaker_cooldown, source=self.limits.source)
                if halt is not None:
                    return overridden(evaluation, halt), Resolver.BREAKER
                limit = (limit_reason(usage, self.limits, now=now) if child is None else
                         self.delegations.limit(self.store, child, call, usage, now=now, admit=admit))
                if limit is not None:
                    return overridden(evaluation, limit), Resolver.LIMIT
            if would_ask(evaluation) and grantable(evaluation):
                grant = find_grant(self.store.grants_for(call.tool), call, call_key=key,
                                   project=self.project_of(call))
                if grant is not None:
                    return granted(evaluation, grant), Resolver.GRANT
            return evaluation, Resolver.POLICY
        except Exception as exc:  # a store failure is never an allow
            return deny_for_error(exc, rule="state.unavailable", transient=True), Resolver.POLICY

    # -- requesting ----------------------------------------------------------------------
    async def request(self, call: ToolCall, *, timeout: float | None = None,
                      confirmed_by_person: bool = False,
                      on_parked: Callable[[ApprovalRequest], None] | None = None) -> Evaluation:
        """Decide, park an ASK until it is answered, record everything; the final Evaluation.

        ``timeout`` can only shorten the policy's TTL. ``confirmed_by_person`` is a manual
        confirmation given before the call was sent (``:run!``): it answers an ASK, and
        never turns a DENY into anything else. ``on_parked`` is told the request once it
        is persisted (the CLI prints its id)."""
        now = self.clock.now()
        call = self.delegations.bind(call)
        settled = self._settle(call, now, confirmed_by_person)
        if not isinstance(settled, Evaluation):
            settled = await self._park_or_deny(call, *settled, now, timeout, on_parked)
        return self._counted(call, now, settled)

    def _counted(self, call: ToolCall, now: float, final: Evaluation) -> Evaluation:
        if (call.session is not None and final.decision is not Decision.ALLOW
                and final.reasons and final.reasons[0].rule not in _STATE_DOWN):
            # Only calls let through count toward calls_per_minute (see README, Limits). While
            # the state is down the call stays counted: one more failing round trip helps nobody.
            with contextlib.suppress(Exception):
                for session in (call.session, *self.delegations.sessions_above(call)):
                    self.store.refuse_call(session, now)
        return final

    def _settle(self, call: ToolCall, now: float,
                confirmed_by_person: bool) -> Evaluation | tuple[Evaluation, str]:
        """Decide and record: the final answer, or the ASK to park with its decision id."""
        decision_id = new_id()
        evaluation, resolver = self._decide(call, now, admit=True)
        if evaluation.decision is not Decision.ASK:
            return self._finish(call, evaluation, resolver, decision_id, EventKind.DECIDED)
        if confirmed_by_person:
            return self._finish(call, confirmed(evaluation), Resolver.PERSON, decision_id,
                                EventKind.DECIDED)
        if not call.interactive:
            answer = non_interactive(evaluation, self.policy.non_interactive_default,
                                     self.policy.approval_source)
            return self._finish(call, answer, Resolver.POLICY, decision_id, EventKind.DECIDED)
        return evaluation, decision_id

    async def _park_or_deny(self, call: ToolCall, evaluation: Evaluation, decision_id: str,
                            now: float, timeout: float | None,
                            on_parked: Callable[[ApprovalRequest], None] | None) -> Evaluation:
        try:
            return await self._park(call, evaluation, decision_id, now, timeout, on_parked)
        except BastionError as exc:
            return self._finish(call, deny_for_error(exc, rule="state.unavailable", transient=True),
                                Resolver.POLICY, decision_id, EventKind.DECIDED)

    def request_sync(self, call: ToolCall, *, timeout: float | None = None,
                     confirmed_by_person: bool = False,
                     on_parked: Callable[[ApprovalRequest], None] | None = None) -> Evaluation:
        """``request`` for synchronous callers (the CLI, the hook daemon's threads); not for use
        inside an event loop. Only a call that parks starts one (≈0.13 ms per loop)."""
        now = self.clock.now()
        call = self.delegations.bind(call)
        settled = self._settle(call, now, confirmed_by_person)
        if not isinstance(settled, Evaluation):
            settled = asyncio.run(self._park_or_deny(call, *settled, now, timeout, on_parked))
        return self._counted(call, now, settled)

    def build_request(self, call: ToolCall, evaluation: Evaluation, *, request_id: str,
                      now: float, timeout: float | None) -> ApprovalRequest:
        ttl = self.policy.ttl_seconds if timeout is None else min(timeout, self.policy.ttl_seconds)
        argv = shell_argv(call)
        redacted = None if argv is None else tuple(redact(word) for word in argv)
        return ApprovalRequest(
            id=request_id, created=now, expires=now + max(ttl, 0.0), tool=call.tool,
            summary=summarize(call), reason=redact(evaluation.message)[:500],
            evaluation=evaluation, call_key=self.hasher.digest(call), project=self.project_of(call),
            session=call.session, agent=call.agent, turn=call.turn, argv=redacted,
            grantable=grantable(evaluation),
            suggested_pattern=suggest_pattern(redacted) if grantable(evaluation) else None,
        )

    async def _park(self, call: ToolCall, evaluation: Evaluation, decision_id: str, now: float,
                    timeout: float | None,
                    on_parked: Callable[[ApprovalRequest], None] | None) -> Evaluation:
        request = self.build_request(call, evaluation, request_id=decision_id, now=now,
                                     timeout=timeout)
        watch = self.queue.submit(request)
        self._record(call, evaluation, Resolver.POLICY, decision_id, EventKind.REQUESTED)
        if on_parked is not None:
            on_parked(request)
        task = None
        if self.on_permission is not None:
            task = asyncio.ensure_future(self._ask_callback(request))
        try:
            final = await self.queue.wait(request.id, request.expires, watch)
        except asyncio.CancelledError:
            gone = self.store.get_request(request.id)
            if gone is not None and gone.state.final:
                with contextlib.suppress(Exception):
                    self._finish(call, resolved(gone, evaluation), Resolver.CANCEL, decision_id,
                                 EventKind.RESOLVED, request=gone)
            raise
        finally:
            if task is not None:
                task.cancel()
        answer = resolved(final, evaluation, ttl_text=ttl_text(request.expires - request.created))
        return self._finish(call, answer, resolver_of(answer), decision_id, EventKind.RESOLVED,
                            request=final)

    async def _ask_callback(self, request: ApprovalRequest) -> None:
        assert self.on_permission is not None
        try:
            reply = self.on_permission(request)
            if inspect.isawaitable(reply):
                reply = await reply
            choice = PermissionDecision.coerce(reply)
            always = choice.kind == "always" and request.grantable and grantable(request.evaluation)
            self.queue.answer(request.id, approve=choice.kind != "reject", always=always,
                              pattern=choice.pattern, scope=choice.scope,
                              feedback=choice.feedback, resolver="callback", approver=CALLBACK)
        except asyncio.CancelledError:
            raise
        except AnswerError:
            return  # already resolved (expired or answered elsewhere): nothing to do
        except Exception as exc:  # a failing callback is a denial, never an approval
            try:
                self.queue.answer(request.id, approve=False, resolver="callback", approver=CALLBACK,
                                  feedback=f"on_permission failed: {type(exc).__name__}: {exc}")
            except AnswerError:
                return

    # -- recording -----------------------------------------------------------------------
    def hand_off(self, call: ToolCall, evaluation: Evaluation) -> Evaluation:
        """Record an ASK handed to the agent's own prompt (Claude Code, Gemini CLI, Copilot
        ask their user): the gatekeeper writes it like any request, resolver ``agent``."""
        return self._finish(call, evaluation, Resolver.AGENT, new_id(), EventKind.REQUESTED)

    def refuse(self, call: ToolCall, evaluation: Evaluation) -> Evaluation:
        """Record a refusal an adapter made before the gate could decide (an MCP tool whose
        pinned definition changed, a tool the server does not offer); the Evaluation to
        return (a ledger failure makes it ``audit.unavailable``, still a denial)."""
        return self._finish(call, evaluation, Resolver.POLICY, new_id(), EventKind.DECIDED)

    def _record(self, call: ToolCall, evaluation: Evaluation, resolver: Resolver, decision_id: str,
                kind: EventKind, *, exit_code: int | None = None, duration: float | None = None) -> None:
        self.ledger.append(make_event(
            call, evaluation, kind=kind, decision_id=decision_id, resolver=resolver.value,
            time=self.clock.now(), hasher=self.hasher, config=self.audit, exit_code=exit_code,
            duration=duration))

    def _finish(self, call: ToolCall, evaluation: Evaluation, resolver: Resolver,
                decision_id: str, kind: EventKind, *,
                request: ApprovalRequest | None = None) -> Evaluation:
        """Record durably, then update the guard; a ledger failure turns the answer into DENY.
        A parked ``request``'s resolution is written once, whoever writes it first."""
        try:
            if request is not None:
                self.resolutions.write(request)
            else:
                self._record(call, evaluation, resolver, decision_id, kind)
        except Exception as exc:
            return deny_for_error(f"the audit ledger cannot record this call ({exc})",
                                  rule="audit.unavailable", transient=True)
        key = self.hasher.digest(call)
        self._remember(call.session, key, decision_id)
        # The limit's and the breaker's own refusals are not failures of the call: counting
        # them would keep a tripped breaker tripped for as long as the agent retries.
        if call.session is not None and evaluation.decision is Decision.DENY \
                and resolver not in (Resolver.LIMIT, Resolver.BREAKER):
            with contextlib.suppress(BastionError):  # the denial stands; only the guard forgets
                self.store.note_outcome(call.session, key, failed=True,
                                        hard=evaluation.marker is not None, at=self.clock.now())
        return evaluation

    def _remember(self, session: str | None, key: str, decision_id: str) -> None:
        self._recent[(session, key)] = decision_id
        self._recent.move_to_end((session, key))
        while len(self._recent) > 4096:
            self._recent.popitem(last=False)

    def record_execution(self, call: ToolCall, evaluation: Evaluation, exit_code: int | None,
                         duration: float, *, decision_id: str | None = None) -> None:
        """Record an executed call's exit status (None: killed at its timeout) and duration.
        A failure counts toward the repeat guard; a success clears the call's record."""
        call = self.delegations.bind(call)
        key = self.hasher.digest(call)
        linked = decision_id or self._recent.get((call.session, key)) or new_id()
        self._record(call, evaluation, resolver_of(evaluation), linked, EventKind.EXECUTED,
                     exit_code=exit_code, duration=duration)
        if call.session is not None:
            self.store.note_outcome(call.session, key, failed=exit_code != 0, hard=False,
                                    at=self.clock.now())

    def close(self) -> None:
        self.store.close()
        self.ledger.close()

    def __enter__(self) -> Gatekeeper:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
