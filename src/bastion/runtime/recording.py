"""The Gatekeeper's writing half: every answer recorded durably before it is returned, the
repeat guard's and the limits' bookkeeping after it, and the outcome of an executed call.

A mixin: :class:`bastion.runtime.keeper.Gatekeeper` decides and parks; this part writes.
A ledger failure turns any answer into a transient DENY (``audit.unavailable``).
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bastion.approval.model import ApprovalRequest, Resolver, new_id
from bastion.approval.outcome import resolver_of
from bastion.approval.store import Store
from bastion.audit.events import AuditEvent, EventKind, make_event
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.resolutions import LedgerResolutions
from bastion.audit.settings import AuditConfig
from bastion.call.model import ToolCall
from bastion.errors import BastionError
from bastion.policy.decision import Decision, Evaluation, deny_for_error

if TYPE_CHECKING:
    from bastion.approval.clock import Clock
    from bastion.delegation import Delegations

#: Rules of the transient denials given while a store or the ledger is unavailable.
STATE_DOWN = frozenset({"state.unavailable", "audit.unavailable"})
#: How many (session, call) -> decision id links ``record_execution`` can find.
RECENT_DECISIONS = 4096
#: Each resolver's text from a dict (``value`` is a Python-level property of the enum).
_RESOLVERS: dict[Resolver, str] = {resolver: resolver.value for resolver in Resolver}


@dataclass(frozen=True, slots=True)
class Draft:
    """A decided call's answer, before its record is written."""

    evaluation: Evaluation
    resolver: Resolver
    decision_id: str


@dataclass(frozen=True, slots=True)
class Built:
    """Decided calls with their events built, waiting for one ledger commit: ``answers``
    holds the calls already answered (an event that could not be built), ``written`` the
    index of each event's call."""

    drafts: list[tuple[ToolCall, Draft]]
    events: list[AuditEvent]
    answers: list[Evaluation | None]
    written: list[int]


def unrecorded(exc: Exception) -> Evaluation:
    """The answer when the ledger cannot record a call: a transient DENY."""
    return deny_for_error(
        f"the audit ledger cannot record this call ({exc})", rule="audit.unavailable", transient=True
    )


