"""The real checkers: a command run as a subprocess, an HTTP endpoint served on loopback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bastion.opinion import CheckerError, CommandChecker, HttpChecker, Verdict
from bastion.policy.decision import Decision

from .conftest import Endpoint, script

REQUEST = {
    "call": {"tool": "shell", "args": {"command": "git status"}, "cwd": "/w", "interactive": False},
    "evaluation": {"decision": "allow", "reasons": [], "effects": ["read"], "marker": None},
}


def test_a_command_reads_the_request_on_stdin_and_prints_its_verdict() -> None:
    assert CommandChecker(script("say", "ask")).check(REQUEST, 30) == Verdict(
        Decision.ASK, "checked a shell call"
    )


def test_the_command_sees_the_whole_request(tmp_path: Path) -> None:
    seen = tmp_path / "seen.json"
    CommandChecker(script("record", str(seen))).check(REQUEST, 30)
    assert json.loads(seen.read_text()) == REQUEST


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (script("garbage"), "malformed verdict: the verdict is not JSON"),
        (script("fail"), "it exited with status 3"),
        (script("say", "perhaps"), "malformed verdict: the verdict's decision must be allow, ask or deny"),
        (("/nonexistent/checker",), "cannot run /nonexistent/checker"),
    ],
)
def test_a_command_that_gives_no_verdict_is_an_error(argv: tuple[str, ...], problem: str) -> None:
    with pytest.raises(CheckerError) as info:
        CommandChecker(argv).check(REQUEST, 30)
    assert str(info.value).startswith(problem)


def test_a_command_past_its_timeout_is_killed_with_its_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    with pytest.raises(CheckerError, match=r"^no verdict within 3s$"):
        CommandChecker(script("hang", str(pidfile))).check(REQUEST, 3)
    pid = int(pidfile.read_text())
    assert not Path(f"/proc/{pid}").exists()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_an_endpoint_gets_the_request_posted_as_json(endpoint: Endpoint) -> None:
    endpoint.answer = lambda body: (
        200,
        json.dumps({"decision": "deny", "reason": f"no {body['call']['args']['command']}"}).encode(),
    )
    assert HttpChecker(endpoint.url).check(REQUEST, 30) == Verdict(Decision.DENY, "no git status")
    assert endpoint.received == [REQUEST]


@pytest.mark.parametrize(
    ("status", "body", "problem"),
    [
        (500, b'{"decision": "allow"}', "answered HTTP 500"),
        (200, b"<html>ok</html>", "malformed verdict: the verdict is not JSON"),
        (200, b'{"decision": "allow", "decision": "deny"}', "malformed verdict: the verdict is not JSON"),
    ],
)
def test_an_endpoint_that_gives_no_verdict_is_an_error(
    endpoint: Endpoint, status: int, body: bytes, problem: str
) -> None:
    endpoint.answer = lambda _: (status, body)
    with pytest.raises(CheckerError) as info:
        HttpChecker(endpoint.url).check(REQUEST, 30)
    assert problem in str(info.value)


def test_an_endpoint_past_its_timeout_is_an_error(endpoint: Endpoint) -> None:
    endpoint.answer = lambda _: (0, b'{"decision": "allow"}')  # held until released
    with pytest.raises(CheckerError, match="gave no verdict"):
        HttpChecker(endpoint.url).check(REQUEST, 0.5)
    endpoint.release.set()


def test_an_endpoint_nobody_listens_on_is_an_error(endpoint: Endpoint) -> None:
    with pytest.raises(CheckerError, match="gave no verdict"):
        HttpChecker("http://127.0.0.1:9/verdict").check(REQUEST, 5)
