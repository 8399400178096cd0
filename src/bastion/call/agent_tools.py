"""The 002 seed's tool vocabulary, each name mapped onto the family whose policy input
controls its risk (that document: "a tool in the schema is a promise the model will try to
keep", so the gate must know what each one touches):

==================  ==========================================================================
``web_search``      ``fetch`` of the search backend (``host`` or ``url``): the network host;
                    with neither, ``agent``: an unknown destination, confirmed
``send_file``       ``fetch`` of its ``url`` (network host) sending its ``path`` (a read of
                    it), or ``read`` of its ``path``
``memory_write``    ``db`` write of target ``memory`` (database operation class)
``memory_read``     ``db`` read of target ``memory``
``memory_recent``   ``db`` read of target ``memory``
``person_record``   ``db`` write of target ``person``
``attachment_read`` ``read`` of its ``path`` (the read path policy)
``delegate``        ``agent``: a subagent under this session's ceiling or a stricter one
``ask_agent``       ``agent``: another persona, the same
``task_plan``       ``agent``: no side effect
``skill_create``,   ``agent``: agent configuration — asks, never a standing grant
``skill_improve``,
``skill_toggle``,
``agent_create``,
``agent_configure``,
``sessions``
==================  ==========================================================================

A call missing the argument its family decides on is an invalid call (denied), never a
guess; no name here ever lands on an unknown family.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bastion.call.families import Family

#: The 002 names decided by ``bastion.policy.agent_tools`` (family ``agent``).
AGENT_TOOLS = frozenset(
    {
        "delegate",
        "ask_agent",
        "task_plan",
        "skill_create",
        "skill_improve",
        "skill_toggle",
        "agent_create",
        "agent_configure",
        "sessions",
    }
)

#: The 002 names that are database operations: (operation class, target).
DB_TOOLS: Mapping[str, tuple[str, str]] = {
    "memory_write": ("write", "memory"),
    "memory_read": ("read", "memory"),
    "memory_recent": ("read", "memory"),
    "person_record": ("write", "person"),
}

NAMES = frozenset({*AGENT_TOOLS, *DB_TOOLS, "web_search", "send_file", "attachment_read"})


def canonical_002(tool: str, args: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """``(family, arguments)`` for a 002 tool name; None for any other name."""
    if tool in AGENT_TOOLS:
        return Family.AGENT.value, {"tool": tool, **{k: v for k, v in args.items() if k != "tool"}}
    if tool in DB_TOOLS:
        operation, target = DB_TOOLS[tool]
        return Family.DB.value, {"operation": operation, "target": target}
    if tool == "attachment_read":
        return Family.READ.value, _only(args, "path")
    if tool == "web_search":
        url = args.get("url")
        host = args.get("host")
        if url is None and isinstance(host, str) and host:
            url = f"https://{host}/"
        if url is None:  # the backend is not named: an unknown destination (policy.agent_tools)
            return Family.AGENT.value, {"tool": tool}
        return Family.FETCH.value, {"url": url}
    if tool == "send_file":
        if "url" in args:  # the file it sends is read too: decided as the read it is
            return Family.FETCH.value, {**_only(args, "url"), **_only(args, "path")}
        return Family.READ.value, _only(args, "path")
    return None


def _only(args: Mapping[str, Any], name: str) -> dict[str, Any]:
    return {name: args[name]} if name in args else {}
