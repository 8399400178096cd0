"""Network for a contained run whose profile names hosts: the egress proxy, to those hosts.

A shell call the policy allowed with the hosts it names (``curl https://api.github.com``)
gets a ``hosts`` profile. Without a proxy such a run has no network at all (fail closed,
``bastion.exec.bubblewrap.network_of``); with one, each connection is decided again, and
only a host the decision saw may be reached: another one the command builds at run time
is refused (``exec.hosts-only``) even where ``[network]`` would allow it.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from bastion.call.effects import Effect
from bastion.call.model import ToolCall
from bastion.exec.runner import RunSpec
from bastion.policy.decision import MARKER_DENIED, Decision, Evaluation, Reason
from bastion.policy.judge import GateWrapper, Judge

if TYPE_CHECKING:
    from bastion.runtime import Gatekeeper
    from bastion.tools.base import ToolContext

SOURCE = "exec tool"


class HostsGate(GateWrapper):
    """The proxy's gate for one run: the policy's answer, for the decision's hosts only."""

    def __init__(self, inner: Judge, hosts: tuple[str, ...]) -> None:
        super().__init__(inner)
        self.hosts = frozenset(h.lower() for h in hosts)

    def around(self, inner: Judge) -> HostsGate:
        return HostsGate(inner, tuple(self.hosts))

    def judged(self, call: ToolCall, inner: Callable[[ToolCall], Evaluation]) -> Evaluation:
        try:
            host = connection_host(call)
        except Exception as exc:  # fail closed
            return _deny("", f"not a connection this run may make: {exc}")
        if host not in self.hosts:
            shown = ", ".join(sorted(self.hosts))
            return _deny(host, f"this run may reach only the hosts its decision saw ({shown}), not {host}")
        return inner(call)


def connection_host(call: ToolCall) -> str:
    """The host of a connection the egress proxy asks its gate about (a ``fetch`` call)."""
    return (urlsplit(call.require_str("url")).hostname or "").lower()


def _deny(matched: str, message: str) -> Evaluation:
    reason = Reason(Decision.DENY, "exec.hosts-only", SOURCE, matched, message)
    return Evaluation(Decision.DENY, (reason,), (Effect.NETWORK,), marker=MARKER_DENIED)


def keeper_of(authorizer: object) -> Gatekeeper | None:
    """The Gatekeeper behind the tools' authorizer (itself, or an adapter's ``.keeper``)."""
    from bastion.runtime import Gatekeeper

    for candidate in (authorizer, getattr(authorizer, "keeper", None)):
        if isinstance(candidate, Gatekeeper):
            return candidate
    return None


def with_egress(
    stack: contextlib.ExitStack, ctx: ToolContext, call: ToolCall, spec: RunSpec, hosts: tuple[str, ...]
) -> RunSpec:
    """``spec`` behind an egress proxy (held for the life of ``stack``) that reaches only
    ``hosts``; every connection is decided and recorded by a sibling of the tools' keeper."""
    from bastion.construct import open_gatekeeper
    from bastion.construct import sibling as sibling_of
    from bastion.exec.egress.session import EgressSession

    keeper = keeper_of(ctx.authorizer)
    if keeper is None:
        keeper = stack.enter_context(open_gatekeeper(ctx.configuration))
    sibling = sibling_of(keeper, HostsGate(keeper.gate, hosts))
    session: Any = EgressSession(
        sibling, resolver=ctx.resolver, dialer=ctx.dialer, cwd=call.cwd, agent=call.agent or "exec",
        interactive=False,
    )  # fmt: skip
    binding = stack.enter_context(session).binding
    return dataclasses.replace(spec, network=False, egress=binding)
