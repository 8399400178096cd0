"""Claude Code ``settings.json`` ``permissions`` → Bastion rules.

Claude Code's precedence is deny, then ask, then allow; unmatched Bash, Edit/Write,
WebFetch and MCP calls ask, reads inside the project do not. Bastion's rules are last
match wins, so the import writes: a catch-all ``ask`` for every tool Claude Code asks
about by default, then the allow rules, then ask, then deny. Rule forms: ``Bash``,
``Bash(npm run test:*)`` (prefix), ``Bash(git * main)`` (glob), ``Read(./src/**)``,
``Edit(…)`` (every file-editing tool: Bastion's edit and write), ``WebFetch(domain:x)``,
``mcp__server`` / ``mcp__server__tool``. Other tools (WebSearch, Task, Skill…) have no
Bastion counterpart and are listed as not carried over.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from bastion.evidence.imports import shellpat
from bastion.evidence.imports.model import Imported, ImportedRule

_RULE = re.compile(r"^(?P<tool>[A-Za-z_][\w-]*)(?:\((?P<arg>.*)\))?$", re.S)
#: Tools Claude Code asks about by default (its read-only tools do not ask).
ASKS_BY_DEFAULT = ("shell", "edit", "write", "fetch", "mcp")
_PATH_TOOLS = {
    "Read": ("read", "list", "glob", "grep"),
    "Edit": ("edit", "write"),
    "Write": ("write",),
    "MultiEdit": ("edit",),
    "NotebookEdit": ("edit",),
    "Glob": ("glob",),
    "Grep": ("grep",),
    "LS": ("list",),
}
_ORDER = {"allow": 0, "ask": 1, "deny": 2}


def _path(arg: str) -> str:
    """Claude Code paths: ``//abs`` absolute, ``~/`` home, ``/x`` and ``./x`` from the settings root."""
    if arg.startswith("//"):
        return arg[1:]
    if arg.startswith("/"):
        return arg[1:] or "."
    return arg[2:] if arg.startswith("./") else arg


def convert(entry: str, action: str) -> tuple[list[ImportedRule], str | None]:
    """One ``permissions`` entry → Bastion rules, or a note saying why it cannot be."""
    found = _RULE.match(entry.strip())
    if found is None:
        return [], f"{entry!r}: not a Claude Code permission rule"
    tool, arg = found.group("tool"), found.group("arg")
    why = f"Claude Code {action}: {entry}"
    if tool.startswith("mcp__"):
        parts = tool.split("__")
        server, name = parts[1], "__".join(parts[2:]) or "*"
        return [
            ImportedRule("mcp", action, f"{server}/{name}", why, (f"{server}/{name.replace('*', 'x')}",))
        ], None
    if tool == "Bash":
        return _bash(arg, action, why)
    if tool == "WebFetch":
        if arg is None or arg in ("", "*"):
            return [ImportedRule("fetch", action, None, why)], None
        if not arg.startswith("domain:"):
            return [], f"{entry!r}: only WebFetch(domain:HOST) has a Bastion form"
        host = arg[len("domain:") :]
        return [ImportedRule("fetch", action, host, why, (f"https://{host.replace('*.', 'www.')}/",))], None
    if tool in _PATH_TOOLS:
        # an allow of Read(x) stays a read allow; a deny/ask of Read(x) covers list/glob/grep too
        families = _PATH_TOOLS[tool][:1] if action == "allow" and tool == "Read" else _PATH_TOOLS[tool]
        if arg is None or arg in ("", "*", "**"):
            return [ImportedRule(f, action, None, why) for f in families], None
        pattern = _path(arg)
        example = pattern.replace("**", "x").replace("*", "x")
        return [ImportedRule(f, action, pattern, why, (example,)) for f in families], None
    return [], f"{entry!r}: Claude Code's {tool} has no Bastion counterpart"


def _bash(arg: str | None, action: str, why: str) -> tuple[list[ImportedRule], str | None]:
    if arg is None or arg.strip() in ("", "*"):
        return [ImportedRule("shell", action, None, why)], None
    text = arg.strip()
    converted = shellpat.prefix(text[:-2], action) if text.endswith(":*") else shellpat.glob(text, action)
    if converted is None:
        return [], f"Bash({arg}) ({action}): this pattern has no Bastion form that is not looser"
    pattern, note = converted
    example = text[:-2] if text.endswith(":*") else text.strip("*").strip().replace(" * ", " x ").rstrip(" *")
    match = (example,) if example and "*" not in example else ()
    return [ImportedRule("shell", action, None if pattern == "*" else pattern, why, match)], note


def import_settings(data: Mapping[str, Any], source: str) -> Imported:
    out = Imported(source, "claude")
    permissions = data.get("permissions")
    if not isinstance(permissions, Mapping):
        out.notes.append("no 'permissions' object")
        return out
    out.rules += [ImportedRule(t, "ask", None, "Claude Code asks by default") for t in ASKS_BY_DEFAULT]
    per_action: dict[str, list[ImportedRule]] = {"allow": [], "ask": [], "deny": []}
    weakened: set[str] = set()
    for action in ("allow", "ask", "deny"):
        for entry in permissions.get(action) or []:
            rules, note = convert(str(entry), action)
            per_action[action] += rules
            if note:
                out.notes.append(note)
                if not rules and action != "allow" and str(entry).startswith("Bash"):
                    weakened.add("shell")
    for key in ("defaultMode", "additionalDirectories"):
        if key in permissions:
            out.notes.append(f"permissions.{key} = {json.dumps(permissions[key])}: no Bastion counterpart")
    if weakened:  # a deny that could not be said: the allows it could override become asks
        out.notes.append("allow rules for Bash became ask: a deny/ask rule could not be expressed")
        per_action["allow"] = [
            r if r.tool not in weakened else ImportedRule(r.tool, "ask", r.pattern, r.reason, r.match)
            for r in per_action["allow"]
        ]
    for action in sorted(per_action, key=_ORDER.__getitem__):
        out.rules += per_action[action]
    return out
