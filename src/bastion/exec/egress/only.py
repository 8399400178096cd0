"""A run's proxy reaches only the hosts its decision named: the profile's hosts, nothing else.

A contained run whose profile names hosts (``curl https://api.github.com``, an approved
``git push origin`` whose remote is on github.com) gets the egress proxy, and each
connection there is decided again by the gate; this wrapper adds that only a host the
decision saw may be reached: another one the command builds at run time (a redirect, a
built URL, a remote the configuration at run time names differently) is refused
(``exec.hosts-only``) even where ``[network]`` would allow it. A profile host with a port
(``github.com:22``, an ssh remote) admits that port only; a bare one, any port.

A run a person approved in Bastion's queue (``--approval ID``, checked against the approvals
store before the run starts: :mod:`bastion.runtime.approved_run`) is not asked again about
the hosts the approved request's own profile names: where the policy would ask, such a
connection is allowed (``exec.approved-host``, naming the request); a policy denial stays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from bastion.call.effects import Effect
from bastion.call.model import ToolCall
from bastion.policy.decision import MARKER_DENIED, Decision, Evaluation, Reason
from bastion.policy.judge import GateWrapper, Judge

RULE = "exec.hosts-only"
SOURCE = "exec tool"
#: A connection to a host of the approved request's profile (:class:`Approved`).
APPROVED_RULE = "exec.approved-host"


@dataclass(frozen=True, slots=True)
class Approved:
    """The approval a run rides on, as checked before it started: the request's id and the
    hosts its profile named (what the person was shown)."""

    request: str
    hosts: tuple[str, ...]


def connection_host(call: ToolCall) -> str:
    """The host of a connection the egress proxy asks its gate about (a ``fetch`` call)."""
    return (urlsplit(call.require_str("url")).hostname or "").lower()


def connection_port(call: ToolCall) -> int | None:
    parts = urlsplit(call.require_str("url"))
    return parts.port or {"http": 80, "https": 443}.get(parts.scheme)


def admits(hosts: Iterable[str], host: str, port: int | None) -> bool:
    """Does a profile's host list admit ``host:port``? (``h`` any port, ``h:p`` port p.)"""
    shown = f"[{host}]" if ":" in host else host
    for entry in hosts:
        name, colon, number = entry.rpartition(":")
        if colon and number.isdigit() and (":" not in name or name.endswith("]")):
            if name == shown and port == int(number):
                return True
        elif entry == host:
            return True
    return False


class HostsGate(GateWrapper):
    """The proxy's gate for one run: the policy's answer, for the decision's hosts only."""

    def __init__(self, inner: Judge, hosts: tuple[str, ...], approved: Approved | None = None) -> None:
        super().__init__(inner)
        self.hosts = frozenset(h.lower() for h in hosts)
        self.approved = approved

    def around(self, inner: Judge) -> HostsGate:
        return HostsGate(inner, tuple(self.hosts), self.approved)

    def judged(self, call: ToolCall, inner: Callable[[ToolCall], Evaluation]) -> Evaluation:
        try:
            host, port = connection_host(call), connection_port(call)
        except Exception as exc:  # fail closed
            return _deny("", f"not a connection this run may make: {exc}")
        if not admits(self.hosts, host, port):
            shown = ", ".join(sorted(self.hosts))
            where = host if port in (None, 80, 443) else f"{host}:{port}"
            return _deny(where, f"this run may reach only the hosts its decision saw ({shown}), not {where}")
        evaluation = inner(call)
        approved = self.approved
        if approved is None or evaluation.decision is not Decision.ASK:
            return evaluation  # the policy's allow or denial stands
        if not admits(approved.hosts, host, port):
            return evaluation
        where = host if port in (None, 80, 443) else f"{host}:{port}"
        request = approved.request
        message = f"a person approved request {request}, whose profile names {where}: not asked again"
        reason = Reason(Decision.ALLOW, APPROVED_RULE, f"request {request}", where, message)
        reasons = (reason, *evaluation.reasons)
        return Evaluation(Decision.ALLOW, reasons, evaluation.effects, None, evaluation.trace)


def _deny(matched: str, message: str) -> Evaluation:
    reason = Reason(Decision.DENY, RULE, SOURCE, matched, message)
    return Evaluation(Decision.DENY, (reason,), (Effect.NETWORK,), marker=MARKER_DENIED)
