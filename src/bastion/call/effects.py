"""What a call does: the shared vocabulary of the classifier, the engine and the stores.

It lives with the call, below both ``shell`` (which finds a command's effects) and
``policy`` (which decides on them), so neither imports the other for it.
"""

from __future__ import annotations

from enum import StrEnum


class Effect(StrEnum):
    """What a call does. The last five are hardline classes: never a standing grant."""

    READ = "read"
    WRITE = "write"
    DELETE = "delete"
    NETWORK = "network"
    INSTALL = "install"
    CODE = "code"
    PRIVILEGE = "privilege"
    DB_READ = "db-read"
    DB_WRITE = "db-write"
    DB_DELETE = "db-delete"
    MCP = "mcp"
    UNKNOWN = "unknown"
    DESTRUCTIVE = "destructive"
    SYSTEM = "system"
    INFRASTRUCTURE = "infrastructure"
    CREDENTIALS = "credentials"
    SELF = "self"


HARDLINE_EFFECTS: frozenset[Effect] = frozenset(
    {Effect.DESTRUCTIVE, Effect.SYSTEM, Effect.INFRASTRUCTURE, Effect.CREDENTIALS, Effect.SELF}
)
