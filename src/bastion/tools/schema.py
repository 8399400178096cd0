"""Argument checking against a tool's JSON schema (the small subset the tools use).

Types ``object`` (``properties``, ``required``, no extra keys; nested too), ``string``,
``integer``, ``number``, ``boolean`` and ``array`` (of strings unless ``items`` says);
``enum``, ``minimum``, ``maxLength``, ``minItems``, ``maxItems``.
Defaults from the schema are filled in so a tool always sees every key it declares.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from bastion.errors import CallError

Schema = Mapping[str, Any]

_CHECKS: dict[str, Any] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list | tuple),
    "object": lambda v: isinstance(v, Mapping),
}


def validate(tool: str, schema: Schema, args: Any) -> dict[str, Any]:
    """A checked copy of ``args`` with defaults filled in; CallError says what is wrong."""
    if not isinstance(args, Mapping):
        raise CallError(f"{tool}: arguments must be a JSON object")
    properties: Mapping[str, Schema] = schema.get("properties", {})
    unknown = sorted(set(args) - set(properties))
    if unknown:
        raise CallError(f"{tool}: unknown argument(s): {', '.join(unknown)}")
    missing = [name for name in schema.get("required", ()) if name not in args]
    if missing:
        raise CallError(f"{tool}: missing required argument(s): {', '.join(missing)}")
    out: dict[str, Any] = {}
    for name, spec in properties.items():
        if name not in args:
            if "default" in spec:
                out[name] = spec["default"]
            continue
        out[name] = _check(f"{tool}: argument {name!r}", spec, args[name])
    return out


def _check(where: str, spec: Schema, value: Any) -> Any:
    kind = spec.get("type", "string")
    if not _CHECKS[kind](value):
        raise CallError(f"{where} must be of type {kind}")
    if "enum" in spec and value not in spec["enum"]:
        choices = ", ".join(str(c) for c in spec["enum"])
        raise CallError(f"{where} must be one of: {choices}")
    if "minimum" in spec and value < spec["minimum"]:
        raise CallError(f"{where} must be >= {spec['minimum']}")
    if "exclusiveMinimum" in spec and value <= spec["exclusiveMinimum"]:
        raise CallError(f"{where} must be > {spec['exclusiveMinimum']}")
    if "maxLength" in spec and len(value) > spec["maxLength"]:
        raise CallError(f"{where} is longer than {spec['maxLength']} characters")
    if "minItems" in spec and len(value) < spec["minItems"]:
        raise CallError(f"{where} needs at least {spec['minItems']} item(s)")
    if "maxItems" in spec and len(value) > spec["maxItems"]:
        raise CallError(f"{where} has more than {spec['maxItems']} items")
    if kind == "object":
        return validate(where, spec, value)
    if kind == "array":
        items = spec.get("items", {"type": "string"})
        return [_check(f"{where}[{i}]", items, item) for i, item in enumerate(value)]
    return value


def obj(properties: Mapping[str, Schema], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """An object schema that accepts no extra keys."""
    return {
        "type": "object",
        "properties": dict(properties),
        "required": list(required),
        "additionalProperties": False,
    }
