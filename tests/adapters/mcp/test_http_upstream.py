"""``bastion mcp proxy --url``: a streamable-HTTP upstream (on 127.0.0.1) behind the proxy."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import anyio
import mcp_types as types
import pytest

from tests.adapters.mcp.conftest import NOTES, Peer, payload, text_of


@pytest.fixture
def http_url(peer: Peer) -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, NOTES, "--http", str(port)],
        env=peer.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail("the HTTP test server did not start")
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_streamable_http_upstream_is_gated_like_a_stdio_one(peer: Peer, http_url: str) -> None:
    peer.write_policy(
        '[[rule]]\ntool = "mcp"\npattern = "web/read_*"\naction = "allow"\n'
        '[[rule]]\ntool = "mcp"\npattern = "web/delete_*"\naction = "deny"\n'
    )

    async def main() -> tuple[list[str], types.CallToolResult, types.CallToolResult]:
        from mcp import Client, StdioServerParameters

        from tests.adapters.mcp.conftest import BASTION

        params = StdioServerParameters(
            command=BASTION,
            args=["mcp", "proxy", "--policy", str(peer.policy), "--name", "web", "--url", http_url],
            env=peer.env,
            cwd=str(peer.root / "work"),
        )
        async with Client(params, mode="legacy", cache=None) as client:
            names = sorted(t.name for t in (await client.list_tools()).tools)
            read = await client.call_tool("read_note", {"name": "a"})
            delete = await client.call_tool("delete_note", {"name": "a"})
            return names, read, delete

    names, read, delete = anyio.run(main)
    assert "read_note" in names and "delete_note" not in names
    assert payload(read) == "note a: buy milk"
    assert text_of(delete).startswith("[policy-denied] ")
    assert peer.calls() == [{"tool": "read_note", "name": "a"}]
