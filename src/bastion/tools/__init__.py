"""The reference tools: each decided by the gate first, code run inside the sandbox."""

from bastion.tools.base import (
    Authorizer,
    GateAuthorizer,
    Tool,
    ToolContext,
    ToolError,
    ToolResult,
)
from bastion.tools.catalog import TOOL_CLASSES, disabled, registry
from bastion.tools.runtimes import Runtime, detect_runtimes

__all__ = [
    "TOOL_CLASSES",
    "Authorizer",
    "GateAuthorizer",
    "Runtime",
    "Tool",
    "ToolContext",
    "ToolError",
    "ToolResult",
    "detect_runtimes",
    "disabled",
    "registry",
]
