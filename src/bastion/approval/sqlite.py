"""The embedded default Store: one SQLite file under the state dir, safe with many processes.

Waiting across processes is woken by a datagram from the answering process (``wake``) and
falls back to polling the request row every ``poll_interval`` (50 ms); answers given in this
process wake the waiter directly. Every state change runs in a
``BEGIN IMMEDIATE`` transaction with a ``WHERE state = 'pending'`` guard.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterable
from contextlib import AbstractContextManager

from bastion.approval.model import EXPIRY, ApprovalRequest, Deadline, FailureRecord, Grant, Scope, Usage
from bastion.approval.state import Action, RequestState, transition
from bastion.approval.store import MINUTE, Resolution, in_time
from bastion.approval.wake import WakeBus
from bastion.approval.watch import EventWatch, Watchers
from bastion.audit.sqlite_db import Database
from bastion.policy.decision import Evaluation

SCHEMA = """
CREATE TABLE IF NOT EXISTS approval_requests (
    id TEXT PRIMARY KEY, state TEXT NOT NULL, created REAL NOT NULL, expires REAL NOT NULL,
    tool TEXT NOT NULL, summary TEXT NOT NULL, reason TEXT NOT NULL, evaluation TEXT NOT NULL,
    call_key TEXT NOT NULL, project TEXT NOT NULL, session TEXT, agent TEXT, turn TEXT,
    argv TEXT, grantable INTEGER NOT NULL, suggested_pattern TEXT,
    resolved_at REAL, resolver TEXT, feedback TEXT, grant_id TEXT, approver TEXT, folder TEXT,
    deadline TEXT);
CREATE INDEX IF NOT EXISTS approval_requests_pending ON approval_requests(state, expires);
CREATE TABLE IF NOT EXISTS grants (
    id TEXT PRIMARY KEY, tool TEXT NOT NULL, scope TEXT NOT NULL, scope_value TEXT NOT NULL,
    summary TEXT NOT NULL, created REAL NOT NULL, key TEXT, pattern TEXT, request_id TEXT);
CREATE INDEX IF NOT EXISTS grants_tool ON grants(tool)
"""

#: The counters (calls per turn and per minute, the repeat guard) live in a file of their own
#: (``<name>-counters.db`` beside the store's file), every commit without a WAL sync: on the
#: store's file a counter update had to wait for the ledger's fsync (one SQLite write lock
#: per file), and so every call waited for every other call's record. They are bookkeeping:
#: a power cut may lose what changed since the file's last checkpoint (never a request, a
#: grant or a ledger record: those stay on the store's file, every commit synced).
#: ``session_minute`` holds each session's count of ``session_calls`` rows (let through and
#: refused), changed in the same transactions as the rows: admitting a call reads it instead
#: of counting the last minute's rows, which grew with every call a busy session made.
COUNTER_SCHEMA = """
CREATE TABLE IF NOT EXISTS session_turns (
    session TEXT NOT NULL, turn TEXT NOT NULL, started REAL NOT NULL, calls INTEGER NOT NULL,
    PRIMARY KEY (session, turn));
