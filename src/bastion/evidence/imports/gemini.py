"""Gemini CLI policy TOML: ``[[rule]]`` with ``toolName``, ``decision`` (allow, deny,
ask_user), ``priority`` (the highest matching wins), and for the shell tool
``commandPrefix`` (a string or a list) or ``commandRegex``; ``argsPattern`` (a regex over
the JSON arguments) and ``mcpName``. The import sorts rules by priority, lowest first
(Bastion's last match wins), ties strictest last. Regexes have no Bastion form: an allow
with one is dropped, a deny/ask with one covers the whole tool.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any

from bastion.evidence.imports import shellpat
from bastion.evidence.imports.model import Imported, ImportedRule

TOOLS = {
    "run_shell_command": "shell",
    "read_file": "read",
    "read_many_files": "read",
    "write_file": "write",
    "replace": "edit",
    "list_directory": "list",
    "glob": "glob",
    "search_file_content": "grep",
    "web_fetch": "fetch",
}
DECISIONS = {"allow": "allow", "ask_user": "ask", "deny": "deny"}
_ORDER = {"allow": 0, "ask": 1, "deny": 2}


def import_policy(text: str, source: str) -> Imported:
    out = Imported(source, "gemini")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        out.notes.append(f"cannot parse: {exc}")
        return out
    ranked: list[tuple[float, int, ImportedRule]] = []
    for n, rule in enumerate(data.get("rule") or [], 1):
        for r in _rule(rule, n, out):
            ranked.append((float(rule.get("priority", 0)), _ORDER[r.action], r))
    out.rules = [r for _, _, r in sorted(ranked, key=lambda x: (x[0], x[1]))]
    return out


def _rule(rule: Mapping[str, Any], n: int, out: Imported) -> list[ImportedRule]:
    decision = DECISIONS.get(str(rule.get("decision")))
    if decision is None:
        out.notes.append(f"rule {n}: decision {rule.get('decision')!r} unknown")
        return []
    why = f"Gemini CLI rule {n} ({rule.get('decision')}, priority {rule.get('priority', 0)})"
    tool = str(rule.get("toolName", ""))
    if rule.get("mcpName") or tool.startswith("mcp_"):
        server = str(rule.get("mcpName") or tool.split("_")[1])
        return [ImportedRule("mcp", decision, f"{server}/*", why, (f"{server}/x",))]
    family = TOOLS.get(tool)
    if family is None:
        out.notes.append(f"rule {n}: tool {tool or '(any)'!r} has no Bastion counterpart")
        return []
    regex = rule.get("commandRegex") or rule.get("argsPattern")
    if regex:
        if decision == "allow":
            out.notes.append(
                f"rule {n}: allow with a regex ({regex!r}) dropped: no Bastion form that is not looser"
            )
            return []
        out.notes.append(f"rule {n}: {decision} with a regex widened to every {tool} call")
        return [ImportedRule(family, decision, None, why)]
    prefixes = rule.get("commandPrefix")
    if family != "shell" or prefixes is None:
        return [ImportedRule(family, decision, None, why)]
    rules = []
    for text in [prefixes] if isinstance(prefixes, str) else list(prefixes):
        converted = shellpat.prefix(str(text), decision)
        if converted is None:
            out.notes.append(f"rule {n}: prefix {text!r} has no Bastion form")
            continue
        rules.append(ImportedRule("shell", decision, converted[0], why, (str(text).strip(),)))
    return rules
