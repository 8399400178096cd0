"""What a ``tools/call`` leaves for after its answer: the record of what the call did.

The decision is durable before the call is forwarded. The *executed* record (exit status,
duration) is what nothing waits on: the ledger commits it without a sync of its own (the
next decision's synced commit makes it durable). Written before the answer, it and the
repeat guard's note of the outcome were about a sixth of what the proxy adds to a call.

:class:`AfterAnswer` runs such work once the answer is on the wire — at the event loop's
next turn — and in any case before the next call is decided (:meth:`AfterAnswer.run_due`
at the start of every ``tools/call``) and before the proxy stops, so the ledger keeps the
order of what happened and the repeat guard sees an outcome before the next decision.
Work that fails is said on stderr: the call already ran and its answer is already sent.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import TextIO


class AfterAnswer:
    """Work queued by calls, run in order at the loop's next turn or at ``run_due``."""

    def __init__(self, log: TextIO) -> None:
        self.log = log
        self._due: deque[tuple[str, Callable[[], None]]] = deque()
        self._scheduled: asyncio.Handle | None = None

    def add(self, what: str, work: Callable[[], None]) -> None:
        """Queue ``work`` (``what`` names it in the error message if it fails)."""
        self._due.append((what, work))
        if self._scheduled is None:
            self._scheduled = asyncio.get_running_loop().call_soon(self.run_due)

    def run_due(self) -> None:
        """Run everything queued, oldest first (also from outside the event loop)."""
        if self._scheduled is not None:
            self._scheduled.cancel()
            self._scheduled = None
        while self._due:
            what, work = self._due.popleft()
            try:
                work()
            except Exception as exc:
                self.log.write(f"bastion: could not record {what}: {type(exc).__name__}: {exc}\n")

    @property
    def pending(self) -> int:
        return len(self._due)
