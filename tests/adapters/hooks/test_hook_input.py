"""Hook input framing and the socket's read timeout (issue 15, "Input framing"): input an
agent and Bastion could read differently is a deny; a silent client cannot hold a worker."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from bastion.adapters.hooks.client import MAGIC, encode_request, unframe
from bastion.adapters.hooks.daemon import HookServer, answer_hook, start_hook_server, stop_hook_server
from bastion.adapters.hooks.decide import LocalDecider
from tests.adapters.hooks.conftest import Sandbox, run_hook


def bash(sandbox: Sandbox, command: str) -> dict[str, object]:
    return {
        "session_id": "s1",
        "cwd": str(sandbox.project),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_1",
    }


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        (
            "duplicate key",
            '{{"tool_name": "Bash", "tool_input": {{"command": "ls", "command": "rm -rf ~"}}, {rest}}}',
        ),
        ("NaN", '{{"tool_name": "Bash", "tool_input": {{"command": "ls", "n": NaN}}, {rest}}}'),
        (
            "too deep",
            '{{"tool_name": "Bash", "tool_input": {{"command": "ls", "n": '
            + "[" * 100
            + "]" * 100
            + "}}, {rest}}}",
        ),
    ],
)
def test_hook_input_with_duplicate_keys_nan_or_deep_nesting_is_denied(
    sandbox: Sandbox, name: str, raw: str
) -> None:
    rest = f'"session_id": "s1", "cwd": {json.dumps(str(sandbox.project))}, "hook_event_name": "PreToolUse"'
    run = run_hook("claude", raw.format(rest=rest), sandbox.env(BASTION_HOOK_NO_DAEMON="1"))

    decision = run.json["hookSpecificOutput"]["permissionDecision"]
    assert (decision, run.exit_code) == ("deny", 2)
    assert "not JSON that can be read safely" in run.json["hookSpecificOutput"]["permissionDecisionReason"]


def test_the_daemon_denies_a_duplicate_key_the_same_way(sandbox: Sandbox) -> None:
    stdin = '{"tool_name": "Bash", "tool_name": "Read", "tool_input": {"command": "ls"}}'
    reply = answer_hook(
        {"args": ["claude"], "env": {}, "stdin": stdin}, decider=LocalDecider(), base_env=sandbox.env()
    )

    assert reply["exit_code"] == 2
    assert (
        "duplicate key 'tool_name'"
        in json.loads(reply["stdout"])["hookSpecificOutput"]["permissionDecisionReason"]
    )


@pytest.fixture
def quick_daemon(sandbox: Sandbox) -> Iterator[HookServer]:
    server = start_hook_server(sandbox.env())
    server.read_timeout = 0.3
    yield server
    stop_hook_server(server)


def reply_of(sock: socket.socket) -> tuple[int, bytes, bytes]:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    code, stdout, stderr = unframe(data, 3)
    return int(code), stdout, stderr


def test_a_hook_client_that_connects_and_sends_nothing_is_answered_and_released(
    quick_daemon: HookServer,
) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as silent:
        silent.settimeout(30)  # the test fails, never hangs, if the worker is held
        silent.connect(quick_daemon.path)
        assert reply_of(silent) == (2, b"", b"bastion hook: no complete request within 0.3 s\n")


def test_a_hook_client_that_sends_half_a_request_and_stalls_is_released(quick_daemon: HookServer) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as stalled:
        stalled.settimeout(30)
        stalled.connect(quick_daemon.path)
        stalled.sendall(MAGIC + b"6\nclaude")
        assert reply_of(stalled)[0] == 2


def test_a_prompt_hook_client_is_still_answered(
    quick_daemon: HookServer, sandbox: Sandbox, tmp_path: Path
) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(30)
        client.connect(quick_daemon.path)
        client.sendall(encode_request(["claude"], {}, json.dumps(bash(sandbox, "git status")).encode()))
        client.shutdown(socket.SHUT_WR)
        code, stdout, _ = reply_of(client)
    assert (code, json.loads(stdout)["hookSpecificOutput"]["permissionDecision"]) == (0, "allow")
