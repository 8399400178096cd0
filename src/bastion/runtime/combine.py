"""Flat combining in two stages: concurrent callers' items are run in batches by one caller.

The first caller of a batch leads it. Batches take turns through ``prepare`` (one at a
time, in arrival order: the decisions, which read and update the counters) and then run
``finish`` on their own (the ledger commit and its fsync), so the next batch is decided
while this one is being made durable. Every caller returns once its batch is finished.

Why: under one GIL, sixteen threads deciding and recording at once spent more time passing
the GIL (every SQLite statement and file-system call releases it) than deciding; one leader
does the same work without the hand-offs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
P = TypeVar("P")
R = TypeVar("R")


class _Batch(Generic[T, R]):
    """One batch's items, its outcome, and the locks its callers sleep on: a held lock per
    follower, released by the leader once the results are set. (An Event per batch woke its
    callers through one Condition, each re-taking the Condition's lock after waking: a
    convoy of hand-offs per batch under the GIL; a released lock wakes its sleeper alone.)"""

    __slots__ = ("error", "items", "results", "turn", "waiters")

    def __init__(self) -> None:
        self.items: list[T] = []
        self.results: Sequence[R] = ()
        self.error: BaseException | None = None
        self.waiters: list[threading.Lock] = []
        self.turn = threading.Lock()  # held until its leader may prepare it
        self.turn.acquire()


class Combiner(Generic[T, P, R]):
    """``finish(items, prepare(items))`` returns one result per item, in order; if either
    raises, every caller in that batch gets the exception."""

    def __init__(self, prepare: Callable[[list[T]], P], finish: Callable[[list[T], P], Sequence[R]]) -> None:
        self._prepare = prepare
        self._finish = finish
        self._lock = threading.Lock()
        self._open: _Batch[T, R] = _Batch()
        self._preparing = False  # a batch holds the turn

    def submit(self, item: T) -> R:
        waiter = None
        with self._lock:
            batch = self._open
            index = len(batch.items)
            batch.items.append(item)
            if index == 0:
                if not self._preparing:
                    self._preparing = True
                    batch.turn.release()
            else:
                waiter = threading.Lock()
                waiter.acquire()
                batch.waiters.append(waiter)
        if waiter is None:
            self._lead(batch)
        else:
            waiter.acquire()  # released by the leader once the batch is finished
        if batch.error is not None:
            raise batch.error
        return batch.results[index]

    def _lead(self, batch: _Batch[T, R]) -> None:
        batch.turn.acquire()
        with self._lock:
            self._open = _Batch()  # later arrivals form the next batch
        try:
            try:
                prepared = self._prepare(batch.items)
            finally:
                self._pass_turn()
            results = self._finish(batch.items, prepared)
            if len(results) != len(batch.items):
                raise RuntimeError(f"{len(results)} results for {len(batch.items)} items")
            batch.results = results
        except BaseException as exc:  # every caller of the batch sees it; the next batch runs
            batch.error = exc
        with self._lock:  # no follower joins once the batch is no longer open (above)
            waiters = batch.waiters
        for waiter in waiters:
            waiter.release()

    def _pass_turn(self) -> None:
        with self._lock:
            following = self._open
            if following.items:
                following.turn.release()  # its first caller is waiting to lead it
            else:
                self._preparing = False
