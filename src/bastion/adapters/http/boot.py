"""Start-up refusals (seed 002): configurations that are a hole, not a warning.

- listening on a non-loopback address with no API key configured;
- an approval endpoint reachable with an agent key.
"""

from __future__ import annotations

from collections.abc import Iterable

from bastion.adapters.http.auth import unsafe_routes
from bastion.adapters.http.settings import is_loopback
from bastion.errors import BastionError
from bastion.keys.model import Role
from bastion.keys.store import KeyStore


class BootRefused(BastionError):
    """The daemon must not start like this; ``hint`` says how to fix it."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint


def check_boot(host: str, keys: KeyStore, routes: Iterable[tuple[str, str]]) -> None:
    bad = unsafe_routes(routes)
    if bad:
        raise BootRefused(
            f"an agent key could answer requests through {', '.join(bad)}",
            hint="approval endpoints must require the approver or admin role",
        )
    if not is_loopback(host) and not keys.list():
        raise BootRefused(
            f"refusing to listen on {host} (not loopback) with no API key configured",
            hint="create keys first: bastion keys create --role agent (and --role approver)",
        )


def ensure_approver(keys: KeyStore, *, now: float) -> str | None:
    """On a first start: a new approver key (returned once, to print), unless a key that
    can approve exists already."""
    if any(k.role in (Role.APPROVER, Role.ADMIN) for k in keys.list()):
        return None
    _, key = keys.create(Role.APPROVER, now=now, label="created by bastion serve")
    return key
