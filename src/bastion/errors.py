"""Bastion's one exception hierarchy; foreign errors are mapped at the boundary."""

from __future__ import annotations


class BastionError(Exception):
    """Base of every error Bastion raises on purpose."""

    #: Text for a person on how to fix it (shown by the CLI).
    hint: str = ""


class PolicyError(BastionError):
    """A policy file could not be loaded: says file, line and key."""

    def __init__(self, message: str, *, file: str = "", line: int | None = None, key: str = "") -> None:
        self.file = file
        self.line = line
        self.key = key
        self.detail = message
        where = file or "<policy>"
        if line is not None:
            where += f":{line}"
        if key:
            where += f": {key}"
        super().__init__(f"{where}: {message}")


class CallError(BastionError):
    """A tool call is malformed (missing arguments, wrong types, unknown family)."""


class StoreError(BastionError):
    """A state store failed; callers must treat this as a denial."""
