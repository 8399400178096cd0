"""Every proxied connection is a ``fetch`` call through the Gatekeeper: same rules, same
reasons, same approval queue, same ledger.

The proxy is part of the runner, below the runtime: it reaches the Gatekeeper only through
the two small interfaces here (:class:`GateOwner`, :class:`Asker`), which the Gatekeeper
satisfies. ``EgressGate`` asks for a sibling of the run's Gatekeeper that shares its
stores, ledger and clock but decides through ``ProxyGate``: the policy's own answer, then two checks the
proxy adds - the host's addresses (resolved once for the whole run, every one checked,
so a rebinding DNS answer cannot reach loopback, a private network or a metadata
endpoint), and the hold: a request to a held secret's host asks a person even where the
network policy would allow it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bastion.call.model import ToolCall
from bastion.exec.egress.held import HeldSecret, held_for
from bastion.exec.egress.net import PinnedResolver
from bastion.policy.compiled import Policy
from bastion.policy.decision import MARKER_DENIED, Decision, Evaluation, Reason
from bastion.policy.judge import GateWrapper, Judge
from bastion.policy.network import Resolver, decide_target
from bastion.policy.rule_ids import Origin
from bastion.policy.urls import IPAddress, UrlError, parse_target

SOURCE = "egress proxy"
#: Who may count as having approved a held host: a person, their callback or their grant.
_PERSON = frozenset({Origin.PERSON, Origin.CALLBACK, Origin.GRANT})


class Asker(Protocol):
    """What the proxy needs of the gate: ask about one connection (parking it for a person
    when the policy asks), and record one that was made."""

    policy: Policy

    async def request(
        self,
        call: ToolCall,
        *,
        timeout: float | None = None,
        on_parked: Callable[[Any], None] | None = None,
    ) -> Evaluation: ...

    def record_execution(
        self, call: ToolCall, evaluation: Evaluation, exit_code: int | None, duration: float
    ) -> None: ...


class GateOwner(Protocol):
    """The run's Gatekeeper as the proxy sees it: its gate, and a sibling over another."""

    gate: Judge

    def with_gate(self, gate: Judge) -> Asker: ...


def prepend(evaluation: Evaluation, reason: Reason, *, marker: str | None) -> Evaluation:
    """The same evaluation with a new deciding reason in front (earlier reasons kept)."""
    return Evaluation(
        reason.decision, (reason, *evaluation.reasons), evaluation.effects, marker, evaluation.trace
    )


def _by_person(evaluation: Evaluation) -> bool:
    return bool(evaluation.reasons) and evaluation.reasons[0].origin in _PERSON


def url_of(scheme: str, host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}:{port}/"


class ProxyGate(GateWrapper):
    """The inner gate's decision, tightened by the address check and the hold."""

    def __init__(self, inner: Judge, resolver: PinnedResolver, held: Sequence[HeldSecret]) -> None:
        super().__init__(inner)
        self.pinned = resolver
        self.held = tuple(held)

    def around(self, inner: Judge) -> ProxyGate:
        return ProxyGate(inner, self.pinned, self.held)

    def judged(self, call: ToolCall, inner: Callable[[ToolCall], Evaluation]) -> Evaluation:
        evaluation = inner(call)
        if evaluation.decision is Decision.DENY:
            return evaluation
        try:
            url = call.require_str("url")
            decision, reasons, target = decide_target(url, self.policy.network, self.pinned)
            if decision is Decision.DENY or target is None:
                return prepend(evaluation, reasons[0], marker=MARKER_DENIED)
            if target.address is None:
                self.pinned.resolve(target.host)
        except OSError as exc:
            reason = Reason(Decision.DENY, "egress.resolve", SOURCE, url, f"cannot resolve: {exc}")
            return prepend(evaluation, reason, marker=None)
        except Exception as exc:  # fail closed
            reason = Reason(Decision.DENY, "egress.error", SOURCE, "", f"{type(exc).__name__}: {exc}")
            return prepend(evaluation, reason, marker=None)
        names = [h.name for h in held_for(target.host, self.held)]
        if names:  # ALLOW becomes ASK; an ASK's card says what is at stake
            # The names come last: "NAME: ..." would read as a secret to the redactor.
            message = (
                f"a person approves the first request to {target.host}, which receives "
                f"the held credential {', '.join(names)}"
            )
            hold = Reason(Decision.ASK, "egress.hold", SOURCE, target.host, message)
            return prepend(evaluation, hold, marker=None)
        return evaluation


