"""``McpCalls.tool_call``: the paths and URLs a tool's inputSchema names reach the engine."""

from __future__ import annotations

from typing import Any

from bastion.adapters.mcp.calls import McpCalls
from bastion.call.model import thaw


def _schema(*names: str) -> dict[str, Any]:
    return {"type": "object", "properties": {name: {"type": "string"} for name in names}}


def test_the_schema_s_path_and_url_keys_ride_on_every_call_and_follow_a_changed_schema() -> None:
    calls = McpCalls("notes", cwd="/w", session="s")
    first = _schema("path", "text")
    seen = [
        calls.tool_call("read", {"path": "a"}, {}, schema=first).args.get("inferred"),
        calls.tool_call("read", {"path": "b"}, {}, schema=first).args.get("inferred"),
        calls.tool_call("read", {"url": "c"}, {}, schema=_schema("url")).args.get("inferred"),
        calls.tool_call("read", {"path": "d"}, {}, schema=None).args.get("inferred"),
    ]
    assert [thaw(s) for s in seen] == [
        {"paths": ["path"], "urls": []},
        {"paths": ["path"], "urls": []},
        {"paths": [], "urls": ["url"]},  # the refreshed offer's schema, not the remembered one
        None,
    ]
