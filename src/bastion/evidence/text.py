"""One-line descriptions of an agent's call, for tables."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

#: The argument that says most about a call, by the names agents use, in order.
_MAIN_KEYS = (
    "command",
    "cmd",
    "file_path",
    "absolute_path",
    "notebook_path",
    "path",
    "url",
    "pattern",
    "paths",
    "input",
    "patch",
    "prompt",
)


def describe(tool: str, args: Mapping[str, Any], limit: int = 160) -> str:
    for key in _MAIN_KEYS:
        value = args.get(key)
        if value:
            text = " ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)
            return _short(f"{tool} {text}", limit)
    return _short(f"{tool} {json.dumps(dict(args), sort_keys=True, default=str)}", limit)


def _short(text: str, limit: int) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1] + "…"
