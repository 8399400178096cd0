"""Tell a config file's format from its name and content, and import it."""

from __future__ import annotations

import json
import os
import re
import tomllib
from typing import Any

from bastion.evidence.imports import claude, codex, gemini, seed000, seeds
from bastion.evidence.imports.model import Imported

_LINE_COMMENT = re.compile(r"(?m)^\s*//.*$|(?<=[,{\[\s])//[^\n\"]*$")
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def loose_json(text: str) -> Any:
    """JSON with ``//`` comments and trailing commas (the seeds write their examples so)."""
    cleaned = _TRAILING_COMMA.sub(r"\1", _LINE_COMMENT.sub("", text))
    return json.loads(cleaned)


def _toml_or_empty(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}  # the Gemini reader says what is wrong with it


def import_file(path: str) -> Imported:
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    name = os.path.basename(path)
    if name.endswith(".rules") or "prefix_rule(" in text:
        return codex.import_rules(text, path)
    if name.endswith(".toml"):
        if seed000.is_permissions_toml(_toml_or_empty(text)):
            return seed000.import_permissions(text, path)
        return gemini.import_policy(text, path)
    data = loose_json(text)
    permissions = data.get("permissions") if isinstance(data, dict) else None
    if isinstance(permissions, dict) and {"allow", "ask", "deny"} & set(permissions):
        return claude.import_settings(data, path)
    if isinstance(permissions, dict) and {"approval", "filesystem", "network"} & set(permissions):
        return seeds.import_ceiling(data, path)
    if isinstance(data, dict) and ("harness" in data or isinstance(permissions, str | dict)):
        return seeds.import_gate(permissions if permissions is not None else "auto", path)
    if isinstance(data, dict) and name == "config.json":
        return seeds.import_ceiling(data, path)
    return Imported(
        path,
        "unknown",
        notes=[
            "not a Claude Code settings file, Gemini CLI policy, Codex .rules, "
            "an agent spec with permissions, or a config.json ceiling"
        ],
    )
