"""Delegated agents: child sessions under their parent's ceiling and a share of its limits.

A session may start children (the Python API's ``Gatekeeper.child``; an agent's subagent,
seen by the hooks as the parent's session id plus the subagent's ``agent_id``). A child:

* gets the parent's ceiling or a stricter one; asking for a looser one is refused
  (:class:`DelegationRefused`), and so is restarting a child with a looser ceiling than it
  had: a restart, a replacement or a failover keeps the ceiling (it can only be lowered);
* gets ``share`` (0 < share <= 1) of the parent's limits as its own, and every call it makes
  counts toward its parent's limits (and theirs, up to the top-level session) as well, so a
  family of sessions together never exceeds the top-level session's budget;
* is linked to its parent in the ledger (the ``parent`` of every record of its calls).

The registry is per Gatekeeper (no process-global state). A call that names a ``parent``
whose session was never registered is an implicit child: the parent's ceiling, and
``DEFAULT_SHARE`` of its limits, every time (what a hook, which remembers nothing between
calls, needs).
"""

from __future__ import annotations

import dataclasses
import math
import secrets
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from bastion.approval.settings import LimitsConfig
from bastion.errors import BastionError
from bastion.policy.decision import Reason

if TYPE_CHECKING:
    from bastion.approval.model import Usage
    from bastion.approval.store import Store
    from bastion.call.model import ToolCall
    from bastion.policy.ceiling import Ceiling
    from bastion.policy.judge import Judge

#: The share of its parent's limits a child gets when none is given: all of them, which
#: its calls also use up (a subagent under a hook counted toward its parent before too).
DEFAULT_SHARE = 1.0
#: How deep children may nest: deeper is refused, as a runaway chain of delegations.
MAX_DEPTH = 16


class DelegationRefused(BastionError):
    """A child that would raise its ceiling or its limits, or cannot be placed."""

    hint = "give the child the parent's ceiling or a stricter one, and a share of at most 1"


@dataclass(frozen=True, slots=True)
class Delegation:
    """A child session: who its parent is, what it may do, and its own limits.

    ``ceiling`` None means exactly the top-level policy's ceiling (nothing narrowed it on
    the way down); ``depth`` is 1 for a child of a top-level session."""

    parent: str
    session: str
    ceiling: Ceiling | None
    limits: LimitsConfig
    share: float
    depth: int = 1


def share_of(limits: LimitsConfig, share: float, *, child: str) -> LimitsConfig:
    """``share`` of each budget (a count at least 1); an unset limit stays unset; the
    breaker's cooldown is kept (shortening it would loosen it)."""

    def part(value: float | None) -> float | None:
        return None if value is None else value * share

    def count(value: int | None) -> int | None:
        return None if value is None else max(1, math.floor(value * share))

    if share == 1.0:
        return limits
    return LimitsConfig(
        max_calls_per_turn=count(limits.max_calls_per_turn),
        max_turn_duration=part(limits.max_turn_duration),
        calls_per_minute=count(limits.calls_per_minute),
        breaker_cooldown=limits.breaker_cooldown,
        source=f"{limits.source} x {share:g} (delegated to {child})",
    )


def check_share(share: float) -> float:
    if isinstance(share, bool) or not isinstance(share, int | float) or not math.isfinite(share):
        raise DelegationRefused(f"a child's share of its parent's limits must be a number, not {share!r}")
    if share > 1:
        raise DelegationRefused(f"a child may not get more than its parent's limits: share {share:g} > 1")
    if share <= 0:
        raise DelegationRefused(f"a child's share of its parent's limits must be above 0, not {share:g}")
    return float(share)


def ceiling_of_policy(gate: Judge) -> Ceiling:
    """The top-level ceiling (no ``[ceiling]``: the one that adds nothing)."""
    from bastion.policy.ceiling import NO_CEILING

    found = gate.policy.ceiling
    return NO_CEILING if found is None else found


def looser(requested: Ceiling, allowed: Ceiling) -> tuple[str, ...]:
    """The dimensions in which ``requested`` is more permissive than ``allowed``."""
    return tuple(
        f"{name}: {getattr(requested, name).value} is looser than {getattr(allowed, name).value}"
        for name in requested.violations(allowed)
    )


class Owner(Protocol):
    """What the registry reads from its Gatekeeper, each time (a reload may swap them)."""

    gate: Judge
    limits: LimitsConfig


