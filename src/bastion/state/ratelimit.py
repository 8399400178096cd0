"""Requests per minute per API key: a token bucket (bursts up to the limit, refilled evenly).

In-process: one daemon process keeps the count. Several worker processes would each keep
their own, so ``bastion serve`` runs one.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable


class RateLimiter:
    def __init__(self, per_minute: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        if per_minute <= 0:
            raise ValueError("a rate limit must be positive")
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0  # tokens per second
        self.clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, at)

    def check(self, key: str) -> int:
        """Take one token; 0 when allowed, else the whole seconds to wait (Retry-After)."""
        now = self.clock()
        with self._lock:
            tokens, at = self._buckets.get(key, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - at) * self.rate)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                return 0
            self._buckets[key] = (tokens, now)
            return max(1, math.ceil((1.0 - tokens) / self.rate))
