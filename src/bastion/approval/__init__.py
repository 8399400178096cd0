"""Approvals: a pure state machine, the queue over a Store, standing grants, the
repeat-failure guard and per-session limits."""

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
from bastion.approval.sqlite import SqliteStore
from bastion.approval.state import Action, IllegalTransition, RequestState, transition
from bastion.approval.store import Resolution, Store
from bastion.policy.settings import LimitsConfig

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
