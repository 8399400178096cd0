"""End to end with the real Claude Code at its own terminal (a pseudo-terminal the test
drives, a model API served on loopback): Bastion hands an ASK to Claude's prompt, the test
answers the prompt as a person would ("1. Yes" or "2. No"), and the ledger holds the answer.

Print mode (``-p``) cannot show a prompt (Claude turns ``ask`` into a denial there, and
Bastion denies what it would ask), so this runs Claude interactively: onboarding, the folder
trust dialog and the API-key question are answered beforehand in ``~/.claude.json``, as a
person who has used Claude before has them.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from bastion.adapters.hooks.install import install
from bastion.configuration import default_configuration
from bastion.construct import open_gatekeeper
from tests.adapters.hooks.conftest import Sandbox, agent_cli
from tests.adapters.hooks.fake_models import FakeModelServer, Script

KEY = "sk-ant-dummy-key-0123456789abcdefghij"
#: How long any one step may take (Claude's start, a hook, the model's answer).
STEP = 90.0
_ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


class Terminal:
    """Claude Code on a pseudo-terminal: what it shows, and keys typed into it."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid, self.fd, self.shown = pid, fd, b""
        self.ended = False

    def screen(self) -> str:
        return _ANSI.sub(b" ", self.shown).decode("utf-8", "replace")

    def read(self, wait: float) -> None:
        ready, _, _ = select.select([self.fd], [], [], wait)
        if ready:
            try:
                self.shown += os.read(self.fd, 65536)
            except OSError:  # Claude exited: the terminal closed
                return

    def until(self, done: Callable[[], bool], what: str, *, keys: bytes = b"") -> None:
        """Read until ``done()``; ``keys`` are typed once a second until then (a key typed
        before the prompt takes input is lost, so it is typed again, never raced)."""
        deadline = time.monotonic() + STEP
        typed = 0.0
        while not done():
            assert time.monotonic() < deadline, f"{what}: not seen within {STEP:g} s\n{self.screen()[-3000:]}"
            if keys and time.monotonic() - typed >= 1.0 and not self.ended:
                os.write(self.fd, keys)
                typed = time.monotonic()
            self.read(0.2)

    def type(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def exited(self) -> bool:
        self.ended = self.ended or os.waitpid(self.pid, os.WNOHANG)[0] != 0
        return self.ended


@contextmanager
def claude_at_its_terminal(sandbox: Sandbox, command: str) -> Iterator[tuple[Terminal, Script]]:
    claude = agent_cli("claude")
    settings = {"hasCompletedOnboarding": True, "theme": "dark",
                "customApiKeyResponses": {"approved": [KEY[-20:]], "rejected": []},
                "projects": {str(sandbox.project): {"hasTrustDialogAccepted": True,
                                                    "hasCompletedProjectOnboarding": True}}}  # fmt: skip
    (sandbox.home / ".claude.json").write_text(json.dumps(settings))
    install("claude", cwd=str(sandbox.project), env=sandbox.env(), out=lambda *_: None)
    script = Script("Bash", {"command": command, "description": "build"})
    with FakeModelServer(script) as server:
        env = sandbox.env(
            TERM="xterm-256color",
            ANTHROPIC_BASE_URL=server.url,
            ANTHROPIC_API_KEY=KEY,
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            DISABLE_AUTOUPDATER="1",
            BASTION_HOOK_AUTOSTART="0",
        )
        pid, fd = pty.fork()
        if pid == 0:  # the child: Claude Code, started as a person starts it, with a task
            os.chdir(sandbox.project)
            os.execve(claude, [claude, "do the task"], env)
        terminal = Terminal(pid, fd)
        try:
            yield terminal, script
        finally:
            if not terminal.exited():
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            os.close(fd)


def ledger(sandbox: Sandbox) -> list[tuple[str, str, str, str | None, str | None]]:
    env = sandbox.env()
    with open_gatekeeper(default_configuration(cwd=str(sandbox.project), env=env), env) as keeper:
        return [
            (r.event.kind, r.event.decision, r.event.resolver, r.event.approver, r.event.agent)
            for r in keeper.ledger.events()
            if r.event.kind in ("requested", "resolved")
        ]


def resolved(sandbox: Sandbox) -> Callable[[], bool]:
    return lambda: any(row[0] == "resolved" for row in ledger(sandbox))


def _built(sandbox: Sandbox) -> Path:
    """What ``make build`` leaves: Bastion asks before it (it runs the Makefile's code)."""
    (sandbox.project / "Makefile").write_text("build:\n\techo built > built.txt\n")
    return sandbox.project / "built.txt"


#: A build that asks whatever runs it: the program is only known at run time (``make build``
#: itself is workspace code, allowed because it runs contained).
BUILD = "${MAKE:-make} build"


def test_a_call_a_person_approves_in_claudes_prompt_runs_and_is_recorded_allowed_by_claude_prompt(
    sandbox: Sandbox,
) -> None:
    built = _built(sandbox)
    with claude_at_its_terminal(sandbox, BUILD) as (terminal, script):
        terminal.until(lambda: "Do you want to proceed?" in terminal.screen(), "Claude's prompt")
        terminal.until(lambda: bool(script.results), "the call's result", keys=b"1")  # 1. Yes
        terminal.until(resolved(sandbox), "the resolution")

    assert built.read_text() == "built\n"
    assert ledger(sandbox) == [
        ("requested", "ask", "agent", None, "claude/toolu_bastion_test_1"),
        ("resolved", "allow", "agent", "claude prompt", "claude/toolu_bastion_test_1"),
    ]


def test_a_call_a_person_refuses_in_claudes_prompt_never_runs_and_is_recorded_denied(
    sandbox: Sandbox,
) -> None:
    built = _built(sandbox)
    with claude_at_its_terminal(sandbox, BUILD) as (terminal, _):
        terminal.until(lambda: "Do you want to proceed?" in terminal.screen(), "Claude's prompt")
        terminal.until(lambda: "What should Claude do instead?" in terminal.screen(), "No", keys=b"2")
        assert ledger(sandbox)[1:] == []  # the refusal ends the turn without a Stop: still open
        terminal.type(b"/exit")  # the input is ready: it just showed Claude's question
        terminal.until(lambda: "Exit the CLI" in terminal.screen(), "the /exit command")
        terminal.until(terminal.exited, "Claude's exit", keys=b"\r")  # SessionEnd
        terminal.until(resolved(sandbox), "the resolution")

    assert not built.exists()
    assert ledger(sandbox) == [
        ("requested", "ask", "agent", None, "claude/toolu_bastion_test_1"),
        ("resolved", "deny", "agent", "claude prompt", "claude/toolu_bastion_test_1"),
    ]
