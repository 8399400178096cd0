"""Rewrite an allowed shell call so it runs inside Bastion's sandbox, in its profile.

The agent (Claude Code ``updatedInput``, Copilot ``modifiedArgs``) then runs
``bastion sandbox run --profile P [--host H…] --cwd DIR --timeout S -- bash -c 'ORIGINAL'``:
the original command stays in the transcript word for word, and what it can touch is what
the decision found it does. ``[exec] contain`` picks which outcomes are rewritten. A call
that cannot be contained (no working sandbox, a tree too big to check for credentials) is
not let through uncontained: it asks, with the reason.
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bastion.adapters.hooks.protocol import HookRequest, Verdict

if TYPE_CHECKING:
    from bastion.call.model import ToolCall
    from bastion.configuration import Configuration
    from bastion.policy.compiled import Policy

#: Seconds a contained foreground call may run when the agent gives no timeout (Claude's
#: Bash default is 2 minutes, its maximum 10); a background one gets an hour.
DEFAULT_TIMEOUT = 120.0
BACKGROUND_TIMEOUT = 3600.0
MAX_TIMEOUT = 3600.0


def contain_verdict(
    verdict: Verdict,
    request: HookRequest,
    calls: Sequence[ToolCall],
    config: Configuration,
    *,
    policy_path: str | None = None,
) -> Verdict:
    """``verdict``, with the shell command rewritten when ``[exec] contain`` says so."""
    from bastion.approval.model import Resolver
    from bastion.approval.outcome import resolver_of
    from bastion.exec.profile import contains

    evaluation = verdict.evaluation
    args = request.args
    if evaluation is None or len(calls) != 1 or calls[0].tool != "shell":
        return verdict
    if not isinstance(args, Mapping) or not isinstance(args.get("command"), str):
        return verdict
    by_person = resolver_of(evaluation) is Resolver.PERSON
    if not contains(config.exec.contain, evaluation.decision, by_person=by_person):
        return verdict
    policy = config.policy
    problem = _uncontainable(config, evaluation)
    if problem is not None:
        return dataclasses.replace(verdict, decision="ask", reason=problem)
    command = contained_command(args, policy, evaluation, cwd=request.ctx.cwd, policy_path=policy_path)
    return dataclasses.replace(verdict, updated_input={**args, "command": command})


def _uncontainable(config: Configuration, evaluation: Any) -> str | None:
    from bastion.exec.boundary import protection, sandbox_roots
    from bastion.exec.profile import profile_for
    from bastion.exec.protected import ScanBudgetExceeded
    from bastion.exec.select import bwrap_problem

    problem = bwrap_problem()
    if problem is not None:
        return (
            f'this call cannot run contained here ({problem}); run it yourself, or set [exec] contain = "off"'
        )
    writable, readonly, _ = sandbox_roots(config.policy, writes=profile_for(evaluation).writable)
    try:
        protection(config.policy, config.exec, writable, readonly)
    except ScanBudgetExceeded as exc:
        return str(exc)
    return None


def contained_command(
    args: Mapping[str, Any], policy: Policy, evaluation: Any, *, cwd: str, policy_path: str | None
) -> str:
    from bastion.adapters.hooks.targets import bastion_executable
    from bastion.exec.profile import profile_for, shell_hosts

    original = str(args["command"])
    profile = profile_for(evaluation, shell_hosts(original))
    argv = [bastion_executable(), "sandbox", "run", *profile.argv(), "--cwd", cwd]
    argv += ["--timeout", f"{_timeout(args):g}"]
    if policy_path:
        argv += ["--policy", policy_path]
    return shlex.join([*argv, "--", "bash", "-c", original])


def _timeout(args: Mapping[str, Any]) -> float:
    if args.get("run_in_background") is True:
        return BACKGROUND_TIMEOUT
    given = args.get("timeout")
    if isinstance(given, int | float) and not isinstance(given, bool) and given > 0:
        return min(given / 1000.0 + 5.0, MAX_TIMEOUT)  # Claude gives milliseconds
    return DEFAULT_TIMEOUT
