"""Server-side state of the gateway beside the keys: approvals-page logins and which key
created which request (a request can never be approved by the key that created it).

Both live in ``keys.db``, so several worker processes and restarts see the same state.
A login cookie carries a random token; only its sha256 is stored, never the API key.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from dataclasses import dataclass

from bastion.audit.sqlite_db import Database

SCHEMA = """
CREATE TABLE IF NOT EXISTS web_sessions (
    token_hash TEXT PRIMARY KEY, key_id TEXT NOT NULL, csrf TEXT NOT NULL,
    created REAL NOT NULL, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS request_owners (
    request_id TEXT PRIMARY KEY, key_id TEXT NOT NULL, created REAL NOT NULL)
"""


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class WebSession:
    key_id: str
    csrf: str
    expires: float


class GatewayState:
    def __init__(self, db: Database) -> None:
        self.db = db
        with db.transaction() as conn:
            for statement in filter(None, (s.strip() for s in SCHEMA.split(";"))):
                conn.execute(statement)

    @classmethod
    def beside(cls, keys: object, path: str) -> GatewayState:
        """Share the key store's connection when it has one on ``path``: opening a second
        connection to a file in this process (``open_db``) drops SQLite's POSIX locks."""
        db = getattr(keys, "db", None)
        if isinstance(db, Database) and os.path.abspath(db.path) == os.path.abspath(path):
            return cls(db)
        return cls(Database(path, "SELECT 1"))

    # -- approvals-page logins -----------------------------------------------------------
    def open_session(self, key_id: str, *, now: float, ttl: float) -> tuple[str, WebSession]:
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        with self.db.transaction() as conn:
            conn.execute("DELETE FROM web_sessions WHERE expires <= ?", (now,))
            conn.execute(
                "INSERT INTO web_sessions VALUES (?, ?, ?, ?, ?)",
                (_digest(token), key_id, csrf, now, now + ttl),
            )
        return token, WebSession(key_id, csrf, now + ttl)

    def session(self, token: str, *, now: float) -> WebSession | None:
        rows = self.db.read(
            "SELECT key_id, csrf, expires FROM web_sessions WHERE token_hash = ? AND expires > ?",
            (_digest(token), now),
        )
        return WebSession(rows[0]["key_id"], rows[0]["csrf"], rows[0]["expires"]) if rows else None

    def close_session(self, token: str) -> None:
        with self.db.transaction() as conn:
            conn.execute("DELETE FROM web_sessions WHERE token_hash = ?", (_digest(token),))

    # -- request ownership ---------------------------------------------------------------
    def set_owner(self, request_id: str, key_id: str, *, now: float) -> None:
        with self.db.transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO request_owners VALUES (?, ?, ?)", (request_id, key_id, now))

    def owner(self, request_id: str) -> str | None:
        rows = self.db.read("SELECT key_id FROM request_owners WHERE request_id = ?", (request_id,))
        return str(rows[0]["key_id"]) if rows else None

    def close(self) -> None:
        self.db.close()  # closing twice (shared with the key store) is harmless
