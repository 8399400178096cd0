"""Flat combining: concurrent callers' items run in batches, each caller gets its own answer."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from bastion.runtime.combine import Combiner


def _wait_for(condition: Callable[[], bool]) -> None:
    """Wait (bounded) for other threads to reach a state the test cannot be told about."""
    ready = threading.Event()
    for _ in range(10_000):
        if condition():
            return
        ready.wait(0.001)
    raise AssertionError("the threads never got there")


def _holding_first(batches: list[list[int]], release: threading.Event) -> Callable[[list[int]], None]:
    """A ``prepare`` that lists each batch and holds the turn on the first ([0]) until
    ``release``, so the test knows the others have queued behind it."""

    def prepare(items: list[int]) -> None:
        batches.append(list(items))
        if items == [0]:
            release.wait(30)

    return prepare


def _hold_first_then_queue(
    combiner: Combiner[int, None, int],
    call: Callable[[int], None],
    batches: list[list[int]],
    release: threading.Event,
) -> None:
    """Caller 0 starts a batch that holds the turn (``prepare`` waits on ``release``), then
    callers 1, 2, 3 arrive one at a time (so their order is known), then the turn is let go."""
    first = threading.Thread(target=call, args=(0,))
    first.start()
    _wait_for(lambda: batches == [[0]])
    others = []
    for n in (1, 2, 3):
        thread = threading.Thread(target=call, args=(n,))
        thread.start()
        others.append(thread)
        _wait_for(lambda n=n: len(combiner._open.items) == n)  # type: ignore[misc]
    release.set()
    for thread in (first, *others):
        thread.join(30)


def test_a_caller_alone_runs_its_own_item_through_prepare_then_finish() -> None:
    seen: list[tuple[str, list[int]]] = []

    def prepare(items: list[int]) -> list[int]:
        seen.append(("prepare", list(items)))
        return [n * 10 for n in items]

    def finish(items: list[int], prepared: list[int]) -> list[str]:
        seen.append(("finish", list(items)))
        return [f"{n}:{p}" for n, p in zip(items, prepared, strict=True)]

    combiner: Combiner[int, list[int], str] = Combiner(prepare, finish)
    assert ([combiner.submit(1), combiner.submit(2)], seen) == (
        ["1:10", "2:20"],
        [("prepare", [1]), ("finish", [1]), ("prepare", [2]), ("finish", [2])],
    )


def test_callers_arriving_while_a_batch_is_prepared_run_next_as_one_batch_in_arrival_order() -> None:
    release = threading.Event()
    batches: list[list[int]] = []
    prepare = _holding_first(batches, release)

    combiner: Combiner[int, None, int] = Combiner(prepare, lambda items, _: [n * n for n in items])
    results: dict[int, int] = {}

    def call(n: int) -> None:
        results[n] = combiner.submit(n)

    _hold_first_then_queue(combiner, call, batches, release)
    assert (batches, results) == ([[0], [1, 2, 3]], {0: 0, 1: 1, 2: 4, 3: 9})


def test_an_error_reaches_every_caller_of_its_batch_and_the_next_batch_still_runs() -> None:
    def prepare(items: list[int]) -> None:
        if 13 in items:
            raise ValueError("unlucky")

    combiner: Combiner[int, None, int] = Combiner(prepare, lambda items, _: list(items))
    with pytest.raises(ValueError, match="unlucky"):
        combiner.submit(13)
    assert combiner.submit(7) == 7


def test_a_finish_that_answers_the_wrong_number_of_items_is_an_error_not_a_misrouted_answer() -> None:
    combiner: Combiner[int, None, int] = Combiner(lambda items: None, lambda items, _: [])
    with pytest.raises(RuntimeError, match="0 results for 1 items"):
        combiner.submit(1)


def test_every_caller_waiting_on_a_batch_whose_finish_fails_gets_the_error() -> None:
    release = threading.Event()
    batches: list[list[int]] = []
    prepare = _holding_first(batches, release)

    def finish(items: list[int], _: None) -> list[int]:
        if 2 in items:
            raise OSError("the commit failed")
        return list(items)

    combiner: Combiner[int, None, int] = Combiner(prepare, finish)
    outcomes: dict[int, object] = {}

    def call(n: int) -> None:
        try:
            outcomes[n] = combiner.submit(n)
        except OSError as exc:
            outcomes[n] = str(exc)

    _hold_first_then_queue(combiner, call, batches, release)
    after = combiner.submit(4)
    assert (batches, outcomes, after) == (
        [[0], [1, 2, 3], [4]],
        {0: 0, 1: "the commit failed", 2: "the commit failed", 3: "the commit failed"},
        4,
    )