@dataclass(frozen=True, slots=True)
class Verdict:
    call: ToolCall
    evaluation: Evaluation
    #: The checked address to dial; None when the connection is refused.
    address: IPAddress | None
    #: Held secrets to put into requests to this host (approved by a person).
    held: tuple[HeldSecret, ...] = ()

    @property
    def allowed(self) -> bool:
        return self.evaluation.decision is Decision.ALLOW and self.address is not None


class EgressGate:
    """Decides connections for one sandboxed run."""

    def __init__(
        self,
        keeper: GateOwner,
        resolver: Resolver,
        *,
        held: Sequence[HeldSecret] = (),
        cwd: str = "/",
        agent: str | None = None,
        timeout: float | None = None,
        on_parked: Callable[[Any], None] | None = None,
        interactive: bool = True,
    ) -> None:
        self.pinned = PinnedResolver(resolver)
        self.held = tuple(held)
        self.keeper = keeper.with_gate(ProxyGate(keeper.gate, self.pinned, self.held))
        self.cwd, self.agent, self.timeout, self.on_parked = cwd, agent, timeout, on_parked
        self.interactive = interactive
        # A person's answer holds for the rest of the run: one question per host, not per
        # connection. Policy answers are re-derived each time (they cannot change).
        self._approved: dict[str, Evaluation] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def call_for(self, scheme: str, host: str, port: int, method: str) -> ToolCall:
        return ToolCall(
            tool="fetch",
            args={"url": url_of(scheme, host, port), "method": method},
            cwd=self.cwd,
            agent=self.agent,
            interactive=self.interactive,
        )

    async def decide(self, scheme: str, host: str, port: int, method: str) -> Verdict:
        call = self.call_for(scheme, host, port, method)
        key = call.require_str("url")
        # Resolve off the event loop (the gate then reads the pinned answer), and let
        # parallel connections to one host wait for one question instead of asking twice.
        with contextlib.suppress(OSError, UrlError):
            if parse_target(host).address is None:
                await asyncio.get_running_loop().run_in_executor(None, self.pinned.resolve, host)
        async with self._locks.setdefault(key, asyncio.Lock()):
            evaluation = self._approved.get(key)
            if evaluation is None:
                evaluation = await self.keeper.request(call, timeout=self.timeout, on_parked=self.on_parked)
                if evaluation.decision is Decision.ALLOW and _by_person(evaluation):
                    self._approved[key] = evaluation
        if evaluation.decision is not Decision.ALLOW:
            return Verdict(call, evaluation, None)
        address = self._address(host)
        if address is None:  # defensive: an allowed name is always resolved by then
            reason = Reason(Decision.DENY, "egress.resolve", SOURCE, host, f"cannot resolve {host}")
            return Verdict(call, prepend(evaluation, reason, marker=None), None)
        held = held_for(host, self.held) if key in self._approved else ()
        return Verdict(call, evaluation, address, held)

    def _address(self, host: str) -> IPAddress | None:
        answers = self.pinned.answers.get(host)
        if answers:
            return answers[0]
        try:
            found = decide_target(host, self.keeper.policy.network, None)[2]
        except Exception:
            return None
        return found.address if found is not None else None

    def record(
        self, verdict: Verdict, *, sent: int, received: int, duration: float, failed: str | None = None
    ) -> None:
        """The connection's ledger record: host, port, address, bytes - never a header."""
        target = verdict.call.require_str("url")
        what = f"{target} via {verdict.address}: {sent} bytes sent, {received} bytes received"
        if failed:
            what += f"; {failed}"
        reason = Reason(Decision.ALLOW, "egress.connection", SOURCE, target, what)
        closing = prepend(verdict.evaluation, reason, marker=None)
        self.keeper.record_execution(verdict.call, closing, 1 if failed else 0, duration)
