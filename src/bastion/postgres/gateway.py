"""The gateway's approvals-page logins and request owners on PostgreSQL.

:class:`PgGatewayState` has the methods of ``bastion.state.web_sessions.GatewayState``,
so "a request can never be approved by the key that created it" holds across daemons: the
owner is recorded where every daemon reads it, and a page login works on any daemon.
"""

from __future__ import annotations

import hashlib
import secrets

from bastion.postgres.connection import PgHandle
from bastion.state.web_sessions import WebSession


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class PgGatewayState(PgHandle):
    """Approvals-page logins and request owners, shared by every daemon."""

    def open_session(self, key_id: str, *, now: float, ttl: float) -> tuple[str, WebSession]:
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        with self.db.transaction("opening a page login") as conn:
            conn.execute("DELETE FROM web_sessions WHERE expires <= %s", (now,))
            conn.execute(
                "INSERT INTO web_sessions (token_hash, key_id, csrf, created, expires) "
                "VALUES (%s, %s, %s, %s, %s)",
                (_digest(token), key_id, csrf, now, now + ttl),
            )
        return token, WebSession(key_id, csrf, now + ttl)

    def session(self, token: str, *, now: float) -> WebSession | None:
        row = self.db.one(
            "SELECT key_id, csrf, expires FROM web_sessions WHERE token_hash = %s AND expires > %s",
            (_digest(token), now),
        )
        return WebSession(row["key_id"], row["csrf"], row["expires"]) if row else None

    def close_session(self, token: str) -> None:
        with self.db.transaction("closing a page login") as conn:
            conn.execute("DELETE FROM web_sessions WHERE token_hash = %s", (_digest(token),))

    def set_owner(self, request_id: str, key_id: str, *, now: float) -> None:
        with self.db.transaction("recording a request owner") as conn:
            conn.execute(
                "INSERT INTO request_owners (request_id, key_id, created) VALUES (%s, %s, %s) "
                "ON CONFLICT (request_id) DO NOTHING",
                (request_id, key_id, now),
            )

    def owner(self, request_id: str) -> str | None:
        row = self.db.one("SELECT key_id FROM request_owners WHERE request_id = %s", (request_id,))
        return str(row["key_id"]) if row else None
