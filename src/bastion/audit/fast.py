"""Two per-record primitives with their set-up done once: HMAC-SHA256 under one key, and a
JSON encoder's ``encode`` for acyclic values. Each gives exactly the bytes of the standard
call it replaces (tests/audit/test_audit_fast.py checks both against it).

Why: ``hmac.digest`` sets up an OpenSSL MAC (fetch, context, two padded key blocks) for
every message, and ``JSONEncoder.encode`` builds a C encoder and a float closure per call;
the ledger pays both two or three times per record.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

_BLOCK = 64  # SHA-256's block size in bytes


class KeyedSha256:
    """HMAC-SHA256 (RFC 2104) under one key: the two padded key blocks are hashed once, and
    each message copies those states. Holds no key bytes, only the hash states."""

    __slots__ = ("_inner", "_outer")

    def __init__(self, key: bytes) -> None:
        if len(key) > _BLOCK:
            key = hashlib.sha256(key).digest()
        key = key.ljust(_BLOCK, b"\0")
        self._inner = hashlib.sha256(bytes(b ^ 0x36 for b in key))
        self._outer = hashlib.sha256(bytes(b ^ 0x5C for b in key))

    def __repr__(self) -> str:
        return "KeyedSha256(key=***)"

    def digest(self, message: bytes) -> bytes:
        inner = self._inner.copy()
        inner.update(message)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()

    def hexdigest(self, message: bytes) -> str:
        inner = self._inner.copy()
        inner.update(message)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.hexdigest()


def acyclic_encode(encoder: json.JSONEncoder) -> Callable[[object], str]:
    """``encoder.encode`` for values that hold no reference cycle (what the ledger encodes:
    flat records, thawed call arguments), through one C encoder built now. Without the C
    accelerator, or for an encoder with ``indent``, it is ``encoder.encode`` itself."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None or encoder.indent is not None:
        return encoder.encode
    quote = json.encoder.encode_basestring_ascii if encoder.ensure_ascii else json.encoder.encode_basestring
    write = make(
        None,  # no circular-reference markers: the values are acyclic
        encoder.default,
        quote,
        None,
        encoder.key_separator,
        encoder.item_separator,
        encoder.sort_keys,
        encoder.skipkeys,
        encoder.allow_nan,
    )

    def encode(value: object) -> str:
        if isinstance(value, str):
            return quote(value)
        return "".join(write(value, 0))

    return encode
