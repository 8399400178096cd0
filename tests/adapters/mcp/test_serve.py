"""``bastion mcp serve``: Bastion's own tools over MCP, listed honestly, every call gated."""

from __future__ import annotations

import json

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters

from tests.adapters.mcp.conftest import BASTION, Peer, payload, text_of


def _serve(peer: Peer) -> StdioServerParameters:
    return StdioServerParameters(
        command=BASTION,
        args=["mcp", "serve", "--policy", str(peer.policy)],
        env=peer.env,
        cwd=str(peer.root / "work"),
    )


def test_served_tools_carry_their_schema_and_honest_annotations_and_disabled_ones_are_absent(
    peer: Peer,
) -> None:
    peer.write_policy('[[rule]]\ntool = "write"\naction = "deny"\n')

    async def main() -> dict[str, types.Tool]:
        async with Client(_serve(peer), mode="legacy", cache=None) as client:
            return {t.name: t for t in (await client.list_tools()).tools}

    tools = anyio.run(main)
    assert "write" not in tools
    assert {"read", "edit", "list", "glob", "grep", "fetch"} <= set(tools)
    read = tools["read"]
    assert read.input_schema["required"] == ["path"]
    assert read.annotations == types.ToolAnnotations(
        read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
    )
    assert tools["edit"].annotations is not None and tools["edit"].annotations.read_only_hint is False
    assert tools["fetch"].annotations is not None and tools["fetch"].annotations.open_world_hint is True


def test_a_served_call_is_gated_and_its_result_marked_untrusted(peer: Peer) -> None:
    (peer.root / "work" / "notes.txt").write_text("buy milk\n")

    async def main() -> tuple[types.CallToolResult, types.CallToolResult]:
        async with Client(_serve(peer), mode="legacy", cache=None) as client:
            read = await client.call_tool("read", {"path": "notes.txt"})
            key = await client.call_tool("read", {"path": "~/.ssh/id_rsa"})
            return read, key

    read, key = anyio.run(main)
    data = json.loads(payload(read))
    assert (data["ok"], data["decision"], data["stdout"]) == (True, "allow", "buy milk\n")
    assert key.is_error is True
    assert text_of(key).startswith("[policy-denied] ")
    assert text_of(key).endswith(" (tool read)")
