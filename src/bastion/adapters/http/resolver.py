"""Host lookups for a daemon that decides on an event loop.

The engine may resolve a host name while deciding. A lookup can take seconds, and the
event loop must never wait on one: decisions run inline (fast) with lookups answered from
this cache only, and a decision that needed an uncached name is run again in a worker
thread, where the real lookup happens. Answers and failures are both cached briefly.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bastion.policy.network import Resolver
from bastion.policy.urls import IPAddress

MAX_ENTRIES = 4096


@dataclass
class Probe:
    missed: bool = False


class _CachedOnly:
    """``cached_only``'s context (a class: it is entered once per decision on the loop)."""

    __slots__ = ("_local",)

    def __init__(self, local: threading.local) -> None:
        self._local = local

    def __enter__(self) -> Probe:
        probe = Probe()
        self._local.probe = probe
        return probe

    def __exit__(self, *exc: object) -> None:
        self._local.probe = None


class LoopSafeResolver:
    def __init__(
        self,
        inner: Resolver,
        *,
        ttl: float = 30.0,
        failure_ttl: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.inner = inner
        self.ttl = ttl
        self.failure_ttl = failure_ttl
        self.clock = clock
        self._cache: dict[str, tuple[float, Sequence[IPAddress] | OSError]] = {}
        self._lock = threading.Lock()
        self._local = threading.local()

    def cached_only(self) -> _CachedOnly:
        """In this thread, answer from the cache only; ``probe.missed`` tells if that failed."""
        return _CachedOnly(self._local)

    def resolve(self, host: str) -> Sequence[IPAddress]:
        now = self.clock()
        with self._lock:
            hit = self._cache.get(host)
        if hit is not None:
            at, value = hit
            fresh = now - at < (self.failure_ttl if isinstance(value, OSError) else self.ttl)
            if fresh:
                if isinstance(value, OSError):
                    raise OSError(str(value))
                return value
        probe: Probe | None = getattr(self._local, "probe", None)
        if probe is not None:
            probe.missed = True
            raise OSError(f"{host}: not looked up on the event loop")
        try:
            found: Sequence[IPAddress] | OSError = self.inner.resolve(host)
        except OSError as exc:
            found = exc
        with self._lock:
            if len(self._cache) > MAX_ENTRIES:
                self._cache.clear()
            self._cache[host] = (now, found)
        if isinstance(found, OSError):
            raise found
        return found
