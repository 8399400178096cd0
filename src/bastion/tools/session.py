"""``session``: an interactive shell on a pty inside the sandbox, typed into line by line.

``open`` starts ``bash --noprofile`` with Bastion's own rc file instead of any user's (no
line editing, no history, no history expansion, the variables that run or find commands
read-only: a typed line is run as typed) on a pty, in the sandbox an ``exec`` call that
writes would get (never network). ``send`` types one line, and every line is first decided
by the gate as the shell call it is, in the shell's current directory: a line that is not
allowed never reaches the pty, and its reasons are returned. ``read`` returns the output
since the last read; ``close`` kills the session. A session nobody types into or reads
from for ``idle_seconds``, or older than ``total_seconds``, is killed and says why.

A line is typed only when the shell waits at its prompt with nothing running: typed while
a program runs, it would go to that program (or run later, in a directory the gate did not
see). So a line that leaves something running keeps the session busy until it ends; long
or background work belongs to the ``job`` tool.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from bastion.call.families import Family
from bastion.call.model import ToolCall
from bastion.errors import BastionError
from bastion.exec.limits import SYSTEM_PATH
from bastion.exec.process import Launch
from bastion.exec.procfs import find_descendant, has_children, proc_status
from bastion.exec.profile import Filesystem, Profile
from bastion.exec.protected import ScanBudgetExceeded
from bastion.exec.pty import Ending, LiveProcess, Starter
from bastion.exec.runner import ExecError
from bastion.policy.decision import Decision, Evaluation
from bastion.tools.base import Tool, ToolResult, hints, refused
from bastion.tools.schema import obj, validate
from bastion.tools.session_common import Pending, Recorder, refusal, sandbox_spec, starter
from bastion.tools.session_prompt import PromptTracker, line_problem
from bastion.tools.session_table import SessionSettings

#: Line editing, history and ``!`` expansion off: what is typed is what runs. No user
#: start-up file: ``--rcfile`` is Bastion's own (``PromptTracker.rc_text``), never ~/.bashrc.
SHELL_FLAGS = ("--noprofile", "--noediting", "+o", "history", "+H", "+m", "-i")
#: No readline init file, should line editing come back on (it closes the session anyway).
SHELL_ENV = {"TERM": "dumb", "INPUTRC": "/dev/null"}

_WHY = {
    Ending.EXITED: "the shell exited",
    Ending.KILLED: "closed",
    Ending.TIMED_OUT: "killed: older than its total time limit ({total:g}s)",
    Ending.IDLE: "killed: nothing was sent or read for {idle:g}s (its idle limit)",
    Ending.REFUSED: "closed by Bastion: {refused}",
    Ending.FAILED: "could not start",
}


class PtySession:
    """One open shell: its process, its prompt, what was read, and the line in flight."""

    def __init__(self, key: str, live: LiveProcess, prompt: PromptTracker, settings: SessionSettings) -> None:
        self.key = key
        self.live = live
        self.prompt = prompt
        self.settings = settings
        self.shell_pid: int | None = None
        self.modes: list[Any] | None = None  # the terminal's input modes at the start
        self.cursor = 0
        self.sent_at_prompt = 0  # prompts seen when the last line was typed
        self.recorder = Recorder()
        self.sending = threading.Lock()  # one line decided at a time

    @property
    def running(self) -> bool:
        return self.live.running

    def kill(self) -> None:
        self.live.kill()

    def wait_ended(self, timeout: float) -> bool:
        return self.live.wait_ended(timeout)

    def finished(self) -> bool:
        """Has the last line typed finished (a new prompt after it)?"""
        with self.live.changed:
            return self.prompt.prompts > self.sent_at_prompt

    def state(self) -> str:
        if not self.live.running:
            return "ended"
        return "ready" if self.finished() else "busy"

    def why_ended(self) -> str:
        ending = self.live.end
        if ending is None:
            return ""
        text = _WHY[ending].format(
            total=self.settings.total_seconds, idle=self.settings.idle_seconds, refused=self.prompt.refused
        )
        return f"{text}: {self.live.error}" if self.live.error else text

    def busy(self) -> str | None:
        """Why a line cannot be typed now, or None."""
        if not self.live.running or self.shell_pid is None:
            return f"the session has ended ({self.why_ended() or 'no shell'})"
        if not self.finished():
            return "the shell is still running the previous line: read its output first"
        if self.live.terminal_modes() != self.modes:
            # `stty kill K` would make the terminal erase what was typed before each K:
            # the shell would read another line than the one decided.
            self.prompt.refuse("the terminal's settings changed: a typed line would not reach "
                               "the shell as it was decided")  # fmt: skip
            return f"the session has ended ({self.why_ended()})"
        if not self._waiting(self.shell_pid):
            return "the shell is not waiting at its prompt"
        if has_children(self.shell_pid):
            return "the shell still has a program running (use the job tool for background work)"
        return None

    @staticmethod
    def _waiting(pid: int, timeout: float = 2.0) -> bool:
        """Is the shell asleep (in its read of the next line)? It prints the prompt just
        before it reads: a moment of running right after the prompt is normal."""
        deadline = time.monotonic() + timeout
        pause = threading.Event()
        while True:
            status = proc_status(pid)
            if status is None or status[1] in "ZXTt":  # gone or stopped: never at its prompt
                return False
            if status[1] == "S" or time.monotonic() > deadline:
                return status[1] == "S"
            pause.wait(0.01)

    def cwd(self) -> str:
        """The shell's working directory now (what the decision must be relative to)."""
        assert self.shell_pid is not None
        try:
            return os.readlink(f"/proc/{self.shell_pid}/cwd")
        except OSError:
            raise ExecError("the session has ended") from None

    def settle(self, tool: Tool) -> None:
        """Record the last line's execution once its end is known."""
        if self.finished():
            with self.live.changed:
                code = self.prompt.exit_code
            self.recorder.settle(tool.ctx.authorizer, code, time.monotonic())
        elif not self.live.running:
            self.recorder.settle(tool.ctx.authorizer, None, self.live.ended_at or time.monotonic())

    def take_output(self) -> tuple[str, int, bool]:
        """(output since the last read, bytes dropped before it, more is held)."""
        with self.live.changed:
            chunk = self.live.log.read(self.cursor, self.settings.read_bytes)
            self.cursor = chunk.next_offset
            return chunk.text, chunk.dropped, chunk.next_offset < self.live.log.total


