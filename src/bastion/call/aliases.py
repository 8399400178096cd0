"""Agent tool names mapped onto Bastion's families, so adapters stay thin."""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from bastion.call.agent_tools import canonical_002
from bastion.call.families import Family

#: An edit's arguments, as Claude, Gemini and Bastion's own tools spell them.
_EDIT = {"old_string": "old_string", "new_string": "new_string", "replace_all": "replace_all"}

#: Tool name (as each agent spells it) → (family, {agent argument: Bastion argument}).
ALIASES: Mapping[str, tuple[Family, Mapping[str, str]]] = MappingProxyType(
    {
        # Claude Code
        "Bash": (Family.SHELL, {"command": "command"}),
        "Read": (Family.READ, {"file_path": "path"}),
        # What a write or an edit leaves in the file is decided too (a package.json lifecycle
        # script added, a start-up file emptied): its content and edits go with the path.
        "Write": (Family.WRITE, {"file_path": "path", "content": "content"}),
        "Edit": (Family.EDIT, {"file_path": "path", **_EDIT}),
        "MultiEdit": (Family.EDIT, {"file_path": "path", "edits": "edits"}),
        "NotebookEdit": (Family.EDIT, {"notebook_path": "path"}),
        "Glob": (Family.GLOB, {"path": "path", "pattern": "pattern"}),
        "Grep": (Family.GREP, {"path": "path", "pattern": "pattern", "output_mode": "output_mode"}),
        "LS": (Family.LIST, {"path": "path"}),
        "WebFetch": (Family.FETCH, {"url": "url"}),
        # Gemini CLI / Qwen Code
        "run_shell_command": (Family.SHELL, {"command": "command"}),
        "read_file": (Family.READ, {"absolute_path": "path", "file_path": "path", "path": "path"}),
        "read_many_files": (Family.READ, {"paths": "paths"}),
        "write_file": (Family.WRITE, {"file_path": "path", "absolute_path": "path", "content": "content"}),
        "replace": (Family.EDIT, {"file_path": "path", "absolute_path": "path", **_EDIT}),
        "edit": (Family.EDIT, {"file_path": "path", "path": "path", **_EDIT}),
        "list_directory": (Family.LIST, {"path": "path", "dir_path": "path"}),
        "glob": (Family.GLOB, {"path": "path", "pattern": "pattern", "dir_path": "path"}),
        "search_file_content": (Family.GREP, {"path": "path", "pattern": "pattern", "dir_path": "path"}),
        "grep_search": (Family.GREP, {"path": "path", "pattern": "pattern", "dir_path": "path"}),
        "web_fetch": (Family.FETCH, {"url": "url"}),
        # Codex / Copilot
        "shell": (Family.SHELL, {"command": "command"}),
        "exec_command": (Family.SHELL, {"cmd": "command", "command": "command"}),
        "bash": (Family.SHELL, {"command": "command"}),
        "view": (Family.READ, {"path": "path"}),
        "create": (Family.WRITE, {"path": "path", "file_text": "content"}),
        "str_replace": (Family.EDIT, {"path": "path", "old_str": "old_string", "new_str": "new_string"}),
        # Bastion's own tools (also canonical names)
        "exec": (Family.SHELL, {"command": "command", "stdin": "stdin"}),  # stdin: what reads it runs it
        "read": (Family.READ, {"path": "path"}),
        "write": (Family.WRITE, {"path": "path", "content": "content"}),
        "multi_edit": (Family.EDIT, {"path": "path", "file_path": "path", "edits": "edits"}),
        "list": (Family.LIST, {"path": "path"}),
        "grep": (Family.GREP, {"path": "path", "pattern": "pattern", "output_mode": "output_mode"}),
        "fetch": (Family.FETCH, {"url": "url"}),
    }
)

#: Search tools that always print the matching lines (Claude's Grep says so with
#: ``output_mode: content``; Gemini's and Qwen's have no other mode).
PRINTS_LINES = frozenset({"search_file_content", "grep_search"})

_MCP_CLAUDE = re.compile(r"^mcp__(?P<server>[^_].*?)__(?P<tool>.+)$")


def canonical(tool: str, args: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """An agent's tool name (``Bash``, ``read_file``, ``mcp__files__read_file``…) as Bastion's
    family and arguments, the way the hooks map them; any other name is returned unchanged
    (the engine then denies it as an unknown family)."""
    if tool in _FAMILIES:
        return tool, args
    mcp = _MCP_CLAUDE.match(tool)
    if mcp is not None:
        return Family.MCP.value, {"server": mcp["server"], "tool": mcp["tool"], "arguments": dict(args)}
    alias = ALIASES.get(tool)
    if alias is None:
        seed = canonical_002(tool, args)  # the 002 seed's vocabulary (web_search, delegate…)
        return (tool, args) if seed is None else seed
    family, renames = alias
    mapped: dict[str, Any] = {}
    for source, target in renames.items():
        if source in args and target not in mapped:
            mapped[target] = args[source]
    if tool in PRINTS_LINES:
        mapped.setdefault("output_mode", "content")
    if family is Family.SHELL and isinstance(mapped.get("command"), list | tuple):
        mapped["command"] = " ".join(shlex.quote(str(word)) for word in mapped["command"])
    return family.value, mapped


_FAMILIES = frozenset(f.value for f in Family)