class Recording:
    store: Store
    ledger: Ledger
    clock: Clock
    audit: AuditConfig
    resolutions: LedgerResolutions
    delegations: Delegations
    _recent: OrderedDict[tuple[str | None, str], str]

    @property
    def hasher(self) -> ArgumentHasher:
        return self.ledger.hasher

    def hand_off(self, call: ToolCall, evaluation: Evaluation) -> Evaluation:
        """Record an ASK handed to the agent's own prompt (Claude Code, Gemini CLI, Copilot
        ask their user): the gatekeeper writes it like any request, resolver ``agent``."""
        return self._finish(call, evaluation, Resolver.AGENT, new_id(), EventKind.REQUESTED)

    def refuse(self, call: ToolCall, evaluation: Evaluation) -> Evaluation:
        """Record a refusal an adapter made before the gate could decide (an MCP tool whose
        pinned definition changed, a tool the server does not offer); the Evaluation to
        return (a ledger failure makes it ``audit.unavailable``, still a denial)."""
        return self._finish(call, evaluation, Resolver.POLICY, new_id(), EventKind.DECIDED)

    def _event(
        self,
        call: ToolCall,
        evaluation: Evaluation,
        resolver: Resolver,
        decision_id: str,
        kind: EventKind = EventKind.DECIDED,
        *,
        exit_code: int | None = None,
        duration: float | None = None,
    ) -> AuditEvent:
        return make_event(
            call,
            evaluation,
            kind=kind,
            decision_id=decision_id,
            resolver=_RESOLVERS[resolver],
            time=self.clock.now(),
            hasher=self.hasher,
            config=self.audit,
            exit_code=exit_code,
            duration=duration,
        )

    def _record(
        self,
        call: ToolCall,
        evaluation: Evaluation,
        resolver: Resolver,
        decision_id: str,
        kind: EventKind,
        *,
        exit_code: int | None = None,
        duration: float | None = None,
    ) -> None:
        event = self._event(
            call, evaluation, resolver, decision_id, kind, exit_code=exit_code, duration=duration
        )
        self.ledger.append(event)

    def _finish(
        self,
        call: ToolCall,
        evaluation: Evaluation,
        resolver: Resolver,
        decision_id: str,
        kind: EventKind,
        *,
        request: ApprovalRequest | None = None,
    ) -> Evaluation:
        """Record durably, then update the guard; a ledger failure turns the answer into DENY.
        A parked ``request``'s resolution is written once, whoever writes it first."""
        try:
            if request is not None:
                self.resolutions.write(request)
            else:
                self._record(call, evaluation, resolver, decision_id, kind)
        except Exception as exc:
            return unrecorded(exc)
        self._recorded(call, Draft(evaluation, resolver, decision_id))
        return evaluation

    def _finish_many(self, drafts: Sequence[tuple[ToolCall, Draft]]) -> list[Evaluation]:
        """``_finish`` for many decided calls (``decided`` records), in one ledger commit:
        every record is durable when this returns, or none is acknowledged."""
        return self._commit_many(self._build_many(drafts))

    def _build_many(self, drafts: Sequence[tuple[ToolCall, Draft]]) -> Built:
        """The events of many decided calls; a call whose event cannot be built is answered
        ``audit.unavailable`` now (the Gatekeeper's batches build them while they still hold
        the turn, so the commit stage runs little Python beside the next batch's decisions)."""
        built = Built(list(drafts), [], [None] * len(drafts), [])
        for index, (call, draft) in enumerate(drafts):
            try:
                built.events.append(self._event(call, draft.evaluation, draft.resolver, draft.decision_id))
                built.written.append(index)
            except Exception as exc:
                built.answers[index] = unrecorded(exc)
        return built

    def _commit_many(self, built: Built) -> list[Evaluation]:
        """Write built events in one ledger commit; the answers once it is durable (a
        failing commit acknowledges none of them: each is ``audit.unavailable``)."""
        answers, written = built.answers, built.written
        try:
            self.ledger.append_many(built.events)
        except Exception as exc:
            for index in written:
                answers[index] = unrecorded(exc)
            written = []
        for index in written:
            call, draft = built.drafts[index]
            self._recorded(call, draft)
            answers[index] = draft.evaluation
        return [answer for answer in answers if answer is not None]

    def _recorded(self, call: ToolCall, draft: Draft) -> None:
        """The guard's bookkeeping once a decision is durable."""
        key = self.hasher.digest(call)
        self._remember(call.session, key, draft.decision_id)
        # The limit's and the breaker's own refusals are not failures of the call: counting
        # them would keep a tripped breaker tripped for as long as the agent retries.
        evaluation = draft.evaluation
        if (
            call.session is not None
            and evaluation.decision is Decision.DENY
            and draft.resolver not in (Resolver.LIMIT, Resolver.BREAKER)
        ):
            with contextlib.suppress(BastionError):  # the denial stands; only the guard forgets
                self.store.note_outcome(
                    call.session, key, failed=True, hard=evaluation.marker is not None, at=self.clock.now()
                )

    def _remember(self, session: str | None, key: str, decision_id: str) -> None:
        self._recent[(session, key)] = decision_id
        self._recent.move_to_end((session, key))
        while len(self._recent) > RECENT_DECISIONS:
            self._recent.popitem(last=False)

    def record_execution(
        self,
        call: ToolCall,
        evaluation: Evaluation,
        exit_code: int | None,
        duration: float,
        *,
        decision_id: str | None = None,
    ) -> None:
        """Record an executed call's exit status (None: killed at its timeout) and duration.
        A failure counts toward the repeat guard; a success clears the call's record."""
        call = self.delegations.bind(call)
        key = self.hasher.digest(call)
        linked = decision_id or self._recent.get((call.session, key)) or new_id()
        self._record(
            call,
            evaluation,
            resolver_of(evaluation),
            linked,
            EventKind.EXECUTED,
            exit_code=exit_code,
            duration=duration,
        )
        if call.session is not None:
            self.store.note_outcome(call.session, key, failed=exit_code != 0, hard=False, at=self.clock.now())

    def _counted(self, call: ToolCall, now: float, final: Evaluation) -> Evaluation:
        if (
            call.session is not None
            and final.decision is not Decision.ALLOW
            and final.reasons
            and final.reasons[0].rule not in STATE_DOWN
        ):
            # Only calls let through count toward calls_per_minute (see README, Limits). While
            # the state is down the call stays counted: one more failing round trip helps nobody.
            with contextlib.suppress(Exception):
                for session in (call.session, *self.delegations.sessions_above(call)):
                    self.store.refuse_call(session, now)
        return final
