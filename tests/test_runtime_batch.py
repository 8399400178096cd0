"""``request_sync`` callers decided and recorded in batches (bastion.runtime.combine): each
gets the answer it would get alone, each answer is durable before it is returned, and a
batch whose counters or ledger commit fails acknowledges none of its calls."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bastion.approval.clock import FakeClock
from bastion.approval.memory import MemoryStore
from bastion.approval.model import FailureRecord
from bastion.approval.sqlite import SqliteStore
from bastion.audit.chain import Chain
from bastion.audit.events import AuditEvent, LedgerRecord
from bastion.audit.group import GroupCommitStore
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.sqlite import SqliteLedgerStore
from bastion.audit.store import MemoryLedgerStore
from bastion.call.model import ToolCall
from bastion.errors import StoreError
from bastion.policy.compiled import Policy
from bastion.policy.decision import MARKER_DENIED, Decision, Evaluation, Reason
from bastion.policy.engine import Gate
from bastion.runtime import Gatekeeper

ALLOW = Evaluation(Decision.ALLOW, (Reason(Decision.ALLOW, "rule[2]", "/p/policy.toml:6", "cat", "fine"),))
DENY = Evaluation(
    Decision.DENY, (Reason(Decision.DENY, "rule[3]", "/p/policy.toml:9", "x", "never"),), marker=MARKER_DENIED
)
HASHER = ArgumentHasher(b"k" * 32)


class EvenOddGate(Gate):
    """Allows the calls whose number is even, denies the odd ones."""

    def evaluate(self, call: ToolCall) -> Evaluation:
        return ALLOW if int(call.args["n"]) % 2 == 0 else DENY


def call(n: int, session: str = "s1") -> ToolCall:
    return ToolCall("read", {"path": f"/p/f{n}", "n": n}, cwd="/p", session=session, interactive=False)


def memory_keeper(policy: Policy, store: MemoryStore | None = None, ledger: object = None) -> Gatekeeper:
    return Gatekeeper(
        EvenOddGate(policy),
        store=store or MemoryStore(),
        ledger=Ledger(ledger or MemoryLedgerStore(), hasher=HASHER),  # type: ignore[arg-type]
        clock=FakeClock(1000.0),
    )


def settle(keeper: Gatekeeper, calls: Sequence[ToolCall]) -> list[object]:
    """One batch, as the combiner's leader runs it."""
    items = [(c, 1000.0, False) for c in calls]
    return list(keeper._record_batch(items, keeper._prepare_batch(items)))


def test_concurrent_callers_get_what_each_would_get_alone_with_one_durable_record_each(
    make_policy: Callable[..., Policy], tmp_path: Path
) -> None:
    path = str(tmp_path / "bastion.db")
    store = SqliteStore(path)
    ledger = GroupCommitStore(SqliteLedgerStore(path, chain=Chain(b"c" * 32)))
    keeper = Gatekeeper(
        EvenOddGate(make_policy()), store=store, ledger=Ledger(ledger, hasher=HASHER), clock=FakeClock(1000.0)
    )
    calls = [call(n, session=f"s{n % 4}") for n in range(160)]
    with ThreadPoolExecutor(max_workers=16) as pool:
        answers = list(pool.map(keeper.request_sync, calls))
    records = keeper.ledger.events()
    by_hash = {r.event.args_hash: r.event.decision for r in records}
    let_through = {s: store.peek_usage(s, None, 1000.0).minute_calls - 1 for s in ("s0", "s1", "s2", "s3")}
    verdict = keeper.ledger.verify()
    keeper.close()
    assert (
        [a.decision for a in answers],
        len(records),
        by_hash == {HASHER.digest(c): ("allow" if c.args["n"] % 2 == 0 else "deny") for c in calls},
        let_through,  # the denied calls are not counted toward calls_per_minute
        verdict.ok,
    ) == (
        [Decision.ALLOW if n % 2 == 0 else Decision.DENY for n in range(160)],
        160,
        True,
        {"s0": 40, "s1": 0, "s2": 40, "s3": 0},
        True,
    )


def test_a_batch_records_every_call_in_one_commit_and_feeds_the_repeat_guard_as_alone(
    make_policy: Callable[..., Policy],
) -> None:
    commits: list[int] = []

    class Counting(MemoryLedgerStore):
        def append(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
            commits.append(len(events))
            return super().append(events)

    keeper = memory_keeper(make_policy(), ledger=Counting())
    answers = settle(keeper, [call(0), call(1), call(2)])
    guard = [keeper.store.failure_record("s1", HASHER.digest(c)).failures for c in (call(0), call(1))]
    assert (answers, commits, [r.event.decision for r in keeper.ledger.events()], guard) == (
        [ALLOW, DENY, ALLOW],
        [3],
        ["allow", "deny", "allow"],
        [0, 1],
    )


def test_a_batch_whose_ledger_commit_fails_acknowledges_none_of_its_calls(
    make_policy: Callable[..., Policy],
) -> None:
    class Failing(MemoryLedgerStore):
        def append(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
            raise StoreError("disk full")

    keeper = memory_keeper(make_policy(), ledger=Failing())
    answers = settle(keeper, [call(0), call(2), call(1)])
    assert (
        [(a.decision, a.reasons[0].rule, a.marker) for a in answers],  # type: ignore[attr-defined]
        keeper.store.failure_record("s1", HASHER.digest(call(1))),  # nothing recorded: not a failure
    ) == ([(Decision.DENY, "audit.unavailable", None)] * 3, FailureRecord())


def test_a_batch_whose_counters_cannot_be_committed_denies_every_call_in_it(
    make_policy: Callable[..., Policy],
) -> None:
    class LosingCounters(MemoryStore):
        @contextlib.contextmanager
        def batch(self) -> Iterator[None]:
            yield
            raise StoreError("the counters' commit failed")

    keeper = memory_keeper(make_policy(), store=LosingCounters())
    answers = settle(keeper, [call(0), call(2)])
    assert (
        [(a.decision, a.reasons[0].rule) for a in answers],  # type: ignore[attr-defined]
        [(r.event.decision, r.event.rule) for r in keeper.ledger.events()],
    ) == ([(Decision.DENY, "state.unavailable")] * 2, [("deny", "state.unavailable")] * 2)


def test_a_caller_alone_is_decided_without_a_counters_batch(make_policy: Callable[..., Policy]) -> None:
    opened: list[str] = []

    class Watching(MemoryStore):
        @contextlib.contextmanager
        def batch(self) -> Iterator[None]:
            opened.append("batch")
            yield

    keeper = memory_keeper(make_policy(), store=Watching())
    assert (keeper.request_sync(call(0)), opened) == (ALLOW, [])
