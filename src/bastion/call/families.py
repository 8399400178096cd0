"""The tool families every call belongs to, and what each family's arguments are."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType


class Family(StrEnum):
    SHELL = "shell"
    READ = "read"
    WRITE = "write"
    EDIT = "edit"
    LIST = "list"
    GLOB = "glob"
    GREP = "grep"
    FETCH = "fetch"
    CODE = "code"
    INSTALL = "install"
    DB = "db"
    MCP = "mcp"
    #: The agent acting on itself and its helpers: delegating, planning, configuring
    #: skills and agents (bastion.policy.agent_tools; 002's vocabulary in call.agent_tools).
    AGENT = "agent"


#: The argument that carries the single value for ``bastion check FAMILY ARG``.
PRIMARY_ARGUMENT: Mapping[Family, str] = MappingProxyType(
    {
        Family.SHELL: "command",
        Family.READ: "path",
        Family.WRITE: "path",
        Family.EDIT: "path",
        Family.LIST: "path",
        Family.GLOB: "path",
        Family.GREP: "path",
        Family.FETCH: "url",
        Family.AGENT: "tool",
    }
)

CODE_LANGUAGES = frozenset({"python", "bash", "node", "rust"})
DB_OPERATIONS = frozenset({"read", "write", "delete"})
