"""The MCP gateway: ``bastion mcp proxy`` (any MCP server behind the policy), ``bastion mcp
serve`` (Bastion's own tools over MCP), ``bastion mcp install`` (agent configs), pins.

Translation only: every decision is the engine's, every approval and record the
Gatekeeper's. See each module's docstring for its part.

The names load on first use: this package's modules import each other, and an
``__init__`` importing them all would sit in an import cycle with every one of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bastion.adapters.mcp.calls import Channel, McpCalls, refusal
    from bastion.adapters.mcp.install import InstallError, InstallReport, install_agent
    from bastion.adapters.mcp.proxy import McpProxy, ProxyOptions, run_proxy
    from bastion.adapters.mcp.server import BastionToolServer, run_serve
    from bastion.adapters.mcp.untrusted import SecretMask, mark_description, mark_result
    from bastion.adapters.mcp.upstream import Upstream, UpstreamError, UpstreamSpec, default_name
    from bastion.policy.compiled import McpServerArgs
    from bastion.policy.mcp_args import decide_mcp_extras, hiding_rule, mapped_values, rule_args_match
    from bastion.state.pins import MemoryPinStore, PinStore, Review, SqlitePinStore, ToolVersion, check_offer

_WHERE = {
    "BastionToolServer": "bastion.adapters.mcp.server",
    "Channel": "bastion.adapters.mcp.calls",
    "InstallError": "bastion.adapters.mcp.install",
    "InstallReport": "bastion.adapters.mcp.install",
    "McpCalls": "bastion.adapters.mcp.calls",
    "McpProxy": "bastion.adapters.mcp.proxy",
    "McpServerArgs": "bastion.policy.compiled",
    "MemoryPinStore": "bastion.state.pins",
    "PinStore": "bastion.state.pins",
    "ProxyOptions": "bastion.adapters.mcp.proxy",
    "Review": "bastion.state.pins",
    "SecretMask": "bastion.adapters.mcp.untrusted",
    "SqlitePinStore": "bastion.state.pins",
    "ToolVersion": "bastion.state.pins",
    "Upstream": "bastion.adapters.mcp.upstream",
    "UpstreamError": "bastion.adapters.mcp.upstream",
    "UpstreamSpec": "bastion.adapters.mcp.upstream",
    "check_offer": "bastion.state.pins",
    "decide_mcp_extras": "bastion.policy.mcp_args",
    "default_name": "bastion.adapters.mcp.upstream",
    "hiding_rule": "bastion.policy.mcp_args",
    "install_agent": "bastion.adapters.mcp.install",
    "mapped_values": "bastion.policy.mcp_args",
    "mark_description": "bastion.adapters.mcp.untrusted",
    "mark_result": "bastion.adapters.mcp.untrusted",
    "refusal": "bastion.adapters.mcp.calls",
    "rule_args_match": "bastion.policy.mcp_args",
    "run_proxy": "bastion.adapters.mcp.proxy",
    "run_serve": "bastion.adapters.mcp.server",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'bastion.adapters.mcp' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "BastionToolServer",
    "Channel",
    "InstallError",
    "InstallReport",
    "McpCalls",
    "McpProxy",
    "McpServerArgs",
    "MemoryPinStore",
    "PinStore",
    "ProxyOptions",
    "Review",
    "SecretMask",
    "SqlitePinStore",
    "ToolVersion",
    "Upstream",
    "UpstreamError",
    "UpstreamSpec",
    "check_offer",
    "decide_mcp_extras",
    "default_name",
    "hiding_rule",
    "install_agent",
    "mapped_values",
    "mark_description",
    "mark_result",
    "refusal",
    "rule_args_match",
    "run_proxy",
    "run_serve",
]
