"""Where the proxy connects: a Dialer opens a TCP stream to an address it was given.

The proxy resolves a name once, checks every address, then dials the checked address -
never the name again - so a DNS answer that changes after the check cannot reach a
private address. Tests and benches swap the Dialer for a table that reaches loopback
servers and refuses everything else (no packet leaves the machine).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Protocol

from bastion.policy.network import Resolver
from bastion.policy.urls import IPAddress

Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]
#: Stream buffer of an upstream connection (asyncio's 64 KiB default halves throughput).
BUFFER = 262144


class Dialer(Protocol):
    async def open(self, address: IPAddress, port: int) -> Streams:
        """A connection to ``address:port``; raises OSError when it cannot be made."""
        ...


class SystemDialer:
    """Plain TCP to the checked address."""

    async def open(self, address: IPAddress, port: int) -> Streams:
        return await asyncio.open_connection(str(address), port, limit=BUFFER)


class StaticDialer:
    """``(address, port) -> (loopback host, port)`` for tests and benches; anything not in
    the table is refused, so a mistake can never reach a real address."""

    def __init__(self, table: Mapping[tuple[str, int], tuple[str, int]]) -> None:
        self.table = dict(table)

    async def open(self, address: IPAddress, port: int) -> Streams:
        found = self.table.get((str(address), port))
        if found is None:
            raise ConnectionRefusedError(f"{address}:{port} is not in the test dialer's table")
        return await asyncio.open_connection(*found, limit=BUFFER)


class PinnedResolver:
    """Resolves a host once and keeps that answer for the check and the connection."""

    def __init__(self, inner: Resolver) -> None:
        self.inner = inner
        self.answers: dict[str, tuple[IPAddress, ...]] = {}

    def resolve(self, host: str) -> Sequence[IPAddress]:
        if host not in self.answers:
            self.answers[host] = tuple(self.inner.resolve(host))
        return self.answers[host]
