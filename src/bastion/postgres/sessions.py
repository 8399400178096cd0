"""Launch sessions on PostgreSQL (implements ``bastion.launch.sessions.SessionStore``).

A session is stored as the same JSON document the file store writes, one row per session;
``save`` replaces it whole (the launcher loads, changes and saves a session).
"""

from __future__ import annotations

import json

from bastion.errors import StoreError
from bastion.launch.sessions import Session, SessionNotFound, session_from_dict, session_to_dict
from bastion.postgres.connection import PgHandle


class PgSessionStore(PgHandle):
    def save(self, session: Session) -> None:
        data = json.dumps(session_to_dict(session))  # ensure_ascii: NUL-safe
        with self.db.transaction(f"saving session {session.id}") as conn:
            conn.execute(
                "INSERT INTO launch_sessions (id, created, data) VALUES (%s, %s, %s) "
                "ON CONFLICT (id) DO UPDATE SET data = excluded.data",
                (session.id, session.created_at, data),
            )

    def load(self, session_id: str) -> Session:
        row = (
            None
            if "\x00" in session_id
            else self.db.one("SELECT data FROM launch_sessions WHERE id = %s", (session_id,))
        )
        if row is None:
            raise SessionNotFound(f"no session {session_id!r}")
        try:
            return session_from_dict(json.loads(row["data"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise StoreError(f"session {session_id} is damaged: {exc}") from exc

    def list_ids(self) -> list[str]:
        return [r["id"] for r in self.db.read("SELECT id FROM launch_sessions ORDER BY id")]
