"""The approval queue service: park a request and wait, answer it, expire what is due.

Used by the runtime (the parked side) and by every answering surface (the CLI now; the
web page, MCP elicitation and hooks later): they all go through :meth:`ApprovalQueue.answer`.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Protocol

from bastion.approval.clock import Clock
from bastion.approval.grants import parse_pattern
from bastion.approval.model import (
    CANCEL,
    EXPIRY,
    ApprovalRequest,
    Grant,
    Scope,
    grantable,
    new_id,
)
from bastion.approval.state import Action, RequestState
from bastion.approval.store import Resolution, Store, Watch
from bastion.errors import BastionError


class AnswerError(BastionError):
    """An answer that cannot be applied; ``hint`` says what to do instead."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint


class Recorder(Protocol):
    """Writes a final request's resolution to the audit ledger, at most once per request
    (``bastion.audit.resolutions.LedgerResolutions``)."""

    def record(self, request: ApprovalRequest) -> None: ...


class ApprovalQueue:
    """``recorder``: the side that resolves a request (answers it, expires it, cancels it)
    writes the resolution to the ledger at once, so it is recorded even when the parked
    caller is gone; the waiter records it too, and the ledger keeps the first."""

    def __init__(self, store: Store, clock: Clock, recorder: Recorder | None = None) -> None:
        self.store = store
        self.clock = clock
        self.recorder = recorder

    def _resolve(
        self,
        request_id: str,
        action: Action,
        *,
        at: float,
        resolver: str,
        approver: str,
        feedback: str | None = None,
        grant: Grant | None = None,
    ) -> Resolution:
        outcome = self.store.resolve(
            request_id, action, at=at, resolver=resolver, feedback=feedback, grant=grant, approver=approver
        )
        if outcome.won and outcome.request is not None:
            self.record(outcome.request)
        return outcome

    def record(self, request: ApprovalRequest) -> None:
        """Write ``request``'s resolution (idempotent); a no-op without a recorder."""
        if self.recorder is not None and request.state.final:
            self.recorder.record(request)

    def expire(self, request_id: str, at: float) -> Resolution:
        """Expire one request whose time is up (and record it)."""
        return self._resolve(request_id, Action.EXPIRE, at=at, resolver="timeout", approver=EXPIRY)

    # -- the parked side -----------------------------------------------------------------
    def submit(self, request: ApprovalRequest) -> Watch:
        """Register the waiter, then persist: an answer racing the insert is never lost."""
        watch = self.store.watch(request.id)
        try:
            self.store.create_request(request)
        except BaseException:
            watch.close()
            raise
        return watch

    async def wait(self, request_id: str, deadline: float, watch: Watch) -> ApprovalRequest:
        """Wait for an answer until ``deadline``; then expire it (unless an answer was
        persisted first, which is honoured). Cancelling the task cancels the request."""
        try:
            while True:
                current = self.store.get_request(request_id)
                if current is None:
                    raise BastionError(f"request {request_id} vanished from the store")
                if current.state.final:
                    return current
                remaining = deadline - self.clock.now()
                if remaining <= 0:
                    outcome = self.expire(request_id, max(self.clock.now(), current.expires))
                    if outcome.request is not None and outcome.request.state.final:
                        return outcome.request
                    continue
                await self.clock.wait(watch.event, min(remaining, self.store.poll_interval))
        except asyncio.CancelledError:
            with contextlib.suppress(BastionError):
                self._resolve(
                    request_id, Action.CANCEL, at=self.clock.now(), resolver="cancel", approver=CANCEL
                )
            raise
        finally:
            watch.close()

    # -- the answering side --------------------------------------------------------------
    def find(self, id_or_prefix: str) -> ApprovalRequest:
        """An exact id, or a unique prefix of at least 6 characters (for typing at a CLI)."""
        exact = self.store.get_request(id_or_prefix)
        if exact is not None:
            return exact
        if len(id_or_prefix) >= 6:
            found = [r for r in self.store.list_requests() if r.id.startswith(id_or_prefix)]
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                raise AnswerError(
                    f"{id_or_prefix!r} matches {len(found)} requests", hint="give more characters of the id"
                )
        raise AnswerError(
            f"no approval request {id_or_prefix!r}",
            hint="run 'bastion approvals list --all' to see request ids",
        )

    def answer(
        self,
        request_id: str,
        *,
        approve: bool,
        always: bool = False,
        pattern: str | None = None,
        scope: Scope = Scope.PROJECT,
        feedback: str | None = None,
        resolver: str = "person",
        approver: str,
        uncontained: bool = False,
    ) -> ApprovalRequest:
        """Approve (once or always) or deny; returns the request as resolved by this answer.
        ``approver`` says who answered (an approver key's id, ``local:<user>``, ``callback``):
        stored with the request and in its ledger record. ``uncontained``: approve this one
        call to run as written, outside the sandbox ("approve uncontained"; never with
        ``always``). Raises AnswerError when it was already resolved, has expired, or cannot
        be granted."""
        if not approver.strip():
            raise AnswerError(
                "an answer needs an approver identity",
                hint="answer with an approver key, or confirm on a terminal",
            )
        if uncontained and (always or not approve):
            raise AnswerError(
                "approve uncontained is one call's answer: never a standing grant, never a denial",
                hint="approve it uncontained once, or approve it (contained) always",
            )
        request = self.find(request_id)
        now = self.clock.now()
        grant = self._grant(request, pattern, scope, now) if approve and always else None
        action = Action.APPROVE_ONCE if approve else Action.DENY
        if approve and always:
            action = Action.APPROVE_ALWAYS
        if uncontained:
            action = Action.APPROVE_UNCONTAINED
        outcome = self._resolve(
            request.id,
            action,
            at=now,
            resolver=resolver,
            approver=approver,
            feedback=feedback if not approve else None,
            grant=grant,
        )
        if outcome.won and outcome.request is not None:
            return outcome.request
        current = outcome.request or request
        if current.state is RequestState.PENDING:  # past its expiry: record that, then say so
            self.expire(current.id, now)
            raise AnswerError(
                f"request {current.id} expired before this answer",
                hint="the call was denied; ask the agent to retry it",
            )
        raise AnswerError(
            f"request {current.id} is already {current.state.value}"
            + (f" (by {current.resolver})" if current.resolver else "")
        )

    def _grant(self, request: ApprovalRequest, pattern: str | None, scope: Scope, now: float) -> Grant:
        if not (request.grantable and grantable(request.evaluation)):
            raise AnswerError(
                "this call involves a hardline class or raised privilege: never a standing grant",
                hint="approve it once (without --always), or deny it",
            )
        if scope is Scope.SESSION:
            if not request.session:
                raise AnswerError(
                    "this request has no session: a session grant is impossible", hint="use --scope project"
                )
            scope_value = request.session
        else:
            scope_value = request.project
        text = None
        if pattern is not None:
            if request.tool != "shell":
                raise AnswerError(
                    "--pattern applies to shell calls only", hint="omit --pattern to grant this exact call"
                )
            if request.argv is None:
                raise AnswerError(
                    "this command is not one plain command, so no pattern can cover it",
                    hint="omit --pattern to grant this exact call",
                )
            try:
                parsed = parse_pattern(pattern)
            except ValueError as exc:
                raise AnswerError(str(exc), hint="e.g. --pattern 'git push origin *'") from exc
            if not parsed.matches(request.argv):
                raise AnswerError(
                    f"pattern {parsed.text!r} does not match the request's command",
                    hint=f"the command is: {' '.join(request.argv)}",
                )
            text = parsed.text
        return Grant(
            id=new_id(),
            tool=request.tool,
            scope=scope,
            scope_value=scope_value,
            summary=text or request.summary,
            created=now,
            key=None if text else request.call_key,
            pattern=text,
            request_id=request.id,
        )

    def expire_due(self) -> list[str]:
        """Expire (and record) every pending request whose time is up, e.g. one whose
        waiter was killed: nobody else would ever resolve it."""
        now = self.clock.now()
        due = [r.id for r in self.store.list_requests([RequestState.PENDING]) if r.expires <= now]
        return [i for i in due if self.expire(i, now).won]
