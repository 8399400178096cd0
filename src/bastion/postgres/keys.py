"""API keys on PostgreSQL: :class:`PgKeyStore` implements :class:`bastion.keys.store.KeyStore`;
a key created or revoked through any daemon (or ``bastion keys``) is seen by every daemon at once.
"""

from __future__ import annotations

from bastion.keys.model import ApiKey, Role, key_hash, new_secret
from bastion.postgres.connection import PgHandle, Row


def _key(row: Row) -> ApiKey:
    return ApiKey(
        id=row["id"],
        role=Role(row["role"]),
        hash=row["hash"],
        created=row["created"],
        label=row["label"],
        revoked_at=row["revoked_at"],
    )


class PgKeyStore(PgHandle):
    def create(self, role: Role, *, now: float, label: str = "") -> tuple[ApiKey, str]:
        key_id, key = new_secret()
        record = ApiKey(
            id=key_id, role=role, hash=key_hash(key), created=now, label=label.replace("\x00", "")
        )
        with self.db.transaction("creating an API key") as conn:
            conn.execute(
                "INSERT INTO api_keys (id, role, hash, created, label) VALUES (%s, %s, %s, %s, %s)",
                (record.id, record.role.value, record.hash, record.created, record.label),
            )
        return record, key

    def get(self, key_id: str) -> ApiKey | None:
        if "\x00" in key_id:
            return None
        row = self.db.one("SELECT * FROM api_keys WHERE id = %s", (key_id,))
        return _key(row) if row else None

    def list(self, *, include_revoked: bool = False) -> list[ApiKey]:
        where = "" if include_revoked else " WHERE revoked_at IS NULL"
        return [_key(r) for r in self.db.read(f"SELECT * FROM api_keys{where} ORDER BY created, id")]

    def revoke(self, key_id: str, *, now: float) -> bool:
        with self.db.transaction("revoking an API key") as conn:
            cursor = conn.execute(
                "UPDATE api_keys SET revoked_at = %s WHERE id = %s AND revoked_at IS NULL", (now, key_id)
            )
            return cursor.rowcount == 1
