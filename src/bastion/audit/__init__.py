"""The audit ledger: events, a hash chain over a store, redaction, keyed argument hashes.

The names load on first use: this package's modules import each other, and an
``__init__`` importing them all would sit in an import cycle with every one of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bastion.audit.events import AuditEvent, EventKind, LedgerRecord, make_event
    from bastion.audit.keyed import ArgumentHasher, load_or_create_key
    from bastion.audit.ledger import Ledger, VerifyResult, verify_records
    from bastion.audit.redact import REDACTIONS, redact, redact_value, summarize
    from bastion.audit.settings import AuditConfig
    from bastion.audit.sqlite import SqliteLedgerStore
    from bastion.audit.store import LedgerQuery, LedgerStore, MemoryLedgerStore

_WHERE = {
    "REDACTIONS": "bastion.audit.redact",
    "ArgumentHasher": "bastion.audit.keyed",
    "AuditConfig": "bastion.audit.settings",
    "AuditEvent": "bastion.audit.events",
    "EventKind": "bastion.audit.events",
    "Ledger": "bastion.audit.ledger",
    "LedgerQuery": "bastion.audit.store",
    "LedgerRecord": "bastion.audit.events",
    "LedgerStore": "bastion.audit.store",
    "MemoryLedgerStore": "bastion.audit.store",
    "SqliteLedgerStore": "bastion.audit.sqlite",
    "VerifyResult": "bastion.audit.ledger",
    "load_or_create_key": "bastion.audit.keyed",
    "make_event": "bastion.audit.events",
    "redact": "bastion.audit.redact",
    "redact_value": "bastion.audit.redact",
    "summarize": "bastion.audit.redact",
    "verify_records": "bastion.audit.ledger",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'bastion.audit' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "REDACTIONS",
    "ArgumentHasher",
    "AuditConfig",
    "AuditEvent",
    "EventKind",
    "Ledger",
    "LedgerQuery",
    "LedgerRecord",
    "LedgerStore",
    "MemoryLedgerStore",
    "SqliteLedgerStore",
    "VerifyResult",
    "load_or_create_key",
    "make_event",
    "redact",
    "redact_value",
    "summarize",
    "verify_records",
]
