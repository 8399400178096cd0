"""The ledger side of a resolution: one ``resolved`` record per parked request.

Whoever resolves a request (a person through the CLI, the page or the API, your
``on_permission`` code, an expiry, a cancel) records it at once through this, and so does
the waiter when it wakes: the store keeps the first (``append_once``), so a request whose
waiter died is recorded exactly once, and one whose waiter lives is not recorded twice.
"""

from __future__ import annotations

from bastion.approval.model import ApprovalRequest
from bastion.approval.outcome import final_evaluation, resolver_of
from bastion.audit.events import LedgerRecord, resolution_event
from bastion.audit.store import LedgerStore


class LedgerResolutions:
    """Implements :class:`bastion.approval.queue.Recorder` over a ledger store."""

    def __init__(self, store: LedgerStore) -> None:
        self.store = store

    def record(self, request: ApprovalRequest) -> None:
        self.write(request)

    def write(self, request: ApprovalRequest) -> LedgerRecord:
        if not request.state.final:
            raise ValueError(f"request {request.id} is still pending: nothing to record")
        evaluation = final_evaluation(request)
        event = resolution_event(
            request,
            evaluation,
            resolver=resolver_of(evaluation).value,
            time=request.resolved_at if request.resolved_at is not None else request.created,
        )
        return self.store.append_once(event)
