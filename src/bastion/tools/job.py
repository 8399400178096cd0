"""``job``: a long non-interactive shell command in the sandbox, in the background.

``start`` decides the command as the shell call it is (exactly as ``exec`` does) and, when
allowed, runs it with bash in the sandbox of that decision's profile (hosts it names reached
through an egress proxy that lives as long as the job, and nothing else), stdin closed, stdout
and stderr together into a bounded log (the newest bytes are kept), killed with its whole
group at its wall-clock limit. ``status`` tells how it is doing, ``output`` returns the log
from an offset (capped per answer), ``kill`` ends it. Its execution is recorded once, when
its end is first seen.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import time
from collections.abc import Mapping
from typing import Any

from bastion.call.families import Family
from bastion.call.model import ToolCall
from bastion.errors import BastionError
from bastion.exec.limits import SYSTEM_PATH
from bastion.exec.process import Launch
from bastion.exec.profile import profile_for, shell_hosts
from bastion.exec.protected import ScanBudgetExceeded
from bastion.exec.pty import Ending, LiveProcess, Starter
from bastion.exec.runner import ExecError, RunSpec
from bastion.policy.decision import Decision, Evaluation
from bastion.tools.base import Tool, ToolContext, ToolResult, hints, refused
from bastion.tools.egress_run import with_egress
from bastion.tools.schema import obj, validate
from bastion.tools.session_common import Pending, Recorder, refusal, sandbox_spec, starter
from bastion.tools.session_table import JobSettings

_STATE = {
    None: "running",
    Ending.EXITED: "exited",
    Ending.KILLED: "killed",
    Ending.TIMED_OUT: "timed-out",
    Ending.IDLE: "killed",
    Ending.REFUSED: "killed",
    Ending.FAILED: "failed",
}


def _through_egress(ctx: ToolContext, call: ToolCall, spec: RunSpec, hosts: tuple[str, ...]) -> Starter:
    """The start of a job whose decision named ``hosts``: an egress proxy to those hosts
    only, opened on the job's own stack, so it lives exactly as long as the job's process."""

    def start(stack: contextlib.ExitStack) -> Launch:
        return starter(ctx.runner, with_egress(stack, ctx, call, spec, hosts))(stack)

    return start


class Job:
    """One background command: its process, and its execution not yet recorded."""

    def __init__(self, key: str, command: str, live: LiveProcess) -> None:
        self.key = key
        self.command = command
        self.live = live
        self.recorder = Recorder()

    @property
    def running(self) -> bool:
        return self.live.running

    def kill(self) -> None:
        self.live.kill()

    def wait_ended(self, timeout: float) -> bool:
        return self.live.wait_ended(timeout)

    def settle(self, tool: Tool) -> None:
        if not self.live.running:
            self.recorder.settle(
                tool.ctx.authorizer, self.live.exit_code, self.live.ended_at or time.monotonic()
            )

    def status(self, settings: JobSettings) -> dict[str, Any]:
        live = self.live
        with live.changed:
            return {
                "job": self.key,
                "state": _STATE[live.ending],
                "pid": live.pid,
                "exit_code": live.exit_code,
                "duration": round(live.duration, 3),
                "output_bytes": live.log.total,
                "held_from": live.log.start,
                "limit_seconds": live.total_seconds,
                **({"error": live.error} if live.error else {}),
            }


class JobTool(Tool):
    name = "job"
    family = Family.SHELL
    description = (
        "Long non-interactive shell commands in the sandbox, in the background. "
        "action=start runs 'command' (decided by the policy like exec) and returns a job id; "
        "status reports it; output returns its combined stdout and stderr from 'offset'; "
        "kill ends it. Jobs are killed at their time limit."
    )
    annotations = hints(read_only=False, destructive=True, idempotent=False, open_world=True)

    @property
    def settings(self) -> JobSettings:
        return self.ctx.background.job_settings

    def build_schema(self) -> dict[str, Any]:
        return obj(
            {
                "action": {"type": "string", "enum": ["start", "status", "output", "kill"]},
                "job": {"type": "string", "description": "the id start returned"},
                "command": {"type": "string", "description": "start: the command line (bash syntax)"},
                "timeout": {
                    "type": "number",
                    "exclusiveMinimum": 0,
                    "description": "start: seconds before it is killed; capped by the job limit",
                },
                "offset": {"type": "integer", "minimum": 0, "description": "output: from this byte"},
                "wait": {
                    "type": "number",
                    "minimum": 0,
                    "description": "status/output: seconds to wait for the job to end first",
                },
            },
            ("action",),
        )

    async def run(self, args: Mapping[str, Any], *, cwd: str | None = None) -> dict[str, Any]:
        try:
            clean = validate(self.name, self.schema, args)
            self._settle_all()
            if clean["action"] == "start":
                result = await self._start(clean, cwd or self.ctx.cwd)
            else:
                result = await self._on_job(clean)
        except BastionError as exc:
            result = refusal(str(exc))
        return result.to_json()

    async def execute(self, args: Mapping[str, Any], call: ToolCall, evaluation: Evaluation) -> ToolResult:
        raise ExecError("the job tool decides each start itself (see run)")

    def _settle_all(self) -> None:
        for entry in self.ctx.background.jobs:
            if isinstance(entry, Job):
                entry.settle(self)

    async def _start(self, args: Mapping[str, Any], cwd: str) -> ToolResult:
        command = args.get("command")
        if not isinstance(command, str) or not command.strip():
            return refusal("start needs 'command'")
        call = ToolCall(tool=Family.SHELL.value, args={"command": command}, cwd=cwd,
                        interactive=self.ctx.interactive)  # fmt: skip
        evaluation = await self.ctx.authorizer.request(call)
        if evaluation.decision is not Decision.ALLOW:
            return refused(evaluation)
        settings = self.settings
        seconds = min(args.get("timeout") or settings.total_seconds, settings.total_seconds)
        bash = shutil.which("bash", path=SYSTEM_PATH) or "/bin/bash"
        # The profile of the decision, as for exec: hosts only through the egress proxy.
        profile = profile_for(evaluation, shell_hosts(command, cwd, self.ctx.policy.home))
        try:
            spec = sandbox_spec(self.ctx, [bash, "-c", command], profile=profile, seconds=seconds, cwd=cwd)
        except ScanBudgetExceeded as exc:
            return ToolResult(ok=False, decision="ask", message=f"not run: {exc}")
        start = starter(self.ctx.runner, spec)  # refuses a runner without an OS boundary
        if profile.hosts:  # as for exec: those hosts only, through the egress proxy (else none)
            start = _through_egress(self.ctx, call, spec, profile.hosts)
        live = LiveProcess(start, terminal=False, cap=settings.max_output_bytes, total_seconds=seconds)
        table = self.ctx.background.jobs
        job = Job(table.new_id(), command, live)
        if not table.add(job.key, job, max_running=settings.max_running):
            return refusal(f"at most {settings.max_running} jobs may run at once: kill one or wait")
        job.recorder.hold(Pending(call, evaluation, time.monotonic()))
        try:
            await asyncio.to_thread(live.start)
        except ExecError as exc:
            job.settle(self)
            table.remove(job.key)
            return ToolResult(ok=False, decision="allow", message=str(exc))
        return self._answer(job, evaluation=evaluation)

    async def _on_job(self, args: Mapping[str, Any]) -> ToolResult:
        key = args.get("job")
        job = self.ctx.background.jobs.get(key) if isinstance(key, str) else None
        if not isinstance(job, Job):
            return refusal(f"no job {key!r} here")
        action = args["action"]
        wait = min(float(args.get("wait", 0.0)), self.settings.max_wait_seconds)
        if wait and action != "kill":
            await asyncio.to_thread(job.live.wait_ended, wait)
            job.settle(self)
        if action == "kill":
            job.live.kill()
            await asyncio.to_thread(job.live.wait_ended, 10.0)
            job.settle(self)
        if action == "output":
            return self._output(job, args.get("offset", 0))
        return self._answer(job)

    def _output(self, job: Job, offset: int) -> ToolResult:
        with job.live.changed:
            chunk = job.live.log.read(offset, self.settings.read_bytes)
            total = job.live.log.total
        status = job.status(self.settings)
        data = {**status, "offset": chunk.offset, "next_offset": chunk.next_offset, "dropped": chunk.dropped}
        return ToolResult(
            ok=True,
            decision="allow",
            exit_code=status["exit_code"],
            stdout=chunk.text,
            truncated=bool(chunk.dropped) or chunk.next_offset < total,
            timed_out=status["state"] == "timed-out",
            data=data,
        )

    def _answer(self, job: Job, *, evaluation: Evaluation | None = None) -> ToolResult:
        status = job.status(self.settings)
        state = status["state"]
        message = {
            "timed-out": f"killed at its time limit ({job.live.total_seconds:g}s)",
            "killed": "killed",
            "failed": f"could not start: {job.live.error}",
        }.get(state, "")
        return ToolResult(
            ok=state in ("running", "exited", "killed") and status["exit_code"] in (None, 0),
            decision="allow",
            exit_code=status["exit_code"],
            timed_out=state == "timed-out",
            message=message,
            data=status,
            reasons=() if evaluation is None else tuple(r.to_json() for r in evaluation.reasons),
        )
