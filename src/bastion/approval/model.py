"""Values the approval queue stores and hands around: requests, grants, counters."""

from __future__ import annotations

import base64
import json
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal

from bastion.approval.state import RequestState
from bastion.call.effects import HARDLINE_EFFECTS, Effect
from bastion.policy.decision import Evaluation

#: Characters an id may not start with: a leading ``-`` reads as an option on a command line
#: (``bastion approvals approve -x…``), and ``_`` is kept out with it for symmetry.
_BAD_FIRST = frozenset("-_")


def new_id(source: Callable[[int], bytes] = secrets.token_bytes) -> str:
    """An unguessable id: 128 random bits, URL-safe base64 (22 characters), never starting
    with ``-`` or ``_``. Draws again until the first character is a letter or digit
    (rejection keeps the ids uniform over what is allowed; 1 in 32 draws is redone)."""
    while True:
        text = base64.urlsafe_b64encode(source(16)).rstrip(b"=").decode("ascii")
        if text[0] not in _BAD_FIRST:
            return text


#: Effects no standing grant may ever cover: every hardline class (see
#: ``bastion.call.effects.HARDLINE_EFFECTS``, the shell floor classes) and raised
#: privilege, which the shell policy also puts on the floor (``sudo``, ``doas``, package
#: managers). One set, read by :func:`grantable`.
NON_GRANTABLE_EFFECTS: frozenset[Effect] = HARDLINE_EFFECTS | {Effect.PRIVILEGE}


def grantable(evaluation: Evaluation) -> bool:
    """May a standing grant ever answer this call? Never when a non-grantable class is
    involved. The one test every path uses: building a request, answering it (CLI, HTTP,
    page, callback) and matching a grant."""
    return not NON_GRANTABLE_EFFECTS.intersection(evaluation.effects)


def iso(ts: float | None) -> str | None:
    """ISO-8601 UTC with milliseconds, e.g. ``2024-05-01T12:00:00.123Z``."""
    if ts is None:
        return None
    text = datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds")
    return text.replace("+00:00", "Z")


#: The ``approver`` of a resolution nobody answered (its time ran out) or that was cancelled,
#: or that your code answered (``on_permission``).
EXPIRY = "expiry"
CANCEL = "cancel"
CALLBACK = "callback"
LOCAL_PREFIX = "local:"


class Resolver(StrEnum):
    """Who decided: the ledger's ``resolver`` column and the first reason's rule prefix."""

    POLICY = "policy"
    GRANT = "grant"
    PERSON = "person"
    TIMEOUT = "timeout"
    CALLBACK = "callback"
    LIMIT = "limit"
    BREAKER = "breaker"
    CANCEL = "cancel"
    #: An ASK handed to the agent's own prompt (its user answers there, not in Bastion).
    AGENT = "agent"


class Deadline(StrEnum):
    """What ends a parked call's wait first: the policy's ``ttl_seconds``, or the caller's own
    timeout when it is shorter (an agent's hook is killed by its agent at its timeout)."""

    POLICY = "policy"
    CALLER = "caller"


