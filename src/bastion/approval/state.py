"""The approval state machine: pure, no I/O, no clock.

PENDING is the only state with exits; every other state is final. An illegal transition
is a programming error and raises :class:`IllegalTransition`.
"""

from __future__ import annotations

from enum import StrEnum
from types import MappingProxyType

from bastion.errors import BastionError


class RequestState(StrEnum):
    PENDING = "pending"
    APPROVED_ONCE = "approved_once"
    APPROVED_ALWAYS = "approved_always"
    #: Approved once to run as written, outside the sandbox: a person's explicit choice.
    APPROVED_UNCONTAINED = "approved_uncontained"
    DENIED = "denied"
    EXPIRED = "expired"
    CANCELLED = "cancelled"

    @property
    def final(self) -> bool:
        return self is not RequestState.PENDING

    @property
    def approved(self) -> bool:
        return self in (
            RequestState.APPROVED_ONCE,
            RequestState.APPROVED_ALWAYS,
            RequestState.APPROVED_UNCONTAINED,
        )


class Action(StrEnum):
    """What can happen to a request: a person's (or a callback's) answer, expiry, or cancel."""

    APPROVE_ONCE = "approve_once"
    APPROVE_ALWAYS = "approve_always"
    APPROVE_UNCONTAINED = "approve_uncontained"
    DENY = "deny"
    EXPIRE = "expire"
    CANCEL = "cancel"


class IllegalTransition(BastionError):
    """A transition the state machine does not allow (e.g. approving a denied request)."""

    def __init__(self, state: RequestState, action: Action) -> None:
        self.state = state
        self.action = action
        super().__init__(f"cannot {action.value.replace('_', ' ')} a request that is {state.value}")


#: The whole machine as data: (state, action) -> next state.
TRANSITIONS: MappingProxyType[tuple[RequestState, Action], RequestState] = MappingProxyType(
    {
        (RequestState.PENDING, Action.APPROVE_ONCE): RequestState.APPROVED_ONCE,
        (RequestState.PENDING, Action.APPROVE_ALWAYS): RequestState.APPROVED_ALWAYS,
        (RequestState.PENDING, Action.APPROVE_UNCONTAINED): RequestState.APPROVED_UNCONTAINED,
        (RequestState.PENDING, Action.DENY): RequestState.DENIED,
        (RequestState.PENDING, Action.EXPIRE): RequestState.EXPIRED,
        (RequestState.PENDING, Action.CANCEL): RequestState.CANCELLED,
    }
)


def transition(state: RequestState, action: Action) -> RequestState:
    """The state after ``action``; raises IllegalTransition when it is not allowed."""
    try:
        return TRANSITIONS[(state, action)]
    except KeyError:
        raise IllegalTransition(state, action) from None
