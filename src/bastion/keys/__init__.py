"""API keys for the HTTP gateway: roles, hashed storage, constant-time verification.

The names load on first use: this package's modules import each other, and an
``__init__`` importing them all would sit in an import cycle with every one of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bastion.keys.model import ApiKey, Role, key_hash
    from bastion.keys.sqlite import KEYS_FILE, SqliteKeyStore
    from bastion.keys.store import KeyStore, MemoryKeyStore, has_active, verify

_WHERE = {
    "KEYS_FILE": "bastion.keys.sqlite",
    "ApiKey": "bastion.keys.model",
    "KeyStore": "bastion.keys.store",
    "MemoryKeyStore": "bastion.keys.store",
    "Role": "bastion.keys.model",
    "SqliteKeyStore": "bastion.keys.sqlite",
    "has_active": "bastion.keys.store",
    "key_hash": "bastion.keys.model",
    "verify": "bastion.keys.store",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'bastion.keys' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


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
