"""``enabled = ["read", "grep", …]``: the tools a policy offers the model (absent: all).

The names are Bastion's own tools (``bastion tools``), listed here as data so the core can
check a policy file without importing the tools. A name not in ``TOOL_NAMES`` is a load
error naming the file, line and key; a tool left out is absent from every schema
(``bastion tools``, ``mcp serve``, the framework guards) and a call to it is denied as
unknown. Layers: a trusted file sets the list; an untrusted project file may only narrow it.
"""

from __future__ import annotations

from bastion.errors import PolicyError
from bastion.policy.layer import Layer

#: Every tool name a policy may enable, in catalog order (session and job: issue #19's
#: interactive session and background job tools).
TOOL_NAMES: tuple[str, ...] = (
    "read", "write", "edit", "multi_edit", "list", "glob", "grep", "exec", "code", "fetch",
    "install", "detect_tools", "session", "job",
)  # fmt: skip


def unknown_names(names: tuple[str, ...]) -> list[str]:
    """The entries of an ``enabled`` list that name no tool, in the file's order."""
    return [name for name in names if name not in TOOL_NAMES]


def merge_enabled(
    current: tuple[str, ...] | None, given: tuple[str, ...], *, trusted: bool
) -> tuple[tuple[str, ...], list[str]]:
    """(the enabled list after this layer, the names an untrusted layer could not add).

    ``None`` means every tool. A trusted layer replaces the list; an untrusted one keeps
    only names already enabled, so a cloned repository can hide tools but never add one."""
    wanted = tuple(dict.fromkeys(given))
    if trusted or current is None:
        return wanted, []
    kept = tuple(name for name in wanted if name in current)
    return kept, [name for name in wanted if name not in current]


def enabled_of_layer(
    layer: Layer, current: tuple[str, ...] | None, given: tuple[str, ...]
) -> tuple[tuple[str, ...], list[str]]:
    """``merge_enabled`` for one layer of the merge; an unknown name is a load error naming
    the file, the entry's line and the key."""
    unknown = unknown_names(given)
    if unknown:
        index = given.index(unknown[0])
        locate = layer.locator.line_of if layer.locator else (lambda _: None)
        line = locate(("enabled", index)) or locate(("enabled",))
        message = f"unknown tool {unknown[0]!r} (tools: {', '.join(TOOL_NAMES)})"
        raise PolicyError(message, file=layer.name, line=line, key="enabled")
    return merge_enabled(current, given, trusted=layer.trusted)
