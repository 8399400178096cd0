"""What an importer produces: rules in Bastion's order, a ceiling, and what did not carry."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class ImportedRule:
    tool: str
    action: str  # allow | ask | deny | classify
    pattern: str | None = None
    reason: str = ""
    match: tuple[str, ...] = ()


@dataclass
class Imported:
    source: str
    kind: str  # claude, gemini, codex, seed-004, seed-001
    rules: list[ImportedRule] = field(default_factory=list)
    ceiling: dict[str, str] | None = None
    mode: str | None = None
    notes: list[str] = field(default_factory=list)
    #: What each source key became (a note per key), for a source carried over whole.
    carried: list[str] = field(default_factory=list)
    #: Keys and tables other than rules and the ceiling: ``{"workspace": [...],
    #: "paths": {"deny_read": [...]}}``, written in this order.
    settings: dict[str, Any] = field(default_factory=dict)

    def toml(self) -> str:
        out = [f"# imported by 'bastion policy import' from {self.source} ({self.kind})"]
        out += [f"# {n}" for n in self.carried]
        out += [f"# not carried over: {n}" for n in self.notes]
        if self.mode:
            out.append(f"mode = {_q(self.mode)}")
        tables = {k: v for k, v in self.settings.items() if isinstance(v, dict)}
        out += [f"{k} = {_value(v)}" for k, v in self.settings.items() if k not in tables]
        for name, table in tables.items():
            out.append(f"\n[{name}]")
            out += [f"{k} = {_value(v)}" for k, v in table.items()]
        for rule in self.rules:
            out.append("\n[[rule]]")
            out.append(f"tool = {_q(rule.tool)}")
            if rule.pattern is not None:
                out.append(f"pattern = {_q(rule.pattern)}")
            out.append(f"action = {_q(rule.action)}")
            if rule.reason:
                out.append(f"reason = {_q(rule.reason)}")
            if rule.match:
                out.append(f"match = [{', '.join(_q(m) for m in rule.match)}]")
        if self.ceiling is not None:
            out.append("\n[ceiling]")
            out += [f"{k} = {_q(v)}" for k, v in self.ceiling.items()]
        return "\n".join(out) + "\n"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return _q(str(value))


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)
