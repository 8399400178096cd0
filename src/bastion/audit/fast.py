"""HMAC-SHA256 under one key with its set-up done once: ``hmac.digest`` sets up an OpenSSL
MAC (fetch, context, two padded key blocks) for every message, and the ledger pays it twice
per record (the argument hash and the chain). Here the standard library's ``hmac`` object is
keyed once and copied per message: the same digests (tests/audit/test_audit_fast.py).
"""

from __future__ import annotations

import hashlib
import hmac


class KeyedSha256:
    """HMAC-SHA256 (RFC 2104) under one key, by ``hmac``; its repr never shows the key."""

    __slots__ = ("_keyed",)

    def __init__(self, key: bytes) -> None:
        self._keyed = hmac.new(key, digestmod=hashlib.sha256)

    def __repr__(self) -> str:
        return "KeyedSha256(key=***)"

    def digest(self, message: bytes) -> bytes:
        mac = self._keyed.copy()
        mac.update(message)
        return mac.digest()

    def hexdigest(self, message: bytes) -> str:
        mac = self._keyed.copy()
        mac.update(message)
        return mac.hexdigest()
