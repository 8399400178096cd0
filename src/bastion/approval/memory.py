"""An in-memory Store for tests and single-process embedding (nothing survives a restart)."""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from collections import defaultdict
from collections.abc import Iterable
from contextlib import AbstractContextManager

from bastion.approval.model import EXPIRY, ApprovalRequest, FailureRecord, Grant, Usage
from bastion.approval.state import Action, RequestState, transition
from bastion.approval.store import MINUTE, Resolution, in_time
from bastion.approval.watch import EventWatch, Watchers


class MemoryStore:
    poll_interval = 1.0  # in-process answers set the event; polling only guards the deadline

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._requests: dict[str, ApprovalRequest] = {}
        self._grants: dict[str, Grant] = {}
        self._turns: dict[tuple[str, str], tuple[float, int]] = {}
        self._calls: dict[str, list[float]] = defaultdict(list)
        self._refused: dict[str, list[float]] = defaultdict(list)
        self._failures: dict[tuple[str, str], FailureRecord] = {}
        self._watchers = Watchers()

    # -- requests ------------------------------------------------------------------------
    def watch(self, request_id: str) -> EventWatch:
        return self._watchers.add(request_id)

    def create_request(self, request: ApprovalRequest) -> None:
        with self._lock:
            if request.id in self._requests:
                raise ValueError(f"request {request.id} exists")
            self._requests[request.id] = request

    def get_request(self, request_id: str) -> ApprovalRequest | None:
        with self._lock:
            return self._requests.get(request_id)

    def list_requests(self, states: Iterable[RequestState] | None = None) -> list[ApprovalRequest]:
        wanted = None if states is None else set(states)
        with self._lock:
            items = [r for r in self._requests.values() if wanted is None or r.state in wanted]
        return sorted(items, key=lambda r: r.created, reverse=True)

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
        with self._lock:
            current = self._requests.get(request_id)
            if current is None:
                return Resolution(False, None)
            if current.state is not RequestState.PENDING or not in_time(action, current.expires, at):
                return Resolution(False, current)
            updated = dataclasses.replace(
                current,
                state=transition(current.state, action),
                resolved_at=at,
                resolver=resolver,
                feedback=feedback,
                grant_id=grant.id if grant else None,
                approver=approver,
            )
            self._requests[request_id] = updated
            if grant is not None:
                self._grants[grant.id] = grant
        self._watchers.notify(request_id)
        return Resolution(True, updated)

    def expire_due(self, at: float) -> list[str]:
        with self._lock:
            due = [
                r.id for r in self._requests.values() if r.state is RequestState.PENDING and r.expires <= at
            ]
        return [
            i for i in due if self.resolve(i, Action.EXPIRE, at=at, resolver="timeout", approver=EXPIRY).won
        ]

    # -- grants --------------------------------------------------------------------------
    def add_grant(self, grant: Grant) -> None:
        with self._lock:
            self._grants[grant.id] = grant

    def list_grants(self) -> list[Grant]:
        with self._lock:
            return sorted(self._grants.values(), key=lambda g: g.created)

    def grants_for(self, tool: str) -> list[Grant]:
        return [g for g in self.list_grants() if g.tool == tool]

    def revoke_grant(self, grant_id: str) -> bool:
        with self._lock:
            return self._grants.pop(grant_id, None) is not None

    # -- counters ------------------------------------------------------------------------
    def _usage(self, session: str, turn: str | None, at: float, *, record: bool) -> Usage:
        with self._lock:
            calls = [t for t in self._calls[session] if t > at - MINUTE]
            calls.append(at)
            refused = [t for t in self._refused[session] if t > at - MINUTE]
            started, count = self._turns.get((session, turn), (at, 0)) if turn else (at, 0)
            if record:
                self._calls[session] = calls
                self._refused[session] = refused
                if turn is not None:
                    self._turns[(session, turn)] = (started, count + 1)
            return Usage(
                turn_calls=count + 1 if turn else 0,
                turn_started=started if turn else None,
                minute_calls=len(calls),
                minute_refused=len(refused),
            )

    def peek_usage(self, session: str, turn: str | None, at: float) -> Usage:
        return self._usage(session, turn, at, record=False)

    def batch(self) -> AbstractContextManager[object]:
        """Every change is made at once under the lock: nothing to share."""
        return contextlib.nullcontext()

    def admit_call(self, session: str, turn: str | None, at: float) -> Usage:
        return self._usage(session, turn, at, record=True)

    def refuse_call(self, session: str, at: float) -> None:
        with self._lock:
            if at in self._calls[session]:
                self._calls[session].remove(at)
                self._refused[session].append(at)

    def failure_record(self, session: str, key: str) -> FailureRecord:
        with self._lock:
            return self._failures.get((session, key), FailureRecord())

    def note_outcome(self, session: str, key: str, *, failed: bool, hard: bool, at: float) -> None:
        with self._lock:
            if not failed:
                self._failures.pop((session, key), None)
                return
            old = self._failures.get((session, key), FailureRecord())
            self._failures[(session, key)] = FailureRecord(old.failures + 1, old.hard + int(hard), at)

    def close(self) -> None:
        return None
