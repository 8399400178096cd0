"""Host lookups never run on the event loop: cached answers inline, real lookups in threads."""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

import pytest

from bastion.adapters.http.resolver import LoopSafeResolver
from bastion.policy.urls import IPAddress


class CountingResolver:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def resolve(self, host: str) -> Sequence[IPAddress]:
        self.calls.append(host)
        if host == "nowhere.invalid":
            raise OSError("no such host")
        return (ipaddress.ip_address("203.0.113.7"),)


def test_an_uncached_name_is_not_looked_up_while_only_the_cache_may_answer() -> None:
    inner = CountingResolver()
    resolver = LoopSafeResolver(inner)
    with resolver.cached_only() as probe, pytest.raises(OSError):
        resolver.resolve("example.org")
    assert (probe.missed, inner.calls) == (True, [])


def test_answers_and_failures_are_cached_until_their_time_is_up() -> None:
    now = [0.0]
    inner = CountingResolver()
    resolver = LoopSafeResolver(inner, ttl=30, failure_ttl=10, clock=lambda: now[0])
    first = resolver.resolve("example.org")
    with pytest.raises(OSError):
        resolver.resolve("nowhere.invalid")
    with resolver.cached_only() as probe:
        again = resolver.resolve("example.org")
        with pytest.raises(OSError, match="no such host"):
            resolver.resolve("nowhere.invalid")
    now[0] = 11.0
    with pytest.raises(OSError):
        resolver.resolve("nowhere.invalid")
    assert (first, again, probe.missed) == ((ipaddress.ip_address("203.0.113.7"),),) * 2 + (False,)
    assert inner.calls == ["example.org", "nowhere.invalid", "nowhere.invalid"]
