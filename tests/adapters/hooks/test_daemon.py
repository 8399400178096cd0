"""The hook fast path through ``bastion serve``'s local socket: same answers, fails closed."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bastion.adapters.hooks.daemon import HookServer, ResidentDecider, start_hook_server, stop_hook_server
from tests.adapters.hooks.contained import canonical_answer


@pytest.fixture
def hook_env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    (home / "proj").mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("BASTION_")}
    return {**env, "HOME": str(home), "BASTION_STATE_DIR": str(tmp_path / "state")}


@pytest.fixture
def daemon(hook_env: dict[str, str]) -> Iterator[HookServer]:
    server = start_hook_server(hook_env)
    yield server
    stop_hook_server(server)


def run_hook(
    env: dict[str, str], command: str, session: str = "s1", **extra: str
) -> subprocess.CompletedProcess[str]:
    cwd = os.path.join(env["HOME"], "proj")
    payload = {
        "session_id": session,
        "transcript_path": "/dev/null",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "toolu_1",
    }
    return subprocess.run(
        [sys.executable, "-m", "bastion.adapters.cli.main", "hook", "claude"],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={**env, **extra},
        cwd=cwd,
        timeout=60,
    )


@pytest.mark.parametrize("command", ["git status", "rm -rf /", "cat ~/.ssh/id_rsa", "frobnicate"])
def test_the_daemon_answers_exactly_as_the_hook_would_in_process(
    daemon: HookServer, hook_env: dict[str, str], command: str
) -> None:
    # Separate sessions: a repeat of a refused call in one session trips the repeat guard.
    via_daemon = run_hook(hook_env, command, session="a")
    in_process = run_hook(hook_env, command, session="b", BASTION_HOOK_NO_DAEMON="1")
    # The same answer; an allowed call's prepared line names its own run (read as the same).
    assert (via_daemon.returncode, _read(via_daemon.stdout)) == (
        in_process.returncode,
        _read(in_process.stdout),
    )
    assert os.stat(daemon.path).st_mode & 0o777 == 0o600


def _read(stdout: str) -> object:
    return canonical_answer(json.loads(stdout)) if stdout.strip() else stdout


def test_a_denial_through_the_daemon_blocks_with_exit_2(daemon: HookServer, hook_env: dict[str, str]) -> None:
    result = run_hook(hook_env, "rm -rf /")
    answer = json.loads(result.stdout)["hookSpecificOutput"]
    assert (result.returncode, answer["permissionDecision"]) == (2, "deny")
    assert answer["permissionDecisionReason"].startswith("[policy-denied]")


def test_a_daemon_that_dies_mid_request_is_a_denial(hook_env: dict[str, str]) -> None:
    path = os.path.join(hook_env["BASTION_STATE_DIR"], "hooks.sock")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)

    def accept_and_drop() -> None:
        conn, _ = listener.accept()
        conn.recv(65536)
        conn.close()  # dies without answering

    thread = threading.Thread(target=accept_and_drop)
    thread.start()
    try:
        result = run_hook(hook_env, "git status")
    finally:
        thread.join(timeout=10)
        listener.close()
    assert result.returncode == 2
    assert json.loads(result.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "daemon failed to answer" in result.stdout


def test_with_no_daemon_the_hook_decides_in_process(hook_env: dict[str, str]) -> None:
    result = run_hook(hook_env, "git status")
    assert (result.returncode, json.loads(result.stdout)["hookSpecificOutput"]["permissionDecision"]) == (
        0,
        "allow",
    )


def test_the_resident_daemon_sees_a_policy_edit_on_the_next_call(
    daemon: HookServer, hook_env: dict[str, str]
) -> None:
    assert run_hook(hook_env, "git status", session="a").returncode == 0
    project = Path(hook_env["HOME"]) / "proj" / ".bastion"
    project.mkdir()
    (project / "policy.toml").write_text('[commands]\ndeny = ["git status"]\n')
    result = run_hook(hook_env, "git status", session="b")
    answer = json.loads(result.stdout)["hookSpecificOutput"]
    assert (result.returncode, answer["permissionDecision"]) == (2, "deny")
    assert "matches deny entry 'git status'" in answer["permissionDecisionReason"]


class _SlowAfterwork(ResidentDecider):
    """A daemon whose after-work (settling earlier runs) holds until the test releases it."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.started = threading.Event()

    def settle_runs(self) -> None:
        self.started.set()
        self.release.wait(30)


def test_the_client_has_the_whole_answer_before_the_daemon_s_after_work_ends(
    hook_env: dict[str, str], tmp_path: Path
) -> None:
    from bastion.adapters.hooks.client import encode_request, unframe

    decider = _SlowAfterwork()
    server = HookServer(str(tmp_path / "hooks.sock"), decider=decider, base_env=hook_env)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    payload = {"session_id": "s", "cwd": os.path.join(hook_env["HOME"], "proj"), "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}  # fmt: skip
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(20)  # a failure, not a measure: without the fix this read waits for the release
            conn.connect(server.path)
            conn.sendall(encode_request(["claude"], {}, json.dumps(payload).encode()))
            conn.shutdown(socket.SHUT_WR)
            chunks = []
            while chunk := conn.recv(65536):
                chunks.append(chunk)
        code, stdout, stderr = unframe(b"".join(chunks), 3)
        assert (code, decider.started.wait(20), decider.release.is_set()) == (b"2", True, False)
        assert json.loads(stdout)["hookSpecificOutput"]["permissionDecision"] == "deny", stderr
    finally:
        decider.release.set()
        server.shutdown()
        server.server_close()
        decider.close()
