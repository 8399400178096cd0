"""API keys as values: roles, the stored record, and how a presented key is checked.

A key reads ``bst_<id>_<secret>``: the id finds the stored row, and the sha256 of the whole
key is compared with the stored hash in constant time. The secret itself is never stored;
it is shown once, when the key is created.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bastion.approval.model import iso

PREFIX = "bst_"
_SHAPE = re.compile(r"^bst_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$")


class Role(StrEnum):
    """agent: decide and request; approver: answer and read requests; admin: everything."""

    AGENT = "agent"
    APPROVER = "approver"
    ADMIN = "admin"


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A stored key: never the secret, only its hash."""

    id: str
    role: Role
    hash: str
    created: float
    label: str = ""
    revoked_at: float | None = None

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "role": self.role.value,
            "label": self.label,
            "created": iso(self.created),
            "revoked": iso(self.revoked_at),
            "active": self.active,
        }

    def __repr__(self) -> str:  # the hash is not a secret, but it is noise in logs
        return f"ApiKey(id={self.id!r}, role={self.role.value!r}, active={self.active})"


def new_secret() -> tuple[str, str]:
    """A fresh (id, full key): 48 random bits of id, 256 of secret."""
    key_id = secrets.token_hex(6)
    return key_id, f"{PREFIX}{key_id}_{secrets.token_urlsafe(32)}"


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def key_id_of(presented: str) -> str | None:
    """The id part of a well-formed key, or None (a malformed key is simply wrong)."""
    found = _SHAPE.match(presented)
    return found.group(1) if found else None


def matches(record: ApiKey, presented: str) -> bool:
    """Constant-time comparison of the presented key's hash with the stored one."""
    return hmac.compare_digest(record.hash, key_hash(presented))
