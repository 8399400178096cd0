"""API keys for the HTTP gateway: roles, hashed storage, constant-time verification."""

from bastion.keys.model import ApiKey, Role, key_hash
from bastion.keys.sqlite import KEYS_FILE, SqliteKeyStore
from bastion.keys.store import KeyStore, MemoryKeyStore, has_active, verify

__all__ = [
    "KEYS_FILE",
    "ApiKey",
    "KeyStore",
    "MemoryKeyStore",
    "Role",
    "SqliteKeyStore",
    "has_active",
    "key_hash",
    "verify",
]
