"""The key-store boundary, and an in-memory twin for tests.

The embedded default is :class:`~bastion.keys.sqlite.SqliteKeyStore` (``<state_dir>/keys.db``);
a PostgreSQL store plugs in by implementing :class:`KeyStore`.
"""

from __future__ import annotations

import threading
from typing import Protocol

from bastion.keys.model import ApiKey, Role, key_hash, key_id_of, matches, new_secret


class KeyStore(Protocol):
    def create(self, role: Role, *, now: float, label: str = "") -> tuple[ApiKey, str]:
        """Store a new key; returns the record and the key itself (shown once, never stored)."""
        ...

    def get(self, key_id: str) -> ApiKey | None: ...

    def list(self, *, include_revoked: bool = False) -> list[ApiKey]:
        """Oldest first."""
        ...

    def revoke(self, key_id: str, *, now: float) -> bool:
        """True when an active key was revoked."""
        ...

    def close(self) -> None: ...


def verify(store: KeyStore, presented: str) -> ApiKey | None:
    """The active key ``presented`` is, or None; the hash comparison is constant-time."""
    key_id = key_id_of(presented.strip())
    if key_id is None:
        return None
    record = store.get(key_id)
    if record is None or not record.active or not matches(record, presented.strip()):
        return None
    return record


def has_active(store: KeyStore, role: Role | None = None) -> bool:
    return any(k.role is role or role is None for k in store.list())


class MemoryKeyStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._keys: dict[str, ApiKey] = {}

    def create(self, role: Role, *, now: float, label: str = "") -> tuple[ApiKey, str]:
        key_id, key = new_secret()
        record = ApiKey(id=key_id, role=role, hash=key_hash(key), created=now, label=label)
        with self._lock:
            self._keys[key_id] = record
        return record, key

    def get(self, key_id: str) -> ApiKey | None:
        with self._lock:
            return self._keys.get(key_id)

    def list(self, *, include_revoked: bool = False) -> list[ApiKey]:
        with self._lock:
            items = sorted(self._keys.values(), key=lambda k: k.created)
        return [k for k in items if include_revoked or k.active]

    def revoke(self, key_id: str, *, now: float) -> bool:
        with self._lock:
            record = self._keys.get(key_id)
            if record is None or not record.active:
                return False
            self._keys[key_id] = ApiKey(
                record.id, record.role, record.hash, record.created, record.label, revoked_at=now
            )
        return True

    def close(self) -> None:
        return None