CREATE TABLE IF NOT EXISTS session_calls (session TEXT NOT NULL, at REAL NOT NULL,
    refused INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS session_calls_at ON session_calls(session, at, refused);
CREATE TABLE IF NOT EXISTS session_minute (session TEXT PRIMARY KEY, calls INTEGER NOT NULL,
    refused INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS call_failures (
    session TEXT NOT NULL, key TEXT NOT NULL, failures INTEGER NOT NULL, hard INTEGER NOT NULL,
    updated REAL NOT NULL, PRIMARY KEY (session, key))
"""

_REQUEST_COLUMNS = (
    "id",
    "state",
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
    "resolved_at",
    "resolver",
    "feedback",
    "grant_id",
    "approver",
    "folder",
    "deadline",
)
_GRANT_COLUMNS = ("id", "tool", "scope", "scope_value", "summary", "created", "key", "pattern", "request_id")


def _request_row(r: ApprovalRequest) -> tuple[object, ...]:
    return (
        r.id,
        r.state.value,
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
        int(r.grantable),
        r.suggested_pattern,
        r.resolved_at,
        r.resolver,
        r.feedback,
        r.grant_id,
        r.approver,
        r.folder,
        r.deadline.value,
    )


def _request(row: sqlite3.Row) -> ApprovalRequest:
    return ApprovalRequest(
        id=row["id"],
        state=RequestState(row["state"]),
        created=row["created"],
        expires=row["expires"],
        tool=row["tool"],
        summary=row["summary"],
        reason=row["reason"],
        evaluation=Evaluation.from_json(json.loads(row["evaluation"])),
        call_key=row["call_key"],
        project=row["project"],
        session=row["session"],
        agent=row["agent"],
        turn=row["turn"],
        argv=None if row["argv"] is None else tuple(json.loads(row["argv"])),
        grantable=bool(row["grantable"]),
        suggested_pattern=row["suggested_pattern"],
        resolved_at=row["resolved_at"],
        resolver=row["resolver"],
        feedback=row["feedback"],
        grant_id=row["grant_id"],
        approver=row["approver"],
        folder=row["folder"],
        deadline=Deadline(row["deadline"] or Deadline.POLICY),
    )


def _grant_row(g: Grant) -> tuple[object, ...]:
    return (g.id, g.tool, g.scope.value, g.scope_value, g.summary, g.created, g.key, g.pattern, g.request_id)


def _grant(row: sqlite3.Row) -> Grant:
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


def _insert(table: str, columns: tuple[str, ...]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


_INSERT_REQUEST = _insert("approval_requests", _REQUEST_COLUMNS)
_INSERT_GRANT = _insert("grants", _GRANT_COLUMNS)


def counters_path(path: str) -> str:
    """``…/bastion.db`` -> ``…/bastion-counters.db`` (``:memory:`` stays in memory)."""
    if path == ":memory:":
        return path
    root, ext = os.path.splitext(path)
    return f"{root}-counters{ext or '.db'}"


class SqliteStore:
    poll_interval = 0.05

    def __init__(self, path: str, *, write_lock: threading.RLock | None = None) -> None:
        self.path = path
        self.db = Database(path, SCHEMA, write_lock=write_lock)
        # Files written by an older Bastion (cf. PostgreSQL migration 0002). Their counter
        # tables stay behind unused: counts restart once, at the upgrade.
        self.db.add_columns("approval_requests", {"approver": "TEXT", "folder": "TEXT", "deadline": "TEXT"})
        self.counters = Database(counters_path(path), COUNTER_SCHEMA, bookkeeping=True)
        self._watchers = Watchers()
        folder = os.path.join(os.path.dirname(os.path.abspath(path)), "wake")
        self._wake = WakeBus(folder, self._watchers.notify) if path != ":memory:" else None

    # -- requests ------------------------------------------------------------------------
    def watch(self, request_id: str) -> EventWatch:
        if self._wake is not None:
            self._wake.listen()  # answers from other processes wake this one at once
        return self._watchers.add(request_id)

    def create_request(self, request: ApprovalRequest) -> None:
        with self.db.transaction() as conn:
            conn.execute(_INSERT_REQUEST, _request_row(request))

    def get_request(self, request_id: str) -> ApprovalRequest | None:
        rows = self.db.read("SELECT * FROM approval_requests WHERE id = ?", (request_id,))
        return _request(rows[0]) if rows else None

    def list_requests(self, states: Iterable[RequestState] | None = None) -> list[ApprovalRequest]:
        if states is None:
            rows = self.db.read("SELECT * FROM approval_requests ORDER BY created DESC")
        else:
            wanted = tuple(s.value for s in states)
            marks = ", ".join("?" * len(wanted)) or "NULL"
            rows = self.db.read(
                f"SELECT * FROM approval_requests WHERE state IN ({marks}) ORDER BY created DESC", wanted
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
        with self.db.transaction() as conn:
            rows = conn.execute("SELECT * FROM approval_requests WHERE id = ?", (request_id,)).fetchall()
            if not rows:
                return Resolution(False, None)
            current = _request(rows[0])
            if current.state is not RequestState.PENDING or not in_time(action, current.expires, at):
                return Resolution(False, current)
            new_state = transition(current.state, action)
            cursor = conn.execute(
                "UPDATE approval_requests SET state = ?, resolved_at = ?, resolver = ?, feedback = ?,"
                " grant_id = ?, approver = ? WHERE id = ? AND state = 'pending'",
                (new_state.value, at, resolver, feedback, grant.id if grant else None, approver, request_id),
            )
            won = cursor.rowcount == 1
            if won and grant is not None:
                conn.execute(_INSERT_GRANT, _grant_row(grant))
        self._watchers.notify(request_id)
        if won and self._wake is not None:
            self._wake.send(request_id)
        return Resolution(won, self.get_request(request_id))

    def expire_due(self, at: float) -> list[str]:
        rows = self.db.read(
            "SELECT id FROM approval_requests WHERE state = 'pending' AND expires <= ?", (at,)
        )
        return [
            r["id"]
            for r in rows
            if self.resolve(r["id"], Action.EXPIRE, at=at, resolver="timeout", approver=EXPIRY).won
        ]

    # -- grants --------------------------------------------------------------------------
    def add_grant(self, grant: Grant) -> None:
        with self.db.transaction() as conn:
            conn.execute(_INSERT_GRANT, _grant_row(grant))

    def list_grants(self) -> list[Grant]:
        return [_grant(r) for r in self.db.read("SELECT * FROM grants ORDER BY created")]

    def grants_for(self, tool: str) -> list[Grant]:
        rows = self.db.read("SELECT * FROM grants WHERE tool = ? ORDER BY created", (tool,))
        return [_grant(r) for r in rows]

    def revoke_grant(self, grant_id: str) -> bool:
        with self.db.transaction() as conn:
            return conn.execute("DELETE FROM grants WHERE id = ?", (grant_id,)).rowcount == 1

    # -- counters ------------------------------------------------------------------------
    def batch(self) -> AbstractContextManager[object]:
        """One counters transaction for the calls a batch admits (the Gatekeeper's
        ``request_sync`` leader): one commit instead of one per call."""
        return self.counters.batch()

    def _counts(
        self, conn: sqlite3.Connection, session: str, turn: str | None, at: float
    ) -> tuple[int, float | None, int, int]:
        rows = conn.execute(
            "SELECT refused, count(*) AS n FROM session_calls WHERE session = ? AND at > ? GROUP BY refused",
            (session, at - MINUTE),
        ).fetchall()
        counted = {int(r["refused"]): int(r["n"]) for r in rows}
        minute, refused = counted.get(0, 0), counted.get(1, 0)
        if turn is None:
            return 0, None, minute, refused
        row = conn.execute(
            "SELECT started, calls FROM session_turns WHERE session = ? AND turn = ?", (session, turn)
        ).fetchone()
        if row is None:
            return 0, None, minute, refused
        return int(row["calls"]), float(row["started"]), minute, refused

    def peek_usage(self, session: str, turn: str | None, at: float) -> Usage:
        with self.counters.lock:
            calls, started, minute, refused = self._counts(self.counters.conn, session, turn, at)
        return Usage(
            turn_calls=calls + 1 if turn else 0,
            turn_started=(started if started is not None else at) if turn else None,
            minute_calls=minute + 1,
            minute_refused=refused,
        )

    def admit_call(self, session: str, turn: str | None, at: float) -> Usage:
        with self.counters.transaction() as conn:
            # Rows older than the minute leave (with their share of the session's count);
            # what remains is exactly the minute's calls, as _counts would find them.
            gone = {
                int(r["refused"]): int(r["n"])
                for r in conn.execute(
                    "SELECT refused, count(*) AS n FROM session_calls WHERE session = ? AND at <= ?"
                    " GROUP BY refused",
                    (session, at - MINUTE),
                )
            }
            if gone:
                conn.execute(
                    "DELETE FROM session_calls WHERE session = ? AND at <= ?", (session, at - MINUTE)
                )
            conn.execute("INSERT INTO session_calls (session, at) VALUES (?, ?)", (session, at))
            conn.execute(
                "INSERT INTO session_minute (session, calls, refused) VALUES (?, 1, 0) "
                "ON CONFLICT (session) DO UPDATE SET calls = calls + 1 - ?, refused = refused - ?",
                (session, gone.get(0, 0), gone.get(1, 0)),
            )
            row = conn.execute(
                "SELECT calls, refused FROM session_minute WHERE session = ?", (session,)
            ).fetchone()
            minute, refused = int(row["calls"]), int(row["refused"])
            calls, started = 0, None
            if turn is not None:
                conn.execute(
                    "INSERT INTO session_turns (session, turn, started, calls) VALUES (?, ?, ?, 1) "
                    "ON CONFLICT (session, turn) DO UPDATE SET calls = calls + 1",
                    (session, turn, at),
                )
                found = conn.execute(
                    "SELECT started, calls FROM session_turns WHERE session = ? AND turn = ?", (session, turn)
                ).fetchone()
                calls, started = int(found["calls"]), float(found["started"])
        return Usage(turn_calls=calls, turn_started=started, minute_calls=minute, minute_refused=refused)

    def refuse_call(self, session: str, at: float) -> None:
        with self.counters.transaction() as conn:
            marked = conn.execute(
                "UPDATE session_calls SET refused = 1 WHERE rowid = (SELECT rowid FROM "
                "session_calls WHERE session = ? AND at = ? AND refused = 0 LIMIT 1)",
                (session, at),
            )
            if marked.rowcount == 1:
                conn.execute(
                    "UPDATE session_minute SET calls = calls - 1, refused = refused + 1 WHERE session = ?",
                    (session,),
                )

    def failure_record(self, session: str, key: str) -> FailureRecord:
        rows = self.counters.read(
            "SELECT failures, hard, updated FROM call_failures WHERE session = ? AND key = ?", (session, key)
        )
        if not rows:
            return FailureRecord()
        return FailureRecord(int(rows[0]["failures"]), int(rows[0]["hard"]), float(rows[0]["updated"]))

    def note_outcome(self, session: str, key: str, *, failed: bool, hard: bool, at: float) -> None:
        if not failed and not self.counters.read(
            "SELECT 1 FROM call_failures WHERE session = ? AND key = ?", (session, key)
        ):
            # Nothing to clear (nearly every success): no write transaction. A failure another
            # process notes meanwhile stays, which only keeps the guard stricter.
            return
        with self.counters.transaction() as conn:
            if not failed:
                conn.execute("DELETE FROM call_failures WHERE session = ? AND key = ?", (session, key))
                return
            conn.execute(
                "INSERT INTO call_failures (session, key, failures, hard, updated) VALUES (?, ?, 1, ?, ?)"
                " ON CONFLICT (session, key) DO UPDATE SET failures = failures + 1,"
                " hard = hard + excluded.hard, updated = excluded.updated",
                (session, key, int(hard), at),
            )

    def close(self) -> None:
        if self._wake is not None:
            self._wake.close()
        self.counters.close()
        self.db.close()
