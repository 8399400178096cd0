"""Ledger events and records: what is written, and the canonical bytes its hash covers."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any

from bastion.approval.model import iso
from bastion.audit.config import AuditConfig
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.redact import redact_value, summarize
from bastion.call.model import ToolCall, thaw
from bastion.policy.decision import Evaluation

GENESIS = "0" * 64


class EventKind(StrEnum):
    DECIDED = "decided"  # decided without parking (policy, grant, limit, breaker, non-interactive)
    REQUESTED = "requested"  # an ASK parked in the queue
    RESOLVED = "resolved"  # a parked request answered, expired or cancelled
    EXECUTED = "executed"  # a call ran: exit status and duration


@dataclass(frozen=True, slots=True)
class AuditEvent:
    kind: str
    decision_id: str
    time: float
    tool: str
    decision: str
    resolver: str
    rule: str
    source: str
    message: str
    reasons: str  # compact JSON: every reason's rule, source and decision
    args_hash: str
    summary: str
    session: str | None = None
    agent: str | None = None
    turn: str | None = None
    raw_args: str | None = None
    exit_code: int | None = None
    duration: float | None = None


EVENT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(AuditEvent))


@dataclass(frozen=True, slots=True)
class LedgerRecord:
    """A stored event: its place in the chain (``seq``), the previous hash and its own."""

    seq: int
    prev: str
    hash: str
    event: AuditEvent

    def to_json(self) -> dict[str, Any]:
        data = asdict(self.event)
        data["time"] = iso(self.event.time)
        data["reasons"] = json.loads(self.event.reasons)
        data["raw_args"] = None if self.event.raw_args is None else json.loads(self.event.raw_args)
        return {"seq": self.seq, **data, "prev": self.prev, "hash": self.hash}


def canonical(seq: int, prev: str, event: AuditEvent) -> bytes:
    body = {"seq": seq, "prev": prev, **asdict(event)}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def record_hash(seq: int, prev: str, event: AuditEvent) -> str:
    return hashlib.sha256(canonical(seq, prev, event)).hexdigest()


def chain(seq: int, prev: str, event: AuditEvent) -> LedgerRecord:
    return LedgerRecord(seq=seq, prev=prev, hash=record_hash(seq, prev, event), event=event)


def make_event(
    call: ToolCall,
    evaluation: Evaluation,
    *,
    kind: EventKind,
    decision_id: str,
    resolver: str,
    time: float,
    hasher: ArgumentHasher,
    config: AuditConfig,
    exit_code: int | None = None,
    duration: float | None = None,
) -> AuditEvent:
    """An event for ``call``: the first reason is the one that decided."""
    first = evaluation.reasons[0] if evaluation.reasons else None
    reasons = [{"rule": r.rule, "source": r.source, "decision": r.decision.label}
               for r in evaluation.reasons]
    raw = None
    if config.store_raw_arguments:
        raw = json.dumps(thaw(call.args), sort_keys=True, ensure_ascii=False, default=str)
    return AuditEvent(
        kind=kind.value,
        decision_id=decision_id,
        time=time,
        tool=call.tool,
        decision=evaluation.decision.label,
        resolver=resolver,
        rule=first.rule if first else "",
        source=first.source if first else "",
        message=str(redact_value(evaluation.message))[:1000],
        reasons=json.dumps(reasons, separators=(",", ":"), ensure_ascii=False),
        args_hash=hasher.digest(call),
        summary=summarize(call),
        session=call.session,
        agent=call.agent,
        turn=call.turn,
        raw_args=raw,
        exit_code=exit_code,
        duration=duration,
    )
