"""Ledger events and records: what is written, and the canonical bytes its hash covers."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any

from bastion.approval.model import ApprovalRequest, iso
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.redact import redact, redact_value, summarize
from bastion.audit.settings import AuditConfig
from bastion.call.model import ToolCall, thaw
from bastion.policy.decision import Decision, Evaluation

GENESIS = "0" * 64


class EventKind(StrEnum):
    DECIDED = "decided"  # decided without parking (policy, grant, limit, breaker, non-interactive)
    REQUESTED = "requested"  # an ASK parked in the queue
    RESOLVED = "resolved"  # a parked request answered, expired or cancelled
    EXECUTED = "executed"  # a call ran: exit status and duration
    SETTINGS = "settings"  # a person changed settings (bastion.audit.changes): no tool call


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
    #: Who answered a parked request: an approver key's id, ``local:<user>`` (a terminal
    #: confirmation), ``callback`` (on_permission), ``expiry`` or ``cancel``. Resolutions only.
    approver: str | None = None
    #: The parent session of a delegated (child) session's call (bastion.delegation).
    parent: str | None = None


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


#: The type each stored field must have (``logs verify`` refuses anything else by name).
_TEXT = frozenset(
    {
        "kind",
        "decision_id",
        "tool",
        "decision",
        "resolver",
        "rule",
        "source",
        "message",
        "reasons",
        "args_hash",
        "summary",
    }
)
_OPTIONAL_TEXT = frozenset({"session", "agent", "turn", "raw_args", "approver", "parent"})
_JSON = ("reasons", "raw_args")


def decode_event(values: Mapping[str, Any]) -> AuditEvent:
    """An event from stored values, checked field by field; ValueError names what is wrong
    (a missing column, a blob, an infinite number, text that is not JSON)."""
    missing = [name for name in EVENT_FIELDS if name not in values]
    if missing:
        raise ValueError(f"it has no {', '.join(missing)} column")
    for name in EVENT_FIELDS:
        value = values[name]
        if name in _TEXT and not isinstance(value, str):
            raise ValueError(f"its {name} is {type(value).__name__}, not text")
        if name in _OPTIONAL_TEXT and value is not None and not isinstance(value, str):
            raise ValueError(f"its {name} is {type(value).__name__}, not text")
    for name in ("time", "duration"):
        value = values[name]
        if value is None and name == "duration":
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise ValueError(f"its {name} is {value!r}, not a finite number")
    code = values["exit_code"]
    if code is not None and (isinstance(code, bool) or not isinstance(code, int)):
        raise ValueError(f"its exit_code is {code!r}, not an integer")
    for name in _JSON:
        if values[name] is not None:
            try:
                json.loads(values[name])
            except ValueError as exc:
                raise ValueError(f"its {name} is not valid JSON ({exc})") from None
    return AuditEvent(**{name: values[name] for name in EVENT_FIELDS})


#: One encoder for every event's reasons (``json.dumps`` with options builds one per call).
_REASONS = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
_ENCODE_REASONS = _REASONS.encode
#: Each decision's and kind's text, read from a dict (``label`` and ``value`` are Python-level
#: properties of the enums: four calls per event).
_LABELS: Mapping[Decision, str] = {decision: decision.label for decision in Decision}
_KINDS: Mapping[EventKind, str] = {kind: kind.value for kind in EventKind}


def _reasons_json(evaluation: Evaluation) -> str:
    labels = _LABELS
    return _ENCODE_REASONS(
        [{"rule": r.rule, "source": r.source, "decision": labels[r.decision]} for r in evaluation.reasons]
    )


def _message(evaluation: Evaluation) -> str:
    message = evaluation.message
    redacted = redact(message) if type(message) is str else str(redact_value(message))
    return redacted[:1000]


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
    approver: str | None = None,
) -> AuditEvent:
    """An event for ``call``: the first reason is the one that decided."""
    first = evaluation.reasons[0] if evaluation.reasons else None
    raw = None
    if config.store_raw_arguments:
        raw = json.dumps(thaw(call.args), sort_keys=True, ensure_ascii=False, default=str)
    return AuditEvent(
        kind=_KINDS[kind],
        decision_id=decision_id,
        time=time,
        tool=call.tool,
        decision=_LABELS[evaluation.decision],
        resolver=resolver,
        rule=first.rule if first else "",
        source=first.source if first else "",
        message=_message(evaluation),
        reasons=_reasons_json(evaluation),
        args_hash=hasher.digest(call),
        summary=summarize(call),
        session=call.session,
        agent=call.agent,
        turn=call.turn,
        raw_args=raw,
        exit_code=exit_code,
        duration=duration,
        approver=approver,
        parent=call.parent,
    )


def resolution_event(
    request: ApprovalRequest, evaluation: Evaluation, *, resolver: str, time: float
) -> AuditEvent:
    """The ``resolved`` record of a parked request, built from the stored request alone, so
    whichever side writes it (the answering one, the expiring one, the waiter) writes the
    same thing; ``args_hash`` is the request's call key (the same keyed hash)."""
    first = evaluation.reasons[0] if evaluation.reasons else None
    return AuditEvent(
        kind=EventKind.RESOLVED.value,
        decision_id=request.id,
        time=time,
        tool=request.tool,
        decision=_LABELS[evaluation.decision],
        resolver=resolver,
        rule=first.rule if first else "",
        source=first.source if first else "",
        message=_message(evaluation),
        reasons=_reasons_json(evaluation),
        args_hash=request.call_key,
        summary=request.summary,
        session=request.session,
        agent=request.agent,
        turn=request.turn,
        approver=request.approver,
    )
