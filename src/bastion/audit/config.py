"""Configuration values for the audit ledger (the policy's ``[audit]`` table)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class AuditConfig:
    #: Store the raw (unredacted) arguments next to the keyed hash. Off by default: the
    #: ledger keeps metadata only (a keyed hash and a redacted summary).
    store_raw_arguments: bool = False
