"""NUL-safe text: PostgreSQL ``text`` cannot hold U+0000, SQLite can, and a tool call may.

A row whose fields hold a NUL is stored with each NUL replaced by U+FFFD (so queries and
people still see something sensible) *and* with the exact fields as JSON (whose ``\\u0000``
escape is plain ASCII) in a ``nul_fields`` column; reading prefers the JSON. Rows without
a NUL (all but pathological ones) store ``nul_fields`` NULL and cost nothing extra.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

NUL = "\x00"
REPLACEMENT = "\ufffd"


def has_nul(values: Sequence[object]) -> bool:
    return any(isinstance(v, str) and NUL in v for v in values)


def clean(value: object) -> object:
    return value.replace(NUL, REPLACEMENT) if isinstance(value, str) else value


def encode(names: Sequence[str], values: Sequence[object]) -> tuple[tuple[object, ...], str | None]:
    """The values to store in the columns, and the exact fields as JSON when a NUL needs it."""
    if not has_nul(values):
        return tuple(values), None
    exact = json.dumps(dict(zip(names, values, strict=True)), ensure_ascii=True)
    return tuple(clean(v) for v in values), exact


def decode(row: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The exact fields of a stored row (from ``nul_fields`` when it has one)."""
    values = {name: row[name] for name in names}
    extra = row.get("nul_fields")
    if extra:
        values.update(json.loads(extra))
    return values
