"""The approval Store on PostgreSQL: requests, exactly-once resolution, grants, counters.

Resolution is one conditional statement: ``UPDATE … WHERE id = %s AND state = 'pending'
AND <in time> RETURNING *``. Whichever daemon's statement commits first wins; PostgreSQL
re-checks the condition for a concurrent loser after the winner commits, so the loser
updates nothing and reads the winner's row ("already resolved"). A grant from an
APPROVE_ALWAYS is inserted in the same transaction, and ``pg_notify`` in it wakes every
daemon's waiter after the commit (see :mod:`bastion.postgres.listener`).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from contextlib import AbstractContextManager
from typing import Any

from bastion.approval.model import EXPIRY, ApprovalRequest, Deadline, FailureRecord, Grant, Scope, Usage
from bastion.approval.state import Action, RequestState, transition
from bastion.approval.store import Resolution
from bastion.approval.watch import EventWatch, Watchers
from bastion.policy.decision import Evaluation
from bastion.postgres import counters
from bastion.postgres.connection import Conn, PgDatabase, PgHandle, Row
from bastion.postgres.listener import CHANNEL, CREATED, RESOLVED, Listener, Observer, payload
from bastion.postgres.rows import clean, decode, encode

#: Fields fixed at creation (stored exactly, NULs included, via ``nul_fields``).
_CREATION = (
    "id",
    "created",
    "expires",
    "tool",
    "summary",
    "reason",
    "evaluation",
    "call_key",
    "project",
    "session",
    "agent",
    "turn",
    "argv",
    "grantable",
    "suggested_pattern",
    "folder",
    "deadline",
)
_COLUMNS = (*_CREATION, "state", "nul_fields")
_INSERT_REQUEST = (
    f"INSERT INTO approval_requests ({', '.join(_COLUMNS)}) VALUES ({', '.join(['%s'] * len(_COLUMNS))})"
)
_GRANT_COLUMNS = ("id", "tool", "scope", "scope_value", "summary", "created", "key", "pattern", "request_id")
_INSERT_GRANT = (
    f"INSERT INTO grants ({', '.join(_GRANT_COLUMNS)}) VALUES ({', '.join(['%s'] * len(_GRANT_COLUMNS))})"
)
#: The time side of a conditional resolve, as SQL (cf. ``bastion.approval.store.in_time``).
_IN_TIME = {Action.EXPIRE: "expires <= %(at)s", Action.CANCEL: "TRUE"}
_ANSWER_IN_TIME = "expires > %(at)s"


def _creation_values(r: ApprovalRequest) -> tuple[object, ...]:
    return (
        r.id,
        r.created,
        r.expires,
        r.tool,
        r.summary,
        r.reason,
        json.dumps(r.evaluation.to_json(), sort_keys=True),
        r.call_key,
        r.project,
        r.session,
        r.agent,
        r.turn,
        None if r.argv is None else json.dumps(list(r.argv)),
        r.grantable,
        r.suggested_pattern,
        r.folder,
        r.deadline.value,
    )


def _request(row: Row) -> ApprovalRequest:
    f = decode(row, _CREATION)
    return ApprovalRequest(
        id=f["id"],
        state=RequestState(row["state"]),
        created=f["created"],
        expires=f["expires"],
        tool=f["tool"],
        summary=f["summary"],
        reason=f["reason"],
        evaluation=Evaluation.from_json(json.loads(f["evaluation"])),
        call_key=f["call_key"],
        project=f["project"],
        session=f["session"],
        agent=f["agent"],
        turn=f["turn"],
        argv=None if f["argv"] is None else tuple(json.loads(f["argv"])),
        grantable=bool(f["grantable"]),
        suggested_pattern=f["suggested_pattern"],
        resolved_at=row["resolved_at"],
        resolver=row["resolver"],
        feedback=row["feedback"],
        grant_id=row["grant_id"],
        approver=row.get("approver"),
        folder=f.get("folder"),
        deadline=Deadline(f.get("deadline") or Deadline.POLICY),
    )


def _grant_values(g: Grant) -> tuple[object, ...]:
    return tuple(
        clean(v)
        for v in (
            g.id,
            g.tool,
            g.scope.value,
            g.scope_value,
            g.summary,
            g.created,
            g.key,
            g.pattern,
            g.request_id,
        )
    )


def _grant(row: Row) -> Grant:
    return Grant(
        id=row["id"],
        tool=row["tool"],
        scope=Scope(row["scope"]),
        scope_value=row["scope_value"],
        summary=row["summary"],
        created=row["created"],
        key=row["key"],
        pattern=row["pattern"],
        request_id=row["request_id"],
    )


def _notify(conn: Conn, kind: str, request_id: str) -> None:
    conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload(kind, request_id)))


class PgApprovalStore(PgHandle):
    """Implements :class:`bastion.approval.store.Store` on a shared PostgreSQL database."""

    #: The periodic re-check behind LISTEN/NOTIFY: a lost notification costs at most this.
    poll_interval = 1.0

    def __init__(self, url: str, *, db: PgDatabase | None = None) -> None:
        super().__init__(url, db=db)
        self._watchers = Watchers()
        self.listener = Listener(url, self._watchers)

    # -- requests ------------------------------------------------------------------------
    def watch(self, request_id: str) -> EventWatch:
        """Register before the request is persisted; starts LISTEN on first use."""
        watch = self._watchers.add(request_id)
        self.listener.start()
        return watch

    def observe(self, observer: Observer) -> Any:
        """Every ``(kind, request_id)`` notification from any daemon ('created'/'resolved')."""
        self.listener.start()
        return self.listener.observe(observer)

    def create_request(self, request: ApprovalRequest) -> None:
        values, exact = encode(_CREATION, _creation_values(request))
        with self.db.transaction("creating an approval request") as conn:
            conn.execute(_INSERT_REQUEST, (*values, request.state.value, exact))
            _notify(conn, CREATED, request.id)

    def get_request(self, request_id: str) -> ApprovalRequest | None:
        row = self.db.one("SELECT * FROM approval_requests WHERE id = %s", (request_id,))
        return _request(row) if row else None

    def list_requests(self, states: Iterable[RequestState] | None = None) -> list[ApprovalRequest]:
        if states is None:
            rows = self.db.read("SELECT * FROM approval_requests ORDER BY created DESC")
        else:
            wanted = [s.value for s in states]
            rows = self.db.read(
                "SELECT * FROM approval_requests WHERE state = ANY(%s) ORDER BY created DESC", (wanted,)
            )
        return [_request(r) for r in rows]

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
        new_state = transition(RequestState.PENDING, action)
        condition = _IN_TIME.get(action, _ANSWER_IN_TIME)
        params = {
            "state": new_state.value,
            "at": at,
            "resolver": clean(resolver),
            "feedback": clean(feedback),
            "grant": grant.id if grant else None,
            "id": request_id,
            "approver": clean(approver),
        }
        with self.db.transaction("resolving an approval request") as conn:
            row = conn.execute(
                "UPDATE approval_requests SET state = %(state)s, resolved_at = %(at)s, "
                "resolver = %(resolver)s, feedback = %(feedback)s, grant_id = %(grant)s, "
                "approver = %(approver)s "
                f"WHERE id = %(id)s AND state = 'pending' AND {condition} RETURNING *",
                params,
            ).fetchone()
            if row is None:
                current = conn.execute(
                    "SELECT * FROM approval_requests WHERE id = %s", (request_id,)
                ).fetchone()
                return Resolution(False, _request(current) if current else None)
            if grant is not None:
                conn.execute(_INSERT_GRANT, _grant_values(grant))
            _notify(conn, RESOLVED, request_id)
        self._watchers.notify(request_id)
        return Resolution(True, _request(row))

    def expire_due(self, at: float) -> list[str]:
        rows = self.db.read(
            "SELECT id FROM approval_requests WHERE state = 'pending' AND expires <= %s ORDER BY expires",
            (at,),
        )
        return [
            r["id"]
            for r in rows
            if self.resolve(r["id"], Action.EXPIRE, at=at, resolver="timeout", approver=EXPIRY).won
        ]

    # -- grants --------------------------------------------------------------------------
    def add_grant(self, grant: Grant) -> None:
        with self.db.transaction("storing a grant") as conn:
            conn.execute(_INSERT_GRANT, _grant_values(grant))

    def list_grants(self) -> list[Grant]:
        return [_grant(r) for r in self.db.read("SELECT * FROM grants ORDER BY created, id")]

    def grants_for(self, tool: str) -> list[Grant]:
        rows = self.db.read("SELECT * FROM grants WHERE tool = %s ORDER BY created, id", (tool,))
        return [_grant(r) for r in rows]

    def revoke_grant(self, grant_id: str) -> bool:
        with self.db.transaction("revoking a grant") as conn:
            return conn.execute("DELETE FROM grants WHERE id = %s", (grant_id,)).rowcount == 1

    # -- counters ------------------------------------------------------------------------
    def batch(self) -> AbstractContextManager[object]:
        """Each counter change is its own transaction here: nothing shared (yet)."""
        return contextlib.nullcontext()

    def peek_usage(self, session: str, turn: str | None, at: float) -> Usage:
        return counters.peek_usage(self.db, session, turn, at)

    def admit_call(self, session: str, turn: str | None, at: float) -> Usage:
        return counters.admit_call(self.db, session, turn, at)

    def refuse_call(self, session: str, at: float) -> None:
        counters.refuse_call(self.db, session, at)

    def failure_record(self, session: str, key: str) -> FailureRecord:
        return counters.failure_record(self.db, session, key)

    def note_outcome(self, session: str, key: str, *, failed: bool, hard: bool, at: float) -> None:
        counters.note_outcome(self.db, session, key, failed=failed, hard=hard, at=at)

    def close(self) -> None:
        self.listener.close()
        super().close()
