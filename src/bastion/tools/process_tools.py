"""Tools that run a process through the runner: ``exec`` (a command line) and ``code``."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from typing import Any

from bastion.call.families import Family
from bastion.call.model import ToolCall
from bastion.exec.boundary import build_spec
from bastion.exec.bubblewrap import visible
from bastion.exec.limits import SYSTEM_PATH
from bastion.exec.profile import Filesystem, Profile, profile_for, shell_hosts
from bastion.exec.protected import ScanBudgetExceeded
from bastion.exec.runner import ExecError, Runner, RunResult, RunSpec
from bastion.policy.decision import Decision, Evaluation
from bastion.tools.base import Tool, ToolError, ToolResult, hints
from bastion.tools.egress_run import with_egress
from bastion.tools.runtimes import Runtime, detect_runtimes
from bastion.tools.schema import obj

_TIMEOUT = {
    "type": "number",
    "exclusiveMinimum": 0,
    "description": "seconds; capped by the policy's [exec] timeout",
}
_STDIN = {"type": "string", "description": "text fed to standard input (closed when absent)"}


def result_of(run: RunResult) -> ToolResult:
    return ToolResult(
        ok=run.exit_code == 0 and not run.timed_out,
        decision="allow",
        exit_code=run.exit_code,
        stdout=run.stdout,
        stderr=run.stderr,
        truncated=run.truncated,
        timed_out=run.timed_out,
        message=f"timed out and was killed after {run.duration:.1f}s" if run.timed_out else "",
        data={"runner": run.runner, **({"swept": list(run.swept)} if run.swept else {})},
    )


def not_checked(exc: ScanBudgetExceeded) -> ToolResult:
    """The roots are too big to check for credential files: not run, a person must decide."""
    return ToolResult(ok=False, decision="ask", message=f"not run: {exc}")


class _ProcessTool(Tool):
    @property
    def runner(self) -> Runner:
        runner = self.ctx.runner
        if runner is None:
            raise ExecError("no runner is available to run commands")
        return runner

    async def launch(
        self,
        argv: Sequence[str],
        call: ToolCall,
        args: Mapping[str, Any],
        *,
        profile: Profile,
        cwd: str,
        extra_writable: Sequence[str] = (),
        extra_readonly: Sequence[str] = (),
    ) -> ToolResult:
        secrets = self.ctx.secrets.load(args.get("secrets", ()))
        stdin = args.get("stdin")
        try:
            spec = build_spec(
                self.ctx.policy,
                self.ctx.config,
                argv,
                cwd=cwd,
                timeout=args.get("timeout"),
                stdin=None if stdin is None else stdin.encode("utf-8"),
                secrets=secrets,
                extra_writable=extra_writable,
                extra_readonly=extra_readonly,
                environ=self.ctx.environ,
                profile=profile,
            )
        except ScanBudgetExceeded as exc:
            return not_checked(exc)
        with contextlib.ExitStack() as stack:
            if profile.hosts and self.runner.sandboxed:  # else no network at all (fail closed)
                spec = with_egress(stack, self.ctx, call, spec, profile.hosts)
            run = await asyncio.to_thread(self.runner.run, spec)
        return result_of(run)


class ExecTool(_ProcessTool):
    name = "exec"
    family = Family.SHELL
    description = (
        "Run a shell command line with bash inside the sandbox. Network is available "
        "only when the policy allowed it for this command. 'secrets' names "
        "credentials to inject as environment variables for this call only."
    )
    annotations = hints(read_only=False, destructive=True, idempotent=False, open_world=True)

    def build_schema(self) -> dict[str, Any]:
        return obj(
            {
                "command": {"type": "string", "description": "the command line (bash syntax)"},
                "timeout": _TIMEOUT,
                "stdin": _STDIN,
                "secrets": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "names from the policy's [exec] secrets",
                },
            },
            ("command",),
        )

    async def execute(self, args: Mapping[str, Any], call: ToolCall, evaluation: Evaluation) -> ToolResult:
        bash = shutil.which("bash", path=SYSTEM_PATH) or "bash"
        allowed = evaluation.decision is Decision.ALLOW
        hosts = shell_hosts(args["command"], call.cwd, self.ctx.policy.home) if allowed else ()
        profile = profile_for(evaluation, hosts)
        return await self.launch([bash, "-c", args["command"]], call, args, profile=profile, cwd=call.cwd)


class CodeTool(_ProcessTool):
    name = "code"
    family = Family.CODE
    description = (
        "Run a program in the sandbox: the source is written into a fresh temp dir, "
        "run (Rust: compiled, then run) with the cwd as working directory, then "
        "deleted. No network."
    )
    annotations = hints(read_only=False, destructive=True, idempotent=False, open_world=False)

    @property
    def runtimes(self) -> dict[str, Runtime]:
        return detect_runtimes()

    def build_schema(self) -> dict[str, Any]:
        return obj(
            {
                "language": {"type": "string", "enum": sorted(self.runtimes)},
                "source": {"type": "string"},
                "timeout": _TIMEOUT,
                "stdin": _STDIN,
            },
            ("language", "source"),
        )

    async def execute(self, args: Mapping[str, Any], call: ToolCall, evaluation: Evaluation) -> ToolResult:
        runtime = self.runtimes.get(args["language"])
        if runtime is None:
            raise ToolError(f"no {args['language']} runtime is installed here")
        return await run_code(self, runtime, args["source"], call, args)


async def run_code(
    tool: _ProcessTool, runtime: Runtime, source: str, call: ToolCall, args: Mapping[str, Any]
) -> ToolResult:
    """Write ``source`` into a unique temp dir, run it in the sandbox, delete the dir."""
    directory = tempfile.mkdtemp(prefix="bastion-code-")
    try:
        path = os.path.join(directory, runtime.filename)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(source)
        probe = RunSpec(
            ("true",), cwd=directory, writable_roots=tuple(tool.ctx.policy.write_roots),
            readonly_roots=tuple(tool.ctx.policy.read_roots),
        )  # fmt: skip
        cwd = call.cwd if visible(call.cwd, probe) else directory
        # Code may write the workspace (protected paths stay read-only); never network.
        return await tool.launch(
            runtime.argv(directory),
            call,
            args,
            profile=Profile(Filesystem.WORKSPACE_WRITE),
            cwd=cwd,
            extra_writable=(directory,),
            extra_readonly=runtime.readonly,
        )
    finally:
        shutil.rmtree(directory, ignore_errors=True)
