"""Counters shared by every daemon: per-session limits, the repeat guard, global rate limits.

* Per-session counters (``admit_call``) take a transaction-level advisory lock on the
  session first, so two daemons admitting calls of one session at once count one after the
  other: a limit of N is never overshot by a race.
* :class:`PgRateLimiter` is the gateway's per-key budget across daemons: one row per
  (key, minute window), bumped by ``INSERT … ON CONFLICT DO UPDATE … RETURNING`` (one
  atomic statement, no lock held across round trips). A fixed window: at most N requests
  per key in each calendar minute, whichever daemon they reach.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from bastion.approval.model import FailureRecord, Usage
from bastion.approval.store import MINUTE
from bastion.postgres.connection import Conn, PgDatabase

#: Namespace (first key) of the per-session advisory locks.
SESSION_LOCK_SPACE = 0x42A5


def _counts(conn: Conn, session: str, turn: str | None, at: float) -> tuple[int, float | None, int, int]:
    rows = conn.execute(
        "SELECT refused, count(*) AS n FROM session_calls WHERE session = %s AND at > %s GROUP BY refused",
        (session, at - MINUTE),
    ).fetchall()
    counted = {bool(r["refused"]): int(r["n"]) for r in rows}
    minute, refused = counted.get(False, 0), counted.get(True, 0)
    if turn is None:
        return 0, None, minute, refused
    found = conn.execute(
        "SELECT started, calls FROM session_turns WHERE session = %s AND turn = %s", (session, turn)
    ).fetchone()
    if found is None:
        return 0, None, minute, refused
    return int(found["calls"]), float(found["started"]), minute, refused


def peek_usage(db: PgDatabase, session: str, turn: str | None, at: float) -> Usage:
    with db.connection() as conn:
        calls, started, minute, refused = _counts(conn, session, turn, at)
    return Usage(
        turn_calls=calls + 1 if turn else 0,
        turn_started=(started if started is not None else at) if turn else None,
        minute_calls=minute + 1,
        minute_refused=refused,
    )


def admit_call(db: PgDatabase, session: str, turn: str | None, at: float) -> Usage:
    with db.transaction("counting a call") as conn, conn.pipeline():  # one round trip for the writes
        conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (SESSION_LOCK_SPACE, session))
        conn.execute("DELETE FROM session_calls WHERE session = %s AND at <= %s", (session, at - MINUTE))
        conn.execute("INSERT INTO session_calls (session, at) VALUES (%s, %s)", (session, at))
        if turn is not None:
            conn.execute(
                "INSERT INTO session_turns (session, turn, started, calls) VALUES (%s, %s, %s, 1) "
                "ON CONFLICT (session, turn) DO UPDATE SET calls = session_turns.calls + 1",
                (session, turn, at),
            )
        calls, started, minute, refused = _counts(conn, session, turn, at)
    return Usage(turn_calls=calls, turn_started=started, minute_calls=minute, minute_refused=refused)


def refuse_call(db: PgDatabase, session: str, at: float) -> None:
    with db.transaction("counting a refused call") as conn:
        conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (SESSION_LOCK_SPACE, session))
        conn.execute(
            "UPDATE session_calls SET refused = true WHERE ctid = (SELECT ctid FROM "
            "session_calls WHERE session = %s AND at = %s AND NOT refused LIMIT 1)",
            (session, at),
        )


def failure_record(db: PgDatabase, session: str, key: str) -> FailureRecord:
    row = db.one(
        "SELECT failures, hard, updated FROM call_failures WHERE session = %s AND key = %s", (session, key)
    )
    if row is None:
        return FailureRecord()
    return FailureRecord(int(row["failures"]), int(row["hard"]), float(row["updated"]))


def note_outcome(db: PgDatabase, session: str, key: str, *, failed: bool, hard: bool, at: float) -> None:
    with db.transaction("recording an outcome") as conn:
        if not failed:
            conn.execute("DELETE FROM call_failures WHERE session = %s AND key = %s", (session, key))
            return
        conn.execute(
            "INSERT INTO call_failures (session, key, failures, hard, updated) VALUES (%s, %s, 1, %s, %s)"
            " ON CONFLICT (session, key) DO UPDATE SET failures = call_failures.failures + 1,"
            " hard = call_failures.hard + excluded.hard, updated = excluded.updated",
            (session, key, int(hard), at),
        )


class PgRateLimiter:
    """``check(key)`` like :class:`~bastion.state.ratelimit.RateLimiter`, but one
    budget for every daemon on the database: 0 when allowed, else seconds to wait.
    A database failure raises StoreError (the caller refuses the request)."""

    def __init__(
        self,
        db: PgDatabase,
        per_minute: int,
        *,
        scope: str = "gateway",
        clock: Callable[[], float] = time.time,
    ) -> None:
        if per_minute <= 0:
            raise ValueError("a rate limit must be positive")
        self.db = db.acquire()
        self.per_minute = per_minute
        self.scope = scope
        self.clock = clock

    def hit(self, key: str) -> tuple[int, int]:
        """Count one request now: (count in this minute including it, seconds left in it)."""
        now = self.clock()
        window = int(now // MINUTE)
        name = f"{self.scope}:{key}"
        with self.db.transaction("counting a request") as conn:
            row = conn.execute(
                "INSERT INTO rate_counters (key, window_start, count) VALUES (%s, %s, 1) "
                "ON CONFLICT (key, window_start) DO UPDATE SET count = rate_counters.count + 1 "
                "RETURNING count",
                (name, window),
            ).fetchone()
            count = int(row["count"]) if row else 1
            if count == 1 and random.random() < 0.1:  # first in a window: sometimes tidy up
                conn.execute("DELETE FROM rate_counters WHERE window_start < %s", (window - 1,))
        left = max(1, math.ceil((window + 1) * MINUTE - now))
        return count, left

    def check(self, key: str) -> int:
        count, left = self.hit(key)
        return 0 if count <= self.per_minute else left

    def close(self) -> None:
        self.db.release()
