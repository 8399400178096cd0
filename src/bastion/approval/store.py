"""The one boundary the approval queue, grants and counters go through.

Implementations: :class:`~bastion.approval.memory.MemoryStore` (tests) and
:class:`~bastion.approval.sqlite.SqliteStore` (the embedded default). A PostgreSQL store
(later issue) implements the same protocol; its ``watch`` would LISTEN instead of polling.

Every state change is a *conditional* write (``… WHERE state = 'pending'``): whoever
commits first wins, and the loser learns the winner's result from the returned request.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from bastion.approval.model import ApprovalRequest, FailureRecord, Grant, Usage
from bastion.approval.state import Action, RequestState


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a store did with an answer: ``won`` False means someone else resolved it first
    (or the request was already past its expiry); ``request`` is the row as it now stands."""

    won: bool
    request: ApprovalRequest | None


class Watch(Protocol):
    """A registration for one request's resolution; ``event`` is set on an in-process
    resolution. Waiters also re-read the store every ``poll_interval`` for other processes."""

    event: asyncio.Event

    def close(self) -> None: ...


class Store(Protocol):
    #: How often a waiter re-reads a pending request (seconds).
    poll_interval: float

    # -- requests ------------------------------------------------------------------------
    def watch(self, request_id: str) -> Watch:
        """Register interest *before* the request is persisted, so no answer is missed."""
        ...

    def create_request(self, request: ApprovalRequest) -> None: ...

    def get_request(self, request_id: str) -> ApprovalRequest | None: ...

    def list_requests(self, states: Iterable[RequestState] | None = None) -> list[ApprovalRequest]:
        """Newest first; ``states`` None means every state."""
        ...

    def resolve(
        self,
        request_id: str,
        action: Action,
        *,
        at: float,
        resolver: str,
        feedback: str | None = None,
        grant: Grant | None = None,
        approver: str | None = None,
    ) -> Resolution:
        """Move a PENDING request on, conditionally: an answer only while ``at < expires``,
        EXPIRE only when ``at >= expires``, CANCEL any time. A grant is stored in the same
        transaction as an APPROVE_ALWAYS that wins; ``approver`` is stored with the answer."""
        ...

    def expire_due(self, at: float) -> list[str]:
        """Expire every pending request whose time is up (e.g. its waiter was killed)."""
        ...

    # -- grants --------------------------------------------------------------------------
    def add_grant(self, grant: Grant) -> None: ...

    def list_grants(self) -> list[Grant]: ...

    def grants_for(self, tool: str) -> list[Grant]: ...

    def revoke_grant(self, grant_id: str) -> bool: ...

    # -- counters (limits and the repeat-failure guard) -----------------------------------
    def batch(self) -> AbstractContextManager[object]:
        """One transaction for every counter change this thread makes inside it (the
        Gatekeeper's batch of concurrent calls): each change still succeeds or fails alone,
        and a batch whose commit fails raises, keeping none of them. A store whose every
        change is its own transaction returns a context that does nothing."""
        ...

    def peek_usage(self, session: str, turn: str | None, at: float) -> Usage:
        """Counters as if one more call were made now, without recording it."""
        ...

    def admit_call(self, session: str, turn: str | None, at: float) -> Usage:
        """Record one call (as let through) and return the counters including it (one
        transaction, so concurrent calls never overshoot a limit)."""
        ...

    def refuse_call(self, session: str, at: float) -> None:
        """The call admitted at ``at`` was refused after all (by a limit, the breaker, the
        policy or a person): it moves to the refused count, which ``calls_per_minute``
        does not count."""
        ...

    def failure_record(self, session: str, key: str) -> FailureRecord: ...

    def note_outcome(self, session: str, key: str, *, failed: bool, hard: bool, at: float) -> None:
        """A failure increments the call's record; a success clears it."""
        ...

    def close(self) -> None: ...


MINUTE = 60.0


def in_time(action: Action, expires: float, at: float) -> bool:
    """The time side of a conditional resolve: answers before expiry, expiry after it."""
    if action is Action.EXPIRE:
        return at >= expires
    if action is Action.CANCEL:
        return True
    return at < expires