class Scope(StrEnum):
    PROJECT = "project"
    SESSION = "session"


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    """A parked call. ``summary`` and ``argv`` are redacted; raw arguments are never stored.

    ``call_key`` is the keyed hash of the exact call (what an exact grant matches);
    ``project`` is the project-scope value the requester computed (its policy file or cwd);
    ``folder`` is the folder the call runs in (its cwd: what a person knows as the project);
    ``deadline`` says what ends the wait at ``expires``.
    """

    id: str
    created: float
    expires: float
    tool: str
    summary: str
    reason: str
    evaluation: Evaluation
    call_key: str
    project: str
    session: str | None = None
    agent: str | None = None
    turn: str | None = None
    argv: tuple[str, ...] | None = None
    grantable: bool = True
    suggested_pattern: str | None = None
    state: RequestState = RequestState.PENDING
    resolved_at: float | None = None
    resolver: str | None = None
    feedback: str | None = None
    grant_id: str | None = None
    #: Who answered: an approver key's id, ``local:<user>``, ``callback``, ``expiry``, ``cancel``.
    approver: str | None = None
    folder: str | None = None
    deadline: Deadline = Deadline.POLICY

    @property
    def offer(self) -> dict[str, Any]:
        """The grant scope on offer: what ``approve --always`` may create, or why not."""
        if not (self.grantable and grantable(self.evaluation)):
            return {
                "grantable": False,
                "scopes": [],
                "note": "hardline class or raised privilege: never a standing grant",
            }
        scopes = [Scope.PROJECT.value] + ([Scope.SESSION.value] if self.session else [])
        return {
            "grantable": True,
            "scopes": scopes,
            "exact": self.summary,
            "suggested_pattern": self.suggested_pattern,
        }

    @property
    def profile(self) -> dict[str, Any] | None:
        """The sandbox profile the call runs in once approved, as the decision carries it
        (hosts included): what the person is shown it may touch. None: it would run as
        written, outside any sandbox (``[exec] contain``, or a call no hook can contain)."""
        profile = self.evaluation.profile
        return None if profile is None else profile.to_json()

    def to_json(self) -> dict[str, Any]:
        """The ``approvals list --json`` shape (plus detail keys after the contract ones)."""
        return {
            "id": self.id,
            "state": self.state.value,
            "tool": self.tool,
            "summary": self.summary,
            "reason": self.reason,
            "created": iso(self.created),
            "expires": iso(self.expires),
            "session": self.session,
            "agent": self.agent,
            "offer": self.offer,
            "resolved": iso(self.resolved_at),
            "resolver": self.resolver,
            "feedback": self.feedback,
            "grant": self.grant_id,
            "profile": self.profile,
            "approver": self.approver,
        }


@dataclass(frozen=True, slots=True)
class Grant:
    """A standing "always allow": an exact call (``key``) or a command prefix (``pattern``)."""

    id: str
    tool: str
    scope: Scope
    scope_value: str
    summary: str
    created: float
    key: str | None = None  # exact grants: the call's keyed hash
    pattern: str | None = None  # prefix grants (shell only): "git push origin *"
    request_id: str | None = None

    @property
    def kind(self) -> Literal["exact", "pattern"]:
        return "exact" if self.pattern is None else "pattern"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "tool": self.tool,
            "scope": self.scope.value,
            "scope_value": self.scope_value,
            "pattern": self.pattern,
            "summary": self.summary,
            "created": iso(self.created),
            "request": self.request_id,
        }


@dataclass(frozen=True, slots=True)
class Usage:
    """A session's counters including the call being decided. ``minute_calls`` counts the
    calls let through in the last minute (this one included); ``minute_refused`` the
    refused ones, which no limit counts (a refused retry must not lock an agent out)."""

    turn_calls: int = 0
    turn_started: float | None = None
    minute_calls: int = 0
    minute_refused: int = 0


@dataclass(frozen=True, slots=True)
class FailureRecord:
    """How often one exact call failed in a session, how many of those were hard rejects,
    and when the last one was (the breaker's cooldown counts from it)."""

    failures: int = 0
    hard: int = 0
    last: float | None = None


@dataclass(frozen=True, slots=True)
class PermissionDecision:
    """An ``on_permission`` callback's answer (seed 004): once, always, or reject + feedback."""

    kind: Literal["once", "always", "reject"]
    feedback: str | None = None
    pattern: str | None = None
    scope: Scope = Scope.PROJECT

    @classmethod
    def coerce(cls, value: object) -> PermissionDecision:
        """Accept a PermissionDecision or a ``{"kind": …, "feedback": …}`` mapping."""
        if isinstance(value, PermissionDecision):
            return value
        if isinstance(value, Mapping):
            kind = value.get("kind")
            if kind not in ("once", "always", "reject"):
                raise ValueError(f"permission decision kind must be once, always or reject, not {kind!r}")
            feedback = value.get("feedback")
            pattern = value.get("pattern")
            return cls(
                kind=kind,
                feedback=None if feedback is None else str(feedback),
                pattern=None if pattern is None else str(pattern),
                scope=Scope(str(value.get("scope", "project"))),
            )
        raise ValueError(f"a permission decision must be a mapping, not {type(value).__name__}")


def evaluation_json(evaluation: Evaluation) -> str:
    return json.dumps(evaluation.to_json(), sort_keys=True, ensure_ascii=False)