class Delegations:
    """The child sessions one Gatekeeper knows, and what each may do."""

    def __init__(self, owner: Owner) -> None:
        self.owner = owner
        self._children: dict[str, Delegation] = {}
        self._gates: dict[tuple[str, str, str], tuple[Judge, Judge]] = {}  # ceiling → (base, gate)
        self._lock = threading.Lock()

    @property
    def gate(self) -> Judge:
        return self.owner.gate

    @property
    def limits(self) -> LimitsConfig:
        return self.owner.limits

    # -- registering ---------------------------------------------------------------------
    def child(
        self,
        parent: str,
        *,
        ceiling: Ceiling | None = None,
        share: float | None = None,
        session: str | None = None,
    ) -> Delegation:
        """Start (or restart) a child of ``parent``; raises DelegationRefused when it would
        raise the ceiling or the limits. ``session`` names the child (default: a new id
        under the parent's); naming an existing child restarts it, never looser."""
        if not isinstance(parent, str) or not parent:
            raise DelegationRefused("a child needs its parent's session id")
        name = session or f"{parent}/{secrets.token_hex(4)}"
        if name == parent:
            raise DelegationRefused(f"session {parent!r} cannot be its own child")
        with self._lock:
            above = self._children.get(parent)
            if above is not None and self._in_chain(above, name):
                raise DelegationRefused(f"session {name!r} is an ancestor of {parent!r}: no cycles")
            depth = 1 if above is None else above.depth + 1
            if depth > MAX_DEPTH:
                raise DelegationRefused(f"children nest at most {MAX_DEPTH} deep")
            known = self._children.get(name)
            if known is not None and known.parent != parent:
                raise DelegationRefused(f"session {name!r} is already a child of {known.parent!r}")
            delegation = self._place(parent, name, above, known, ceiling, share, depth)
            self._children[name] = delegation
            return delegation

    def _place(
        self,
        parent: str,
        name: str,
        above: Delegation | None,
        known: Delegation | None,
        ceiling: Ceiling | None,
        share: float | None,
        depth: int,
    ) -> Delegation:
        parent_limits = self.limits if above is None else above.limits
        inherited = None if above is None else above.ceiling
        if known is not None:  # a restart: measured against what the child already had
            inherited, share = known.ceiling, known.share if share is None else share
        fraction = check_share(DEFAULT_SHARE if share is None else share)
        if known is not None and fraction > known.share:
            raise DelegationRefused(
                f"child {name!r} had share {known.share:g} of its parent's "
                f"limits: a restart may not raise it to {fraction:g}"
            )
        effective = inherited
        if ceiling is not None:
            allowed = inherited or ceiling_of_policy(self.gate)
            raised = looser(ceiling, allowed)
            if raised:
                what = "its parent" if known is None else "it had before (a restart keeps it)"
                raise DelegationRefused(
                    f"child {name!r} may not get a looser ceiling than {what} "
                    f"({allowed.text()}): " + "; ".join(raised)
                )
            effective = None if ceiling == ceiling_of_policy(self.gate) else ceiling
        return Delegation(
            parent, name, effective, share_of(parent_limits, fraction, child=name), fraction, depth
        )

    def _in_chain(self, start: Delegation, session: str) -> bool:
        node: Delegation | None = start
        while node is not None:
            if node.session == session or node.parent == session:
                return True
            node = self._children.get(node.parent)
        return False

    # -- looking up ----------------------------------------------------------------------
    def of(self, call: ToolCall) -> Delegation | None:
        """The delegation ``call`` is made under: its session's registered one, or an
        implicit child of the ``parent`` it names; None for a top-level call."""
        if call.session is None:
            return None
        with self._lock:
            found = self._children.get(call.session)
            if found is not None or not call.parent:
                return found
            above = self._children.get(call.parent)
        if call.parent == call.session:
            return None
        return Delegation(
            call.parent,
            call.session,
            None if above is None else above.ceiling,
            share_of(self.limits if above is None else above.limits, DEFAULT_SHARE, child=call.session),
            DEFAULT_SHARE,
            1 if above is None else above.depth + 1,
        )

    def bind(self, call: ToolCall) -> ToolCall:
        """``call`` with the ``parent`` its registered session has (what the ledger records)."""
        delegation = self.of(call)
        if delegation is None or call.parent == delegation.parent:
            return call
        return dataclasses.replace(call, parent=delegation.parent)

    def ancestors(self, delegation: Delegation) -> list[tuple[str, LimitsConfig]]:
        """Every session above ``delegation``, nearest first, with its own limits."""
        out: list[tuple[str, LimitsConfig]] = []
        session = delegation.parent
        with self._lock:
            while True:
                above = self._children.get(session)
                out.append((session, self.limits if above is None else above.limits))
                if above is None or len(out) > MAX_DEPTH:
                    return out
                session = above.parent

    def gate_for(self, delegation: Delegation | None) -> Judge:
        """The gate that decides the child's calls: the policy's, with the child's ceiling."""
        base = self.gate
        if delegation is None or delegation.ceiling is None:
            return base
        key = delegation.ceiling.as_tuple()
        with self._lock:
            found = self._gates.get(key)
            if found is None or found[0] is not base:  # built over a gate since replaced
                found = self._gates[key] = (base, _narrowed_gate(base, delegation))
            return found[1]

    # -- limits --------------------------------------------------------------------------
    def limit(
        self, store: Store, delegation: Delegation, call: ToolCall, usage: Usage, *, now: float, admit: bool
    ) -> Reason | None:
        """The first limit the call trips: the child's own (``usage``), then each ancestor's,
        where the call is counted too (admitted when ``admit``, else only peeked)."""
        from bastion.approval.guard import limit_reason

        found = limit_reason(usage, delegation.limits, now=now)
        if found is not None:
            return found
        for session, limits in self.ancestors(delegation):
            counted = (store.admit_call if admit else store.peek_usage)(session, call.turn, now)
            found = limit_reason(counted, limits, now=now)
            if found is not None:
                return dataclasses.replace(
                    found,
                    message=f"{found.message} (the limits of parent "
                    f"session {session}, which its children share)",
                )
        return None

    def sessions_above(self, call: ToolCall) -> list[str]:
        """The ancestors' session ids of ``call`` (where a refusal is counted apart too)."""
        delegation = self.of(call)
        return [] if delegation is None else [s for s, _ in self.ancestors(delegation)]


def _narrowed_gate(gate: Judge, delegation: Delegation) -> Judge:
    assert delegation.ceiling is not None
    source = f"delegation: ceiling of child session {delegation.session} (parent {delegation.parent})"
    policy = dataclasses.replace(gate.policy, ceiling=delegation.ceiling, ceiling_source=source)
    return gate.over(policy)