class SessionTool(Tool):
    name = "session"
    family = Family.SHELL
    description = (
        "An interactive bash on a terminal inside the sandbox (no network). action=open "
        "starts one and returns its id; send types one line (each line is decided by the "
        "policy as a shell command before it reaches the shell); read returns the output "
        "since the last read; close ends it. One line at a time: a line is typed only when "
        "the previous one has finished. No heredocs, no control characters."
    )
    annotations = hints(read_only=False, destructive=True, idempotent=False, open_world=False)

    @property
    def settings(self) -> SessionSettings:
        return self.ctx.background.session_settings

    def build_schema(self) -> dict[str, Any]:
        return obj(
            {
                "action": {"type": "string", "enum": ["open", "send", "read", "close"]},
                "session": {"type": "string", "description": "the id open returned"},
                "input": {"type": "string", "description": "send: one line of shell input"},
                "wait": {
                    "type": "number",
                    "minimum": 0,
                    "description": "send/read: seconds to wait for the shell's prompt",
                },
            },
            ("action",),
        )

    async def run(self, args: Mapping[str, Any], *, cwd: str | None = None) -> dict[str, Any]:
        try:
            clean = validate(self.name, self.schema, args)
            for entry in self.ctx.background.sessions:  # lines whose end was not seen yet
                if isinstance(entry, PtySession):
                    entry.settle(self)
            action = clean["action"]
            if action == "open":
                result = await self._open(cwd or self.ctx.cwd)
            else:
                result = await self._on_session(action, clean)
        except BastionError as exc:
            result = refusal(str(exc))
        return result.to_json()

    async def execute(self, args: Mapping[str, Any], call: ToolCall, evaluation: Evaluation) -> ToolResult:
        raise ExecError("the session tool decides each line itself (see run)")

    def _shell(self, prompt: PromptTracker, cwd: str) -> tuple[Starter, Callable[[], None]]:
        """How to start the shell, and how to clean up if it never starts: its rc file in a
        folder of its own, bound read-only into the sandbox and removed when the shell has
        ended. Raises ScanBudgetExceeded."""
        bash = shutil.which("bash", path=SYSTEM_PATH) or "/bin/bash"
        folder = tempfile.mkdtemp(prefix="bastion-session-")
        try:
            rc = os.path.join(folder, "rc")
            with open(rc, "w", encoding="ascii") as handle:
                handle.write(prompt.rc_text())
            # The profile of an exec call that writes: the gate decides each line; the
            # sandbox bounds what any of them can reach (read-only mode: read-only).
            profile = Profile(Filesystem.WORKSPACE_WRITE)
            spec = sandbox_spec(self.ctx, [bash, "--rcfile", rc, *SHELL_FLAGS], profile=profile, cwd=cwd,
                                seconds=self.settings.total_seconds, env={**prompt.env, **SHELL_ENV},
                                readonly=(folder,))  # fmt: skip
            start = starter(self.ctx.runner, spec)
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise

        def launch(stack: contextlib.ExitStack) -> Launch:
            stack.callback(shutil.rmtree, folder, ignore_errors=True)
            return start(stack)

        return launch, lambda: shutil.rmtree(folder, ignore_errors=True)

    async def _open(self, cwd: str) -> ToolResult:
        settings = self.settings
        prompt = PromptTracker()
        try:
            launch, discard = self._shell(prompt, cwd)
        except ScanBudgetExceeded as exc:
            return ToolResult(ok=False, decision="ask", message=f"not opened: {exc}")
        live = LiveProcess(launch, terminal=True, cap=settings.max_output_bytes,
                           total_seconds=settings.total_seconds, idle_seconds=settings.idle_seconds,
                           output_filter=prompt.feed)  # fmt: skip
        # A continuation line, or a line read under changed options, would not run as decided.
        prompt.on_refused = lambda: live.kill(Ending.REFUSED)
        table = self.ctx.background.sessions
        key = table.new_id()
        session = PtySession(key, live, prompt, settings)
        if not table.add(key, session, max_running=settings.max_open):
            discard()
            return refusal(f"at most {settings.max_open} sessions may be open at once: close one first")
        try:
            await asyncio.to_thread(live.start)
        except ExecError:
            table.remove(key)
            raise
        await asyncio.to_thread(live.wait_until, session.finished, settings.max_wait_seconds)
        discard()  # the shell read its rc file before its first prompt: nothing is left behind
        session.shell_pid = find_descendant(live.pid or 0, "bash")
        session.modes = live.terminal_modes()
        if session.shell_pid is None or not live.running:
            live.kill()
            table.remove(key)
            raise ExecError(f"the shell did not start ({session.why_ended() or 'no prompt'})")
        return self._answer(session, "opened")

    async def _on_session(self, action: str, args: Mapping[str, Any]) -> ToolResult:
        key = args.get("session")
        entry = self.ctx.background.sessions.get(key) if isinstance(key, str) else None
        if not isinstance(entry, PtySession):
            return refusal(f"no session {key!r} here: open one first")
        entry.live.touch()
        entry.settle(self)
        wait = min(float(args.get("wait", 0.0)), self.settings.max_wait_seconds)
        if action == "send":
            return await self._send(entry, args.get("input"), wait if "wait" in args else 10.0)
        if action == "read":
            if wait:
                await asyncio.to_thread(entry.live.wait_until, entry.finished, wait)
                entry.settle(self)
            return self._answer(entry, "")
        entry.live.kill()
        await asyncio.to_thread(entry.live.wait_ended, 10.0)
        entry.settle(self)
        answer = self._answer(entry, "closed")
        self.ctx.background.sessions.remove(entry.key)
        return answer

    async def _send(self, session: PtySession, text: object, wait: float) -> ToolResult:
        if not isinstance(text, str):
            return self._refuse(session, "send needs 'input': one line of shell input")
        problem = line_problem(text, self.settings.max_line_bytes)
        if problem is not None:
            return self._refuse(session, f"not typed: {problem}")
        line = text.removesuffix("\n")
        if not session.sending.acquire(blocking=False):
            return self._refuse(session, "another line is being decided for this session")
        try:
            busy = await asyncio.to_thread(session.busy)
            if busy is not None:
                return self._refuse(session, f"not typed: {busy}")
            cwd = session.cwd()
            call = ToolCall(tool=Family.SHELL.value, args={"command": line}, cwd=cwd,
                            interactive=self.ctx.interactive)  # fmt: skip
            with session.live.attended():  # a person may take longer than the idle limit
                evaluation = await self.ctx.authorizer.request(call)
            if evaluation.decision is not Decision.ALLOW:
                return dataclasses.replace(refused(evaluation), data=self._where(session))
            # A person may have taken minutes: the shell must still be where the gate saw it.
            changed = await asyncio.to_thread(session.busy) or (
                None if session.cwd() == cwd else "the shell's directory changed"
            )
            if changed is not None:
                return self._refuse(session, f"not typed: {changed}")
            with session.live.changed:
                session.sent_at_prompt = session.prompt.prompts
            session.recorder.hold(Pending(call, evaluation, time.monotonic()))
            try:
                session.live.write(line.encode("utf-8") + b"\n")
            finally:
                session.live.touch()
        finally:
            session.sending.release()
        await asyncio.to_thread(session.live.wait_until, session.finished, wait)
        session.settle(self)
        return self._answer(session, "", evaluation)

    @staticmethod
    def _where(session: PtySession) -> dict[str, Any]:
        return {"session": session.key, "state": session.state()}

    def _refuse(self, session: PtySession, message: str) -> ToolResult:
        return refusal(message, **self._where(session))

    def _answer(self, session: PtySession, message: str, evaluation: Evaluation | None = None) -> ToolResult:
        text, dropped, more = session.take_output()
        done = session.finished()
        with session.live.changed:
            code = session.prompt.exit_code if done else None
        ended = session.why_ended()
        state = session.state()
        return ToolResult(
            ok=session.live.end in (None, Ending.KILLED, Ending.EXITED) and code in (None, 0),
            decision="allow",
            exit_code=code,
            stdout=text,
            truncated=bool(dropped) or more,
            timed_out=session.live.end in (Ending.TIMED_OUT, Ending.IDLE),
            message=ended or message,
            data={"session": session.key, "state": state, "dropped": dropped, "more": more},
            reasons=() if evaluation is None else tuple(r.to_json() for r in evaluation.reasons),
        )
