"""``bastion policy import FILE`` (placeholder until the importers land)."""

from __future__ import annotations

from bastion.adapters.cli.common import fail


def import_policy(file: str) -> None:
    fail(f"{file}: policy import is not built yet")
