"""The audit ledger: append events durably, read them back, verify the hash chain.

``verify`` re-computes every record's hash from its stored fields and checks that each
record names its predecessor's hash and that ``seq`` has no gaps: an edited, removed or
reordered record is reported at the first place the chain breaks. (Removing the *newest*
records leaves a valid shorter chain; anchor ``head`` elsewhere if that matters.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bastion.audit.events import GENESIS, AuditEvent, LedgerRecord, record_hash
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
        return {"ok": self.ok, "checked": self.checked, "head": self.head,
                "bad_seq": self.bad_seq, "problem": self.problem}


def verify_records(records: Iterable[LedgerRecord]) -> VerifyResult:
    prev, expected, checked = GENESIS, 1, 0
    for record in records:
        if record.seq != expected:
            what = "missing" if record.seq > expected else "out of order"
            return VerifyResult(False, checked, prev, record.seq,
                                f"record {expected} is {what} (found {record.seq} after {expected - 1})")
        if record.hash != record_hash(record.seq, record.prev, record.event):
            return VerifyResult(False, checked, prev, record.seq,
                                f"record {record.seq} was altered: its content does not match its hash")
        if record.prev != prev:
            return VerifyResult(False, checked, prev, record.seq,
                                f"record {record.seq} does not follow record {record.seq - 1}: "
                                "a record was removed, replaced or reordered")
        prev, expected, checked = record.hash, expected + 1, checked + 1
    return VerifyResult(True, checked, prev)


class Ledger:
    def __init__(self, store: LedgerStore, *, hasher: ArgumentHasher) -> None:
        self.store = store
        #: Keys the argument hashes (and exact grants, and the repeat guard's call identity).
        self.hasher = hasher

    def append(self, event: AuditEvent) -> LedgerRecord:
        """Durable when it returns: the caller may let the call proceed."""
        return self.store.append([event])[0]

    def append_many(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        """One transaction (one fsync) for all of ``events``: all are stored, or none."""
        return self.store.append(events)

    def events(self, *, session: str | None = None, since: float | None = None,
               decision: str | None = None, after_seq: int = 0,
               limit: int | None = None) -> list[LedgerRecord]:
        return self.store.query(LedgerQuery(session=session, since=since, decision=decision,
                                            after_seq=after_seq, limit=limit))

    def verify(self) -> VerifyResult:
        return verify_records(self.store.scan())

    def close(self) -> None:
        self.store.close()
