"""What the ``session`` and ``job`` tools share: the sandbox they start in, and the one
execution record every decided line or job gets once it is known how it ended."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bastion.call.model import ToolCall
from bastion.exec.boundary import build_spec
from bastion.exec.bubblewrap import BubblewrapRunner
from bastion.exec.profile import Profile
from bastion.exec.pty import Starter
from bastion.exec.runner import ExecError, Runner, RunSpec
from bastion.policy.decision import Evaluation
from bastion.tools.base import Authorizer, ToolContext, ToolResult


def starter(runner: Runner | None, spec: RunSpec) -> Starter:
    """How the runner would start ``spec``, for a process that outlives the call. Only the
    bubblewrap sandbox: a runner without an OS boundary gets no long-lived shell."""
    if not isinstance(runner, BubblewrapRunner):
        name = "none" if runner is None else runner.name
        raise ExecError(f"sessions and jobs run only in the bubblewrap sandbox (runner: {name})")
    return lambda stack: runner.prepare(spec, stack)


def sandbox_spec(
    ctx: ToolContext,
    argv: Sequence[str],
    *,
    profile: Profile,
    seconds: float,
    cwd: str,
    env: Mapping[str, str] | None = None,
    readonly: Sequence[str] = (),
) -> RunSpec:
    """The RunSpec an ``exec`` call would get, with the tool's own wall clock and extra
    variables (raises ScanBudgetExceeded like ``build_spec``)."""
    spec = build_spec(ctx.policy, ctx.config, argv, cwd=cwd, environ=ctx.environ, profile=profile,
                      extra_readonly=readonly)  # fmt: skip
    return dataclasses.replace(spec, timeout=seconds, env={**spec.env, **(env or {})})


@dataclass(slots=True)
class Pending:
    """An allowed line or job whose execution is not recorded yet."""

    call: ToolCall
    evaluation: Evaluation
    started: float


class Recorder:
    """Records each pending execution exactly once, from the tool's own thread."""

    def __init__(self) -> None:
        self._pending: Pending | None = None
        self._lock = threading.Lock()

    def hold(self, pending: Pending) -> None:
        with self._lock:
            self._pending = pending

    def settle(self, authorizer: Authorizer, exit_code: int | None, ended: float) -> None:
        with self._lock:
            pending, self._pending = self._pending, None
        if pending is not None:
            authorizer.record_execution(pending.call, pending.evaluation, exit_code, ended - pending.started)


def refusal(message: str, **data: Any) -> ToolResult:
    """Refused by Bastion itself (bad input, a limit, an unknown id): nothing ran."""
    return ToolResult(ok=False, decision="deny", message=message, data=data)
