"""What an importer produces: rules in Bastion's order, a ceiling, and what did not carry."""

from __future__ import annotations

import json
from dataclasses import dataclass, field


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

    def toml(self) -> str:
        out = [f"# imported by 'bastion policy import' from {self.source} ({self.kind})"]
        out += [f"# not carried over: {n}" for n in self.notes]
        if self.mode:
            out.append(f"mode = {_q(self.mode)}")
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


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)
