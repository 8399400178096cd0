"""``[audit]``: what the ledger keeps of a call's arguments (bastion.audit.events), and
:func:`merge_audit`, which folds the layers' tables."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bastion.policy.tighten import ignored

if TYPE_CHECKING:
    from bastion.policy.layer import Layer


@dataclass(frozen=True, slots=True)
class AuditConfig:
    #: Store the raw (unredacted) arguments next to the keyed hash. Off by default: the
    #: ledger keeps metadata only (a keyed hash and a redacted summary).
    store_raw_arguments: bool = False


def merge_audit(layers: Iterable[Layer]) -> tuple[AuditConfig, tuple[str, ...]]:
    """The ``[audit]`` of the layers in order; an untrusted layer may not turn raw
    arguments on (it would copy every secret a call carries into the ledger)."""
    current, warnings = AuditConfig(), []
    for layer in layers:
        audit = layer.spec.audit
        if audit is None:
            continue
        if layer.trusted or not audit.store_raw_arguments:
            current = AuditConfig(store_raw_arguments=audit.store_raw_arguments)
        else:
            warnings.append(ignored(layer, "audit.store_raw_arguments"))
    return current, tuple(warnings)
