"""The audit ledger: append events durably, read them back, verify the keyed hash chain.

``verify`` re-computes every record's keyed hash from its stored fields and checks that each
record names its predecessor's hash and that ``seq`` has no gaps: an edited, removed or
reordered record, a rewritten record whose hashes were recomputed without the key, or a
stored value no event can hold (a blob, an infinite number, text that is not JSON, a
missing column) is reported at the first place the chain breaks. ``verify`` never raises:
an unreadable store is a broken ledger too. (Removing the *newest* records leaves a valid
shorter chain; anchor ``head`` elsewhere if that matters.)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from bastion.audit.chain import Chain, LegacyBreak
from bastion.audit.events import GENESIS, AuditEvent, EventKind, LedgerRecord, decode_event
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.store import LedgerQuery, LedgerStore


@dataclass(frozen=True, slots=True)
class VerifyResult:
    ok: bool
    checked: int
    head: str  # hash of the last good record (GENESIS when empty)
    bad_seq: int | None = None
    problem: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "checked": self.checked,
            "head": self.head,
            "bad_seq": self.bad_seq,
            "problem": self.problem,
        }


def decode_record(row: Mapping[str, Any]) -> LedgerRecord:
    """A record from a stored row, every field type-checked (ValueError says what is wrong)."""
    for name in ("prev", "hash"):
        if not isinstance(row.get(name), str):
            raise ValueError(f"its {name} is {type(row.get(name)).__name__}, not text")
    return LedgerRecord(seq=int(row["seq"]), prev=row["prev"], hash=row["hash"], event=decode_event(row))


class _Walk:
    """The running state of one verification (kept so a read error can still be reported)."""

    def __init__(self, chain: Chain) -> None:
        self.chain = chain
        self.prev, self.expected, self.checked = GENESIS, 1, 0

    def bad(self, seq: int, problem: str) -> VerifyResult:
        return VerifyResult(False, self.checked, self.prev, seq, problem)

    def step(self, row: Mapping[str, Any]) -> VerifyResult | None:
        seq = row.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int):
            return self.bad(self.expected, f"record {self.expected} has no integer seq ({seq!r})")
        if seq != self.expected:
            what = "missing" if seq > self.expected else "out of order"
            return self.bad(seq, f"record {self.expected} is {what} (found {seq} after {self.expected - 1})")
        try:
            record = decode_record(row)
            digest = self.chain.hash(record.seq, record.prev, record.event)
        except (ValueError, TypeError, KeyError) as exc:
            return self.bad(seq, f"record {seq} is corrupt: {exc}")
        if record.hash != digest:
            return self.bad(
                seq,
                f"record {seq} was altered: its content does not match its keyed hash "
                "(or the ledger key is not the one it was written with)",
            )
        if record.prev != self.prev:
            return self.bad(
                seq,
                f"record {seq} does not follow record {seq - 1}: a record was removed, replaced or reordered",
            )
        self.prev, self.expected, self.checked = record.hash, seq + 1, self.checked + 1
        return None


def verify_rows(
    rows: Iterable[Mapping[str, Any]], chain: Chain, *, legacy: LegacyBreak | None = None
) -> VerifyResult:
    """Verify stored rows (``seq``, ``prev``, ``hash`` and the event's columns) in order.
    ``legacy`` is where a v1 chain was already broken when it was re-keyed."""
    walk = _Walk(chain)
    iterator = iter(rows)
    while True:
        if legacy is not None and walk.expected >= legacy.seq:
            return walk.bad(legacy.seq, legacy.problem)
        try:
            row = next(iterator)
        except StopIteration:
            break
        except Exception as exc:  # an unreadable store is a broken ledger, never a crash
            return walk.bad(
                walk.expected, f"record {walk.expected} cannot be read: {type(exc).__name__}: {exc}"
            )
        found = walk.step(row)
        if found is not None:
            return found
    if legacy is not None:
        return walk.bad(legacy.seq, legacy.problem)
    return VerifyResult(True, walk.checked, walk.prev)


def verify_records(records: Iterable[LedgerRecord], chain: Chain) -> VerifyResult:
    """Verify decoded records (tests, and stores that hold records rather than rows)."""
    return verify_rows((_as_row(r) for r in records), chain)


def _as_row(record: LedgerRecord) -> dict[str, Any]:
    return {"seq": record.seq, "prev": record.prev, "hash": record.hash, **asdict(record.event)}


def verify_store(store: LedgerStore) -> VerifyResult:
    """``bastion logs verify``: the whole stored chain; never raises."""
    try:
        legacy = store.legacy_break()
        rows: Iterator[Mapping[str, Any]] = store.scan_rows()
    except Exception as exc:
        return VerifyResult(False, 0, GENESIS, 1, f"the ledger cannot be read: {type(exc).__name__}: {exc}")
    return verify_rows(rows, store.chain, legacy=legacy)


class Ledger:
    def __init__(self, store: LedgerStore, *, hasher: ArgumentHasher) -> None:
        self.store = store
        #: Keys the argument hashes (and exact grants, and the repeat guard's call identity).
        self.hasher = hasher

    def append(self, event: AuditEvent) -> LedgerRecord:
        """Durable when it returns: the caller may let the call proceed.

        But an ``executed`` record — the outcome of a call that already ran, with nothing
        waiting on it — is committed (readable at once) without waiting for its own sync,
        when the store can (``append_unsynced``): the next synced commit makes it durable,
        at the latest the next decision's, before that call proceeds. A power cut (not a
        crash of the process) can lose only outcomes written since the last decision, never
        a decision. It saves the MCP proxy one fsync per call."""
        if event.kind == EventKind.EXECUTED.value:
            unsynced = getattr(self.store, "append_unsynced", None)
            if callable(unsynced):
                records: list[LedgerRecord] = unsynced([event])
                return records[0]
        return self.store.append([event])[0]

    def append_once(self, event: AuditEvent) -> LedgerRecord:
        """Like ``append``, but a ``resolved`` event is stored at most once per request
        (``decision_id``): whoever writes first wins; the others get the stored record."""
        return self.store.append_once(event)

    def append_many(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        """One transaction (one fsync) for all of ``events``: all are stored, or none."""
        return self.store.append(events)

    def events(
        self,
        *,
        session: str | None = None,
        since: float | None = None,
        decision: str | None = None,
        after_seq: int = 0,
        limit: int | None = None,
        kind: EventKind | None = None,
        agent: str | None = None,
    ) -> list[LedgerRecord]:
        return self.store.query(
            LedgerQuery(
                session=session,
                since=since,
                decision=decision,
                after_seq=after_seq,
                limit=limit,
                kind=None if kind is None else kind.value,
                agent=agent,
            )
        )

    def verify(self) -> VerifyResult:
        return verify_store(self.store)

    def close(self) -> None:
        self.store.close()
