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
from typing import TYPE_CHECKING, Any

from bastion.call.model import ToolCall
from bastion.exec.egress.only import HostsGate, connection_host
from bastion.exec.runner import RunSpec

if TYPE_CHECKING:
    from bastion.runtime import Gatekeeper
    from bastion.tools.base import ToolContext

__all__ = ["HostsGate", "connection_host", "keeper_of", "with_egress"]


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
