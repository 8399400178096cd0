"""Approvals: a pure state machine, the queue over a Store, standing grants, the
repeat-failure guard and per-session limits.

The names load on first use: this package's modules import each other, and an
``__init__`` importing them all would sit in an import cycle with every one of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bastion.approval.clock import Clock, FakeClock, SystemClock
    from bastion.approval.memory import MemoryStore
    from bastion.approval.model import (
        ApprovalRequest,
        FailureRecord,
        Grant,
        PermissionDecision,
        Resolver,
        Scope,
        Usage,
    )
    from bastion.approval.outcome import resolver_of
    from bastion.approval.queue import AnswerError, ApprovalQueue
    from bastion.approval.settings import LimitsConfig
    from bastion.approval.sqlite import SqliteStore
    from bastion.approval.state import Action, IllegalTransition, RequestState, transition
    from bastion.approval.store import Resolution, Store

_WHERE = {
    "Action": "bastion.approval.state",
    "AnswerError": "bastion.approval.queue",
    "ApprovalQueue": "bastion.approval.queue",
    "ApprovalRequest": "bastion.approval.model",
    "Clock": "bastion.approval.clock",
    "FailureRecord": "bastion.approval.model",
    "FakeClock": "bastion.approval.clock",
    "Grant": "bastion.approval.model",
    "IllegalTransition": "bastion.approval.state",
    "LimitsConfig": "bastion.approval.settings",
    "MemoryStore": "bastion.approval.memory",
    "PermissionDecision": "bastion.approval.model",
    "RequestState": "bastion.approval.state",
    "Resolution": "bastion.approval.store",
    "Resolver": "bastion.approval.model",
    "Scope": "bastion.approval.model",
    "SqliteStore": "bastion.approval.sqlite",
    "Store": "bastion.approval.store",
    "SystemClock": "bastion.approval.clock",
    "Usage": "bastion.approval.model",
    "resolver_of": "bastion.approval.outcome",
    "transition": "bastion.approval.state",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'bastion.approval' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "Action",
    "AnswerError",
    "ApprovalQueue",
    "ApprovalRequest",
    "Clock",
    "FailureRecord",
    "FakeClock",
    "Grant",
    "IllegalTransition",
    "LimitsConfig",
    "MemoryStore",
    "PermissionDecision",
    "RequestState",
    "Resolution",
    "Resolver",
    "Scope",
    "SqliteStore",
    "Store",
    "SystemClock",
    "Usage",
    "resolver_of",
    "transition",
]
