"""API keys in ``<state_dir>/keys.db``: a running daemon sees keys another process creates.

Every gateway request looks its key up. ``get`` answers from a small cache that holds only
while SQLite's ``data_version`` is unchanged (it changes when any other connection, in this
process or another, commits to the file) and this store wrote nothing: a key revoked
anywhere is refused from the very next request, as without the cache.
"""

from __future__ import annotations

import os
import sqlite3
import threading

from bastion.audit.sqlite_db import Database
from bastion.keys.model import ApiKey, Role, key_hash, new_secret

KEYS_FILE = "keys.db"

SCHEMA = """
CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY, role TEXT NOT NULL, hash TEXT NOT NULL, created REAL NOT NULL,
    label TEXT NOT NULL DEFAULT '', revoked_at REAL)
"""


def _key(row: sqlite3.Row) -> ApiKey:
    return ApiKey(
        id=row["id"],
        role=Role(row["role"]),
        hash=row["hash"],
        created=row["created"],
        label=row["label"],
        revoked_at=row["revoked_at"],
    )


#: Key ids ``get`` keeps answers for (unknown ids too); the cache is emptied when full.
MAX_CACHED = 1024


class SqliteKeyStore:
    def __init__(self, path: str) -> None:
        self.path = path
        self.db = Database(path, SCHEMA)
        self._lock = threading.Lock()
        self._cached: dict[str, ApiKey | None] = {}
        self._version: object = None  # the data_version the cached answers were read at

    @classmethod
    def in_state_dir(cls, state_dir: str) -> SqliteKeyStore:
        return cls(os.path.join(state_dir, KEYS_FILE))

    def create(self, role: Role, *, now: float, label: str = "") -> tuple[ApiKey, str]:
        key_id, key = new_secret()
        record = ApiKey(id=key_id, role=role, hash=key_hash(key), created=now, label=label)
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO api_keys (id, role, hash, created, label) VALUES (?, ?, ?, ?, ?)",
                (record.id, record.role.value, record.hash, record.created, record.label),
            )
        self._forget()
        return record, key

    def get(self, key_id: str) -> ApiKey | None:
        # The version is read before the row: a commit between the two changes it, so an
        # answer read then is dropped at the next lookup rather than kept.
        version = self.db.read("PRAGMA data_version")[0][0]
        with self._lock:
            if version != self._version:
                self._cached.clear()
                self._version = version
            elif key_id in self._cached:
                return self._cached[key_id]
        rows = self.db.read("SELECT * FROM api_keys WHERE id = ?", (key_id,))
        found = _key(rows[0]) if rows else None
        with self._lock:
            if self._version == version:
                if len(self._cached) >= MAX_CACHED:
                    self._cached.clear()
                self._cached[key_id] = found
        return found

    def _forget(self) -> None:
        """This connection's own commits do not change its data_version: drop the cache."""
        with self._lock:
            self._cached.clear()
            self._version = None

    def list(self, *, include_revoked: bool = False) -> list[ApiKey]:
        where = "" if include_revoked else " WHERE revoked_at IS NULL"
        return [_key(r) for r in self.db.read(f"SELECT * FROM api_keys{where} ORDER BY created, id")]

    def revoke(self, key_id: str, *, now: float) -> bool:
        with self.db.transaction() as conn:
            cursor = conn.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", (now, key_id)
            )
        self._forget()
        return cursor.rowcount == 1

    def close(self) -> None:
        self.db.close()
