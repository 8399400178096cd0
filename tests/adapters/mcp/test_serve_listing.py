"""``bastion mcp serve`` lists only what the mode and ``enabled`` offer; a call to anything
else is denied as unknown."""

from __future__ import annotations

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters

from tests.adapters.mcp.conftest import BASTION, Peer, text_of


def _serve(peer: Peer) -> StdioServerParameters:
    return StdioServerParameters(
        command=BASTION,
        args=["mcp", "serve", "--policy", str(peer.policy)],
        env=peer.env,
        cwd=str(peer.root / "work"),
    )


def test_in_read_only_the_client_never_sees_a_tool_that_writes_or_runs_and_cannot_call_one(
    peer: Peer,
) -> None:
    peer.write_policy('mode = "read-only"\n')

    async def main() -> tuple[list[str], types.CallToolResult]:
        async with Client(_serve(peer), mode="legacy", cache=None) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            write = await client.call_tool("write", {"path": "x.txt", "content": "x"})
            return names, write

    names, write = anyio.run(main)
    assert names == ["read", "list", "glob", "grep", "fetch", "detect_tools"]
    assert write.is_error is True
    assert text_of(write) == (
        "[policy-denied] unknown tool 'write': not offered here (tools: detect_tools, fetch, glob, grep, "
        "list, read) (tool write)"
    )
    assert not (peer.root / "work" / "x.txt").exists()


def test_the_enabled_list_is_the_whole_listing(peer: Peer) -> None:
    peer.write_policy('enabled = ["read", "multi_edit"]\n')

    async def main() -> list[str]:
        async with Client(_serve(peer), mode="legacy", cache=None) as client:
            return [t.name for t in (await client.list_tools()).tools]

    assert anyio.run(main) == ["read", "multi_edit"]
