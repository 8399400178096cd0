"""Agent tool names mapped onto Bastion's families, so adapters stay thin."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bastion.call.model import Family

#: Tool name (as each agent spells it) → (family, {agent argument: Bastion argument}).
ALIASES: Mapping[str, tuple[Family, Mapping[str, str]]] = MappingProxyType(
    {
        # Claude Code
        "Bash": (Family.SHELL, {"command": "command"}),
        "Read": (Family.READ, {"file_path": "path"}),
        "Write": (Family.WRITE, {"file_path": "path"}),
        "Edit": (Family.EDIT, {"file_path": "path"}),
        "MultiEdit": (Family.EDIT, {"file_path": "path"}),
        "NotebookEdit": (Family.EDIT, {"notebook_path": "path"}),
        "Glob": (Family.GLOB, {"path": "path", "pattern": "pattern"}),
        "Grep": (Family.GREP, {"path": "path", "pattern": "pattern"}),
        "LS": (Family.LIST, {"path": "path"}),
        "WebFetch": (Family.FETCH, {"url": "url"}),
        # Gemini CLI / Qwen Code
        "run_shell_command": (Family.SHELL, {"command": "command"}),
        "read_file": (Family.READ, {"absolute_path": "path", "file_path": "path", "path": "path"}),
        "read_many_files": (Family.READ, {"paths": "paths"}),
        "write_file": (Family.WRITE, {"file_path": "path", "absolute_path": "path"}),
        "replace": (Family.EDIT, {"file_path": "path", "absolute_path": "path"}),
        "edit": (Family.EDIT, {"file_path": "path", "path": "path"}),
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
        "create": (Family.WRITE, {"path": "path"}),
        "str_replace": (Family.EDIT, {"path": "path"}),
        # Bastion's own tools (also canonical names)
        "exec": (Family.SHELL, {"command": "command"}),
        "read": (Family.READ, {"path": "path"}),
        "write": (Family.WRITE, {"path": "path"}),
        "list": (Family.LIST, {"path": "path"}),
        "grep": (Family.GREP, {"path": "path", "pattern": "pattern"}),
        "fetch": (Family.FETCH, {"url": "url"}),
    }
)
