"""The audit ledger: events, a hash chain over a store, redaction, keyed argument hashes."""

from bastion.audit.events import AuditEvent, EventKind, LedgerRecord, make_event
from bastion.audit.keyed import ArgumentHasher, load_or_create_key
from bastion.audit.ledger import Ledger, VerifyResult, verify_records
from bastion.audit.redact import REDACTIONS, redact, redact_value, summarize
from bastion.audit.sqlite import SqliteLedgerStore
from bastion.audit.store import LedgerQuery, LedgerStore, MemoryLedgerStore
from bastion.policy.settings import AuditConfig

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
