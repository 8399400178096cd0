"""The ledger's keyed hash chain, and the one-time migration of an unkeyed (v1) chain.

Each record's hash is ``HMAC-SHA256(chain key, canonical(seq, prev, event))``. The chain key
is derived from the argument-hash key (``<state dir>/ledger.key``, 0600, inside the state
dir no agent may read; on PostgreSQL the copy every daemon shares), so someone who can
rewrite the ledger's rows but not read that key cannot recompute a chain that verifies.

Version 1 chains used a plain SHA-256 over the same bytes (without ``approver``). Opening a
v1 ledger re-keys it once, in one transaction: the v1 chain is verified first, and if it is
already broken the first bad record is kept in the ledger's metadata, so ``logs verify``
still names it after the migration instead of laundering it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bastion.audit.events import EVENT_FIELDS, GENESIS, AuditEvent, LedgerRecord
from bastion.audit.fast import KeyedSha256

#: The metadata value of a keyed ledger (``ledger_meta.chain``).
CHAIN_VERSION = "hmac-sha256-v2"
_DERIVE = b"bastion ledger chain v2"
#: The hash stored for a record that could not be hashed while re-keying.
UNHASHABLE = "unhashable"


def chain_key(argument_key: bytes) -> bytes:
    """The chain key, derived (one-way) from the argument-hash key: a leak of one hash
    never reveals the other key, and there is no second secret file to lose."""
    return hmac.new(argument_key, _DERIVE, hashlib.sha256).digest()


#: One encoder for every record (``json.dumps`` with options builds a new one per call).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


#: Every field of an event in one C call (a loop of ``getattr`` was a fifth of canonical).
event_values = operator.attrgetter(*EVENT_FIELDS)
_KEYS = ("seq", "prev", *EVENT_FIELDS)


def canonical(seq: int, prev: str, event: AuditEvent, *, legacy: bool = False) -> bytes:
    return canonical_values(seq, prev, event_values(event), legacy=legacy)


def _sorted_picker(keys: tuple[str, ...]) -> tuple[tuple[str, ...], Callable[[tuple[Any, ...]], Any]]:
    """The keys ``sort_keys`` would write, and a picker of their values from a full row."""
    order = sorted(range(len(_KEYS)), key=_KEYS.__getitem__)
    order = [i for i in order if _KEYS[i] in keys]
    return tuple(_KEYS[i] for i in order), operator.itemgetter(*order)


_PARENT = _KEYS.index("parent")
_WITH_PARENT = _sorted_picker(_KEYS)
_WITHOUT_PARENT = _sorted_picker(tuple(k for k in _KEYS if k != "parent"))


#: Given a dict already in sorted key order (the pickers above), ``sort_keys`` finds it sorted.
_ENCODE_FLAT = _ENCODER.encode


def canonical_values(seq: int, prev: str, values: tuple[Any, ...], *, legacy: bool = False) -> bytes:
    """``canonical`` from the event's field values (``event_values``), which the ledger's
    insert needs too. Every field is a str, a number or None (``asdict`` deep-copies).
    ``parent`` is a field added later: absent and None hash the same."""
    row = (seq, prev, *values)
    if len(row) != len(_KEYS):
        raise ValueError(f"{len(values)} event values, not {len(EVENT_FIELDS)}")
    if legacy:
        body: dict[str, object] = dict(zip(_KEYS, row, strict=True))
        if body["parent"] is None:
            del body["parent"]
        body.pop("approver", None)
        return _ENCODER.encode(body).encode("utf-8")
    keys, pick = _WITHOUT_PARENT if row[_PARENT] is None else _WITH_PARENT
    return _ENCODE_FLAT(dict(zip(keys, pick(row), strict=True))).encode("utf-8")


def legacy_hash(seq: int, prev: str, event: AuditEvent) -> str:
    """A v1 record's hash (unkeyed): only read while migrating."""
    return hashlib.sha256(canonical(seq, prev, event, legacy=True)).hexdigest()


class Chain:
    """Links events into the keyed chain; the key never appears in ``repr``."""

    def __init__(self, key: bytes) -> None:
        if len(key) < 16:
            raise ValueError("a chain key needs at least 16 bytes")
        self._key = key
        self._mac = KeyedSha256(key)

    def __repr__(self) -> str:
        return "Chain(key=***)"

    @classmethod
    def from_argument_key(cls, argument_key: bytes) -> Chain:
        return cls(chain_key(argument_key))

    def hash(self, seq: int, prev: str, event: AuditEvent) -> str:
        return self._mac.hexdigest(canonical(seq, prev, event))

    def hash_values(self, seq: int, prev: str, values: tuple[Any, ...]) -> str:
        """``hash`` of an event given as its field values (``event_values``)."""
        return self._mac.hexdigest(canonical_values(seq, prev, values))

    def link(self, seq: int, prev: str, event: AuditEvent) -> LedgerRecord:
        return LedgerRecord(seq=seq, prev=prev, hash=self.hash(seq, prev, event), event=event)


@dataclass(frozen=True, slots=True)
class LegacyBreak:
    """Where a v1 chain was already broken when it was re-keyed."""

    seq: int
    problem: str


def rekey(
    records: Iterable[LedgerRecord], chain: Chain, write: Callable[[LedgerRecord], None]
) -> LegacyBreak | None:
    """Re-link every v1 record with ``chain`` (``write`` stores each new record); returns
    the first place the v1 chain was broken, if it was."""
    prev_old, prev_new, expected = GENESIS, GENESIS, 1
    broken: LegacyBreak | None = None
    for record in records:
        if broken is None:
            broken = _legacy_problem(record, prev_old, expected)
        prev_old, expected = record.hash, record.seq + 1
        try:
            linked = chain.link(record.seq, prev_new, record.event)
        except (TypeError, ValueError):  # a value no hash can cover: verify names it later
            linked = LedgerRecord(seq=record.seq, prev=prev_new, hash=UNHASHABLE, event=record.event)
        write(linked)
        prev_new = linked.hash
    return broken


def _legacy_problem(record: LedgerRecord, prev: str, expected: int) -> LegacyBreak | None:
    if record.seq != expected:
        return LegacyBreak(record.seq, f"record {expected} was missing before the ledger was keyed")
    try:
        good = record.hash == legacy_hash(record.seq, record.prev, record.event)
    except (TypeError, ValueError):
        good = False
    if not good:
        return LegacyBreak(
            record.seq,
            f"record {record.seq} was already altered before the ledger "
            "was keyed (its v1 hash did not match)",
        )
    if record.prev != prev:
        return LegacyBreak(
            record.seq,
            f"record {record.seq} did not follow record {record.seq - 1} before the ledger was keyed",
        )
    return None
