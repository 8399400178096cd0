"""API keys in ``<state_dir>/keys.db``: a running daemon sees keys another process creates."""

from __future__ import annotations

import os
import sqlite3

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


class SqliteKeyStore:
    def __init__(self, path: str) -> None:
        self.path = path
        self.db = Database(path, SCHEMA)

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
        return record, key

    def get(self, key_id: str) -> ApiKey | None:
        rows = self.db.read("SELECT * FROM api_keys WHERE id = ?", (key_id,))
        return _key(rows[0]) if rows else None

    def list(self, *, include_revoked: bool = False) -> list[ApiKey]:
        where = "" if include_revoked else " WHERE revoked_at IS NULL"
        return [_key(r) for r in self.db.read(f"SELECT * FROM api_keys{where} ORDER BY created, id")]

    def revoke(self, key_id: str, *, now: float) -> bool:
        with self.db.transaction() as conn:
            cursor = conn.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", (now, key_id)
            )
            return cursor.rowcount == 1

    def close(self) -> None:
        self.db.close()
