"""Faults on either side: broken messages, a crashing or missing upstream, signals, reloads."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPError

from tests.adapters.mcp.conftest import BASTION, NOTES, Peer, payload, text_of

ALLOW_ALL = '[[rule]]\ntool = "mcp"\npattern = "notes/*"\naction = "allow"\n'


class RawAgent:
    """An agent that writes raw lines to the proxy's stdin (to send what the SDK never would)."""

    def __init__(self, peer: Peer) -> None:
        self.process = subprocess.Popen(
            [BASTION, *peer.proxy_args()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=peer.env,
            cwd=peer.root / "work",
            text=True,
        )
        # Lines are read by a thread: two answers may arrive in one read, and a select() on
        # the pipe after the first readline() would then wait for a third that never comes.
        self.lines: queue.Queue[str] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def request(self, id_: int, method: str, params: dict[str, Any] | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": id_, "method": method}
        if params is not None:
            message["params"] = params
        self.send(json.dumps(message))

    def receive(self) -> dict[str, Any]:
        try:
            line = self.lines.get(timeout=60)
        except queue.Empty:
            raise AssertionError("the proxy did not answer within 60 s") from None
        data: dict[str, Any] = json.loads(line)
        return data

    def initialize(self) -> None:
        self.request(
            1,
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "1"},
            },
        )
        assert self.receive()["id"] == 1
        self.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))

    def wait(self) -> int:
        """Wait for the proxy to exit, then close every pipe to it."""
        code = self.process.wait(timeout=60)
        self.reader.join(timeout=60)  # it ends at the pipe's end, before the pipe is closed
        for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
            if pipe is not None and not pipe.closed:
                pipe.close()
        return code


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead: only its parent has not collected it yet
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def _gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return not _alive(pid)


def test_malformed_lines_from_the_agent_get_json_rpc_errors_and_serving_goes_on(peer: Peer) -> None:
    agent = RawAgent(peer)
    agent.send("this is not json")
    agent.send('{"foo": 1}')
    answers = [agent.receive(), agent.receive()]
    agent.initialize()
    agent.send('{"jsonrpc": "2.0", "id": 2, "method": "tools/list"')
    agent.request(3, "tools/list")
    answers += [agent.receive(), agent.receive()]
    agent.process.stdin.close()  # type: ignore[union-attr]
    assert agent.wait() == 0
    assert answers[:3] == [
        {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": -32700, "message": "Parse error: the line is not valid JSON"},
        },
        {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": -32600, "message": "Invalid Request: the line is not a JSON-RPC 2.0 message"},
        },
        {
            "jsonrpc": "2.0",
            "id": None,
            "error": {"code": -32700, "message": "Parse error: the line is not valid JSON"},
        },
    ]
    assert answers[3]["id"] == 3 and "read_note" in [t["name"] for t in answers[3]["result"]["tools"]]


def test_lines_from_the_upstream_that_are_not_json_rpc_do_not_break_the_session(peer: Peer) -> None:
    peer.write_policy(ALLOW_ALL)

    async def main() -> list[str]:
        async with peer.client() as client:
            noisy = await client.call_tool("noisy", {})
            after = await client.call_tool("read_note", {"name": "a"})
            return [payload(noisy), payload(after)]

    assert anyio.run(main) == ["answered after the noise", "note a: buy milk"]


def test_an_upstream_crash_is_a_clear_error_and_the_next_call_starts_it_again(peer: Peer) -> None:
    peer.write_policy(ALLOW_ALL)

    async def main() -> tuple[types.CallToolResult, types.CallToolResult]:
        async with peer.client() as client:
            crashed = await client.call_tool("crash", {})
            again = await client.call_tool("read_note", {"name": "a"})
            return crashed, again

    crashed, again = anyio.run(main)
    label = f"{sys.executable} {NOTES}"
    assert crashed.is_error is True
    assert text_of(crashed) == (
        f"[bastion] the MCP server '{label}' exited or closed its connection while running crash; the "
        "call may not have completed. It is started again on the next call. (MCP tool notes/crash)"
    )
    assert payload(again) == "note a: buy milk"
    assert len(peer.starts()) == 2


def test_an_upstream_that_cannot_start_is_a_clear_error(peer: Peer) -> None:
    async def main() -> str:
        async with peer.client("/nonexistent/mcp-server") as client:
            with pytest.raises(MCPError) as raised:
                await client.list_tools()
            return raised.value.message

    assert anyio.run(main) == (
        "cannot start the MCP server '/nonexistent/mcp-server': command not found: /nonexistent/mcp-server"
    )


@pytest.mark.parametrize("how", ["SIGTERM", "hang-up"])
def test_the_proxy_reaps_its_upstream_when_it_stops(peer: Peer, how: str) -> None:
    agent = RawAgent(peer)
    agent.initialize()
    agent.request(2, "tools/list")
    assert agent.receive()["id"] == 2
    [upstream] = peer.starts()
    assert _alive(upstream)
    if how == "SIGTERM":
        agent.process.send_signal(signal.SIGTERM)
    else:
        agent.process.stdin.close()  # type: ignore[union-attr]
    agent.wait()
    assert _gone_within(upstream, 30)


def test_a_policy_that_fails_to_reload_denies_every_call_until_it_is_fixed(peer: Peer) -> None:
    peer.write_policy(ALLOW_ALL)

    async def main() -> list[str]:
        async with peer.client() as client:
            before = payload(await client.call_tool("read_note", {"name": "a"}))
            peer.write_policy(ALLOW_ALL + "[[rule]\n")
            broken = text_of(await client.call_tool("read_note", {"name": "b"}))
            peer.write_policy(
                ALLOW_ALL + '[[rule]]\ntool = "mcp"\npattern = "notes/read_note"\n'
                'action = "deny"\nreason = "no more reading"\n'
            )
            fixed = text_of(await client.call_tool("read_note", {"name": "c"}))
            return [before, broken, fixed]

    before, broken, fixed = anyio.run(main)
    assert before == "note a: buy milk"
    # One lifecycle for every entry point: the same words and rule as the HTTP gateway's.
    assert broken.startswith(
        "[policy-denied] cannot decide safely: the policy failed to load, so "
        f"every call is denied until it is fixed: {peer.policy}:"
    )
    assert broken.endswith(
        "(MCP tool notes/read_note). It cannot be allowed until the policy loads again: fix it "
        "(`bastion policy test` checks it)."
    )
    assert fixed == (
        "[policy-denied] no more reading (MCP tool notes/read_note). To allow it, change or remove "
        f"rule[2] in {peer.policy}:5: a person cannot override a deny rule."
    )
    assert peer.calls() == [{"tool": "read_note", "name": "a"}]
