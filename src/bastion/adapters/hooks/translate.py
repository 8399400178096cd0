"""An agent's tool name and arguments → the ToolCalls Bastion decides (one or several).

Every agent spells its tools differently; ``bastion.call.aliases`` maps the names onto
families. A few tools touch several targets at once (Codex ``apply_patch``, Gemini
``read_many_files`` and ``web_fetch`` with a prompt full of URLs): each target becomes its
own call and the strictest decision wins. A tool this module cannot map is *unknown* and
is denied by the caller — never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bastion.call.aliases import ALIASES, canonical
from bastion.call.families import Family
from bastion.call.model import ToolCall
from bastion.errors import CallError

#: Tools that only change the agent's own state (its to-do list, plan mode, a question to
#: the person) or start a sub-agent whose every tool call is gated by the same hook.
INERT_TOOLS = frozenset(
    {
        "TodoWrite",
        "ExitPlanMode",
        "EnterPlanMode",
        "AskUserQuestion",
        "Task",
        "Agent",
        "todo_write",
        "update_plan",
        "exit_plan_mode",
        "ask_user_question",
        "write_todos",
    }
)

_MCP_CLAUDE = re.compile(r"^mcp__(?P<server>[^_].*?)__(?P<tool>.+)$")
_MCP_GEMINI = re.compile(r"^mcp_(?P<server>[A-Za-z0-9-]+)_(?P<tool>.+)$")
_URL = re.compile(r"https?://[^\s<>\"'`)\]]+")
_PATCH_FILE = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$", re.M)


@dataclass(frozen=True, slots=True)
class Context:
    """Where a call was proposed: the agent's cwd, session, turn and whether a person is there."""

    agent: str
    cwd: str
    session: str | None = None
    turn: str | None = None
    #: True a person is there, False nobody is, None the agent cannot tell.
    interactive: bool | None = None
    #: The parent session when the call comes from a subagent (bastion.delegation).
    parent: str | None = None


class UnknownTool(CallError):
    """A tool name no alias maps: the caller denies it."""


def to_calls(tool: str, args: Any, ctx: Context, *, mcp_server: str | None = None) -> list[ToolCall]:
    """The calls to decide for ``tool(args)``; ``[]`` for an inert tool; raises on unknown."""
    if not isinstance(tool, str) or not tool:
        raise CallError("the hook input names no tool")
    if args is None:
        args = {}
    if not isinstance(args, Mapping):
        raise CallError(f"{tool}: the tool input must be an object")
    if tool in INERT_TOOLS:
        return []
    special = _SPECIAL.get(tool)
    if special is not None:
        return [_call(ctx, family, a) for family, a in special(args)]
    mcp = _mcp_name(tool, mcp_server)
    if mcp is not None:
        server, name = mcp
        return [_call(ctx, Family.MCP, {"server": server, "tool": name, "arguments": dict(args)})]
    if tool not in ALIASES and tool not in {f.value for f in Family}:
        raise UnknownTool(f"unknown tool {tool!r}: Bastion cannot tell what it does")
    family, mapped = canonical(tool, args)  # the one alias mapping, shared with JSON calls
    return [_call(ctx, Family(family), mapped)]


def _call(ctx: Context, family: Family, args: Mapping[str, Any]) -> ToolCall:
    return ToolCall(
        tool=family.value,
        args=args,
        cwd=ctx.cwd,
        session=ctx.session,
        turn=ctx.turn,
        agent=ctx.agent,
        interactive=bool(ctx.interactive),
        parent=ctx.parent,
    )


def _mcp_name(tool: str, server_hint: str | None) -> tuple[str, str] | None:
    found = _MCP_CLAUDE.match(tool)
    if found:
        return found.group("server"), found.group("tool")
    if server_hint and tool.startswith(f"mcp_{server_hint}_"):
        return server_hint, tool[len(f"mcp_{server_hint}_") :]
    found = _MCP_GEMINI.match(tool)
    if found:
        return found.group("server"), found.group("tool")
    return None


Targets = list[tuple[Family, dict[str, Any]]]


def _apply_patch(args: Mapping[str, Any]) -> Targets:
    patch = args.get("input", args.get("patch", args.get("command")))
    if isinstance(patch, list):
        patch = "\n".join(str(p) for p in patch)
    if not isinstance(patch, str):
        raise CallError("apply_patch: the patch text is missing")
    targets: Targets = []
    for found in _PATCH_FILE.finditer(patch):
        kind, path, moved = found.group(1), found.group(2), found.group(3)
        family = Family.WRITE if kind == "Add" else Family.EDIT
        targets.append((family, {"path": (path or moved).strip()}))
    if not targets:
        raise CallError("apply_patch: no file named in the patch")
    return targets


def _read_many(args: Mapping[str, Any]) -> Targets:
    paths = args.get("paths") or args.get("include")
    if isinstance(paths, str):
        paths = [paths]
    if not isinstance(paths, list | tuple) or not paths:
        raise CallError("read_many_files: 'paths' must be a non-empty list")
    return [(Family.READ, {"path": str(p)}) for p in paths]


def _web_fetch(args: Mapping[str, Any]) -> Targets:
    url = args.get("url")
    if isinstance(url, str):
        return [(Family.FETCH, {"url": url})]
    urls = _URL.findall(str(args.get("prompt", "")))
    if not urls:
        raise CallError("web_fetch: no URL in the call")
    return [(Family.FETCH, {"url": u}) for u in urls]


def _searches(tool: str) -> Any:
    """Copilot CLI's ``grep``/``glob`` (and ``rg``) search ``paths``, one folder or a list
    (its tool schema, 1.0.102): one call per folder, each decided on its own, beside the
    name's usual folder (Gemini's ``dir_path``, Bastion's ``path``) when one is given."""

    def targets(args: Mapping[str, Any]) -> Targets:
        family = Family.GLOB if tool == "glob" else Family.GREP
        # The alias's renames applied here: ``canonical`` passes a family name (``glob``,
        # ``grep``) through unchanged, which dropped Gemini's ``dir_path``.
        usual: dict[str, Any] = {}
        for source, target in ALIASES["glob" if tool == "glob" else "grep_search"][1].items():
            if source in args and target not in usual:
                usual[target] = args[source]
        paths = args.get("paths")
        if paths is None:
            return [(family, usual)]
        if isinstance(paths, str):
            paths = [paths]
        if not isinstance(paths, list | tuple) or not paths or not all(isinstance(p, str) for p in paths):
            raise CallError(f"{tool}: 'paths' must be a folder or a non-empty list of folders")
        # A ``path``/``dir_path`` beside ``paths`` is decided too: never one in place of another.
        found = [(family, {**usual, "path": p}) for p in paths]
        return [(family, usual), *found] if "path" in usual else found

    return targets


_SPECIAL = {
    "grep": _searches("grep"),
    "glob": _searches("glob"),
    "rg": _searches("rg"),
    "apply_patch": _apply_patch,
    "read_many_files": _read_many,
    "web_fetch": _web_fetch,
    "WebFetch": _web_fetch,
}
