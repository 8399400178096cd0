"""Ledger events for a person changing settings (the settings page, ``POST /v1/settings``,
a grant revoked): who changed what, in which file, with no tool call behind it.

Such an event's ``kind`` is ``settings``; its ``decision`` is the outcome (``applied``, or
``not-applied`` when the file could not be written after the change was recorded), its
``approver`` the key that made it, and ``raw_args`` the change itself (the person's own
settings: folders and a mode, never a secret). Readers of decisions skip the kind.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from bastion.audit.events import AuditEvent, EventKind
from bastion.audit.redact import redact


class ChangeOutcome(StrEnum):
    APPLIED = "applied"
    NOT_APPLIED = "not-applied"


#: The ``rule`` of each kind of change.
SETTINGS_RULE = "settings.change"
REVOKE_RULE = "settings.revoke_grant"


def settings_event(
    change: Mapping[str, Any],
    *,
    rule: str,
    decision_id: str,
    time: float,
    approver: str,
    source: str,
    summary: str,
    message: str,
    outcome: ChangeOutcome = ChangeOutcome.APPLIED,
) -> AuditEvent:
    """One settings change: ``change`` is what was set (JSON), ``source`` where."""
    text = json.dumps(dict(change), sort_keys=True, ensure_ascii=False)
    return AuditEvent(
        kind=EventKind.SETTINGS.value,
        decision_id=decision_id,
        time=time,
        tool="settings",
        decision=outcome.value,
        resolver="person",
        rule=rule,
        source=source,
        message=redact(message)[:1000],
        reasons=json.dumps([{"rule": rule, "source": source, "decision": outcome.value}]),
        args_hash=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        summary=redact(summary)[:500],
        raw_args=text,
        approver=approver,
    )
