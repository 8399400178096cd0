"""The MCP gateway: ``bastion mcp proxy`` (any MCP server behind the policy), ``bastion mcp
serve`` (Bastion's own tools over MCP), ``bastion mcp install`` (agent configs), pins.

Translation only: every decision is the engine's, every approval and record the
Gatekeeper's. See each module's docstring for its part.
"""

from bastion.adapters.mcp.calls import Channel, McpCalls, refusal
from bastion.adapters.mcp.install import InstallError, InstallReport, install_agent
from bastion.adapters.mcp.pins import (
    MemoryPinStore,
    PinStore,
    Review,
    SqlitePinStore,
    ToolVersion,
    check_offer,
)
from bastion.adapters.mcp.proxy import McpProxy, ProxyOptions, run_proxy
from bastion.adapters.mcp.server import BastionToolServer, run_serve
from bastion.adapters.mcp.untrusted import SecretMask, mark_description, mark_result
from bastion.adapters.mcp.upstream import Upstream, UpstreamError, UpstreamSpec, default_name
from bastion.policy.mcp_args import (
    decide_mcp_extras,
    hiding_rule,
    mapped_values,
    rule_args_match,
)
from bastion.policy.settings import McpServerArgs

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
