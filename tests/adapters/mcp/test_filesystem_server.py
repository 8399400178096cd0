"""The proxy in front of a real third-party server: ``@modelcontextprotocol/server-filesystem``.

Install it outside the repo: ``npm install --prefix /root/mcp-servers
@modelcontextprotocol/server-filesystem`` (or point ``BASTION_MCP_SERVERS_DIR`` at the
prefix). Missing, these tests fail in CI (``CI=true``) and are skipped elsewhere.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import anyio
import mcp_types as types
import pytest

from tests.adapters.mcp.conftest import BASTION, PERSON_DENIED, Peer, approve, payload, text_of

PREFIX = Path(os.environ.get("BASTION_MCP_SERVERS_DIR", "/root/mcp-servers"))
SERVER = PREFIX / "node_modules" / ".bin" / "mcp-server-filesystem"


@pytest.fixture
def filesystem(peer: Peer) -> list[str]:
    node = shutil.which("node")
    if not SERVER.exists() or node is None:
        message = f"the npm filesystem MCP server is not installed at {SERVER} (or node is missing)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    root = peer.root / "work"
    (root / "notes.txt").write_text("buy milk\n")
    peer.env["PATH"] = f"{os.path.dirname(node)}:{peer.env['PATH']}"
    return [str(SERVER), str(root)]


POLICY = """
[[rule]]
tool = "mcp"
pattern = "files/write_file"
action = "deny"

[[rule]]
tool = "mcp"
pattern = "files/edit_file"
action = "deny"
reason = "no edits through MCP"

[[rule]]
tool = "mcp"
pattern = "files/read_text_file"
action = "allow"
"""


def test_the_filesystem_server_behind_the_proxy_is_gated(peer: Peer, filesystem: list[str]) -> None:
    peer.write_policy(POLICY)
    work = peer.root / "work"

    async def main() -> tuple[list[str], types.CallToolResult, types.CallToolResult, types.CallToolResult]:
        async with peer.client(*filesystem, name="files", elicit=approve("deny", "not today")) as client:
            names = sorted(t.name for t in (await client.list_tools()).tools)
            read = await client.call_tool("read_text_file", {"path": str(work / "notes.txt")})
            edit = await client.call_tool(
                "edit_file",
                {"path": str(work / "notes.txt"), "edits": [{"oldText": "milk", "newText": "beer"}]},
            )
            mkdir = await client.call_tool("create_directory", {"path": str(work / "made")})
            return names, read, edit, mkdir

    names, read, edit, mkdir = anyio.run(main)
    assert "write_file" not in names and "edit_file" not in names  # disabled: the model never sees them
    assert {"read_text_file", "create_directory", "list_directory"} <= set(names)
    assert payload(read) == "buy milk\n"
    assert text_of(edit) == (
        "[policy-denied] no edits through MCP (MCP tool files/edit_file). To allow it, change or remove "
        f"rule[2] in {peer.policy}:7: a person cannot override a deny rule."
    )
    assert text_of(mkdir) == (
        "[policy-denied] denied by a person: not today (MCP tool files/create_directory). " + PERSON_DENIED
    )
    assert (work / "notes.txt").read_text() == "buy milk\n"
    assert not (work / "made").exists()


@pytest.mark.parametrize("secret", [".env", "server.pem", "~/.ssh/id_rsa", "config/.env.production"])
def test_credential_paths_through_the_real_filesystem_server_are_denied_without_any_config(
    peer: Peer, filesystem: list[str], secret: str
) -> None:
    # Issue 15: with no [mcp.servers.files] paths configured, read_text_file of .env became a
    # question a person could approve. The inputSchema says "path" is a path: hardline deny.
    peer.write_policy('[[rule]]\ntool = "mcp"\npattern = "files/*"\naction = "allow"\n')
    work = peer.root / "work"
    (work / "config").mkdir()
    for name in (".env", "server.pem", "config/.env.production"):
        (work / name).write_text("SECRET=1\n")
    path = secret if secret.startswith("~") else str(work / secret)
    asked: list[str] = []

    def approve_and_note(params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return approve("once")(params)

    async def main() -> types.CallToolResult:
        async with peer.client(*filesystem, name="files", elicit=approve_and_note) as client:
            return await client.call_tool("read_text_file", {"path": path})

    result = anyio.run(main)
    assert result.is_error is True
    assert text_of(result).startswith("[policy-denied] ")
    assert "credential location" in text_of(result)
    assert (asked, "SECRET" in text_of(result)) == ([], False)


def test_a_path_outside_the_workspace_through_the_real_server_is_checked_by_the_path_policy(
    peer: Peer, filesystem: list[str]
) -> None:
    # The allow rule covers the MCP tool; the path still has to pass the path policy.
    peer.write_policy(
        '[[rule]]\ntool = "mcp"\npattern = "files/*"\naction = "allow"\n'
        '[approval]\ninteractive_default = "deny"\n'
    )
    outside = peer.root / "outside.txt"
    outside.write_text("not yours\n")

    async def main() -> types.CallToolResult:
        async with peer.client(*filesystem, name="files") as client:
            return await client.call_tool("read_text_file", {"path": str(outside)})

    result = anyio.run(main)
    assert (result.is_error, "not yours" in text_of(result)) == (True, False)
    assert f"{outside} is outside every readable root" in text_of(result)


def test_mcp_install_show_args_lists_what_the_real_server_gets_checked(
    peer: Peer, filesystem: list[str]
) -> None:
    config = peer.root / "work" / ".mcp.json"
    config.write_text(
        json.dumps({"mcpServers": {"files": {"command": filesystem[0], "args": filesystem[1:]}}})
    )

    done = subprocess.run(
        [BASTION, "mcp", "install", "claude", "--show-args"],
        cwd=peer.root / "work",
        env={**peer.env, "COLUMNS": "300"},
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "files/read_text_file: checks paths path" in lines
    assert "files/move_file: checks paths source, destination" in lines
    assert "files/read_multiple_files: checks paths paths[]" in lines
