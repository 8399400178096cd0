"""The seed systems' own forms (/work/shared/seeds/):

* ``004_…``: an agent spec's ``permissions`` — ``"readonly"`` (only read, grep, find, ls),
  ``"ask"`` (every call asks), ``"auto"`` (no gate at all: nothing to import, said so), or
  ``{default, rules: [{tool, pattern, action}]}``, ordered, last match wins (as Bastion),
  with ``classify`` (pure readers only) and leading-glob patterns such as ``*rm -rf*``.
* ``001_…``: ``config.json`` ``permissions`` — the three-dimension ceiling (approval,
  filesystem, network), which Bastion's ``[ceiling]`` has under the same names; fields
  left out mean the strictest value, and no ``permissions`` means ask_for_risky,
  unrestricted, allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bastion.evidence.imports import shellpat
from bastion.evidence.imports.model import Imported, ImportedRule

#: The seed's tool names → Bastion families.
TOOLS = {
    "bash": ("shell",),
    "read": ("read",),
    "grep": ("grep",),
    "find": ("glob",),
    "ls": ("list",),
    "write": ("write",),
    "edit": ("edit",),
}
ALL = ("shell", "read", "grep", "glob", "list", "write", "edit", "fetch", "mcp")
READONLY = ("read", "grep", "glob", "list")
_CEILING_DEFAULT = {"approval": "ask_for_risky", "filesystem": "unrestricted", "network": "allowed"}
_CEILING_STRICT = {"approval": "ask_every_action", "filesystem": "read_only", "network": "denied"}


def import_gate(permissions: Any, source: str) -> Imported:
    out = Imported(source, "seed-004")
    if permissions == "auto":
        out.notes.append('"auto" loads no gate at all; Bastion\'s own defaults apply instead (stricter)')
        return out
    if permissions == "readonly":
        out.rules += [
            ImportedRule(t, "deny", None, "readonly: the model never sees this tool")
            for t in ALL
            if t not in READONLY
        ]
        return out
    if permissions == "ask":
        out.rules += [ImportedRule(t, "ask", None, "permissions = ask: every call pauses") for t in ALL]
        return out
    if not isinstance(permissions, Mapping):
        out.notes.append(f"permissions {permissions!r}: expected readonly, ask, auto or a policy object")
        return out
    default = str(permissions.get("default", "ask"))
    action = {"allow": "ask", "ask": "ask", "deny": "deny"}.get(default, "ask")
    if default == "allow":
        out.notes.append('default "allow" became ask for unmatched calls (Bastion decides those itself)')
    out.rules += [ImportedRule(t, action, None, f"default {default}") for t in ALL]
    for n, rule in enumerate(permissions.get("rules") or [], 1):
        out.rules += _rule(rule, n, out)
    return out


def _rule(rule: Any, n: int, out: Imported) -> list[ImportedRule]:
    if not isinstance(rule, Mapping) or rule.get("tool") not in TOOLS:
        out.notes.append(f"rules[{n}] {rule!r}: unknown tool")
        return []
    action = str(rule.get("action", "ask"))
    if action not in ("allow", "ask", "deny", "classify"):
        out.notes.append(f"rules[{n}]: unknown action {action!r}")
        return []
    why = f"seed rule {n}: {rule.get('tool')} {rule.get('pattern', '')} {action}".strip()
    pattern = rule.get("pattern")
    families = TOOLS[str(rule["tool"])]
    if pattern is None:
        return [ImportedRule(f, action, None, why) for f in families]
    if families != ("shell",):
        return [ImportedRule(f, action, str(pattern), why) for f in families]
    converted = shellpat.glob(str(pattern), "deny" if action in ("deny", "ask") else "allow")
    if converted is None:
        out.notes.append(f"rules[{n}] pattern {pattern!r} ({action}): no Bastion form that is not looser")
        return []
    text, note = converted
    if note:
        out.notes.append(f"rules[{n}]: {note}")
    example = str(pattern).strip("*").strip()
    return [ImportedRule("shell", action, None if text == "*" else text, why, (example,) if example else ())]


def import_ceiling(config: Mapping[str, Any], source: str) -> Imported:
    out = Imported(source, "seed-001")
    permissions = config.get("permissions")
    if permissions is None:
        out.ceiling = dict(_CEILING_DEFAULT)
        return out
    if not isinstance(permissions, Mapping):
        out.notes.append("permissions is not an object: the strictest ceiling applies")
        permissions = {}
    out.ceiling = {k: str(permissions.get(k, strict)) for k, strict in _CEILING_STRICT.items()}
    for key in set(permissions) - set(_CEILING_STRICT):
        out.notes.append(f"permissions.{key}: not a ceiling dimension")
    return out
