"""The tool call: a family, its arguments and the context it was proposed in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from bastion.call.aliases import canonical
from bastion.call.families import Family
from bastion.errors import CallError


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): _freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """Plain JSON-able copy of frozen arguments."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


@dataclass(frozen=True)
class ToolCall:
    """One proposed tool call. ``tool`` is the family name as given (unknown ones are denied)."""

    tool: str
    args: Mapping[str, Any] = field(default_factory=dict)
    cwd: str = "/"
    session: str | None = None
    turn: str | None = None
    agent: str | None = None
    interactive: bool = False
    #: The parent session of a delegated (child) session (bastion.delegation); None: top level.
    parent: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.args, Mapping):
            raise CallError(f"args must be an object, got {type(self.args).__name__}")
        object.__setattr__(self, "args", _freeze(self.args))

    @property
    def family(self) -> Family | None:
        try:
            return Family(self.tool)
        except ValueError:
            return None

    def arg(self, name: str) -> Any:
        return self.args.get(name)

    def require_str(self, name: str) -> str:
        value = self.args.get(name)
        if not isinstance(value, str):
            raise CallError(f"{self.tool}: argument {name!r} must be a string")
        return value

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"tool": self.tool, "args": thaw(self.args), "cwd": self.cwd}
        for key in ("session", "turn", "agent"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        data["interactive"] = self.interactive
        if self.parent is not None:
            data["parent"] = self.parent
        return data

    @classmethod
    def from_json(cls, data: Any, *, default_cwd: str = "/") -> ToolCall:
        """Build from a JSON object; raises CallError with a clear message on bad input."""
        if isinstance(data, str | bytes):
            from bastion.call.strict_json import loads  # duplicates, NaN, depth: input errors

            data = loads(data)
        if not isinstance(data, Mapping):
            raise CallError("a tool call must be a JSON object")
        unknown = set(data) - {"tool", "args", "cwd", "session", "turn", "agent", "interactive"}
        if unknown:
            raise CallError(f"unknown field(s) in tool call: {', '.join(sorted(unknown))}")
        tool = data.get("tool")
        if not isinstance(tool, str) or not tool:
            raise CallError("'tool' must be a non-empty string")
        args = data.get("args", {})
        if not isinstance(args, Mapping):
            raise CallError("'args' must be an object")
        cwd = data.get("cwd", default_cwd)
        if not isinstance(cwd, str) or not cwd:
            raise CallError("'cwd' must be a non-empty string")
        interactive = data.get("interactive", False)
        if not isinstance(interactive, bool):
            raise CallError("'interactive' must be true or false")
        optional: dict[str, str | None] = {}
        for key in ("session", "turn", "agent"):
            value = data.get(key)
            if value is not None and not isinstance(value, str | int):
                raise CallError(f"'{key}' must be a string")
            optional[key] = None if value is None else str(value)
        tool, args = canonical(tool, args)  # agent tool names, mapped as the hooks do
        return cls(tool=tool, args=args, cwd=cwd, interactive=interactive, **optional)
