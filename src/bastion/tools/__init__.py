"""The reference tools: each decided by the gate first, code run inside the sandbox.

The names load on first use: this package's modules import each other, and an
``__init__`` importing them all would sit in an import cycle with every one of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bastion.tools.base import Authorizer, GateAuthorizer, Tool, ToolContext, ToolError, ToolResult
    from bastion.tools.catalog import TOOL_CLASSES, disabled, registry
    from bastion.tools.runtimes import Runtime, detect_runtimes

_WHERE = {
    "TOOL_CLASSES": "bastion.tools.catalog",
    "Authorizer": "bastion.tools.base",
    "GateAuthorizer": "bastion.tools.base",
    "Runtime": "bastion.tools.runtimes",
    "Tool": "bastion.tools.base",
    "ToolContext": "bastion.tools.base",
    "ToolError": "bastion.tools.base",
    "ToolResult": "bastion.tools.base",
    "detect_runtimes": "bastion.tools.runtimes",
    "disabled": "bastion.tools.catalog",
    "registry": "bastion.tools.catalog",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'bastion.tools' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


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
