"""Render the answer's sandbox into the agent's wire format: the shell command, rewritten
to run contained.

The Gatekeeper's containment stage (:mod:`bastion.runtime.contain`) already decided
whether the call runs contained and in which profile (``Evaluation.profile``), built the
run of an allowed call (``Evaluation.prepared``) and recorded that answer; this module only
writes it out. The agent (Claude Code ``updatedInput``, Copilot ``modifiedArgs``, Gemini
``tool_input``, Codex ``updatedInput``) then runs, for a prepared run, its line: a bash
that execs bubblewrap (``bastion.exec.prepared``; no Python), ending in
``bash -c 'ORIGINAL'``; otherwise (a question, a host profile, an approved call whose run
could not be built)
``bastion sandbox run --profile P [--host H…] --cwd DIR --timeout S [--approval ID | --hand-off ID]
-- bash -c 'ORIGINAL'``
(``--approval``: a host profile a person approved in Bastion's queue names the request, which
the run checks in the approvals store before its proxy skips asking about those hosts again;
``--hand-off``: a host profile handed to the agent's own prompt names that decision, which the
run checks in the ledger: ``bastion.runtime.handed_run``).
Either way the original command stays in the transcript word for word, and what it can
touch is what the decision found it does.
"""

from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bastion.adapters.hooks.protocol import HookRequest, Verdict

if TYPE_CHECKING:
    from bastion.call.model import ToolCall
    from bastion.policy.containment import Profile

#: Seconds a contained foreground call may run when the agent gives no timeout (Claude's
#: Bash default is 2 minutes, its maximum 10); a background one gets an hour.
DEFAULT_TIMEOUT = 120.0
BACKGROUND_TIMEOUT = 3600.0
MAX_TIMEOUT = 3600.0


def contain_verdict(
    verdict: Verdict,
    request: HookRequest,
    calls: Sequence[ToolCall],
    *,
    policy_path: str | None = None,
) -> Verdict:
    """``verdict``, with the shell command rewritten to run in the answer's profile."""
    evaluation = verdict.evaluation
    args = request.args
    if evaluation is None or len(calls) != 1 or calls[0].tool != "shell":
        return verdict
    if not isinstance(args, Mapping) or not isinstance(args.get("command"), str):
        return verdict
    profile = evaluation.profile
    if profile is None or verdict.decision == "deny":
        return verdict
    prepared = evaluation.prepared
    if prepared is not None:
        command = prepared.shell_command(str(args["command"]), _timeout(args))
    else:
        from bastion.runtime.approved_run import approval_of

        approval = approval_of(evaluation) if profile.hosts else None
        hand_off = verdict.hand_off if profile.hosts and approval is None else None
        command = contained_command(
            args, profile, cwd=request.ctx.cwd, policy_path=policy_path, approval=approval, hand_off=hand_off
        )
    return dataclasses.replace(verdict, updated_input={**args, "command": command})


def contained_command(
    args: Mapping[str, Any],
    profile: Profile,
    *,
    cwd: str,
    policy_path: str | None,
    approval: str | None = None,
    hand_off: str | None = None,
) -> str:
    """The one seam that builds the contained command the agent runs instead (``approval``:
    the request a person approved, for its run to check: ``bastion.runtime.approved_run``;
    ``hand_off``: the decision handed to the agent's prompt, ``bastion.runtime.handed_run``)."""
    from bastion.adapters.hooks.targets import bastion_executable

    original = str(args["command"])
    argv = [bastion_executable(), "sandbox", "run", *profile.argv(), "--cwd", cwd]
    argv += ["--timeout", f"{_timeout(args):g}"]
    if policy_path:
        argv += ["--policy", policy_path]
    if approval:
        argv += ["--approval", approval]
    elif hand_off:
        argv += ["--hand-off", hand_off]
    return shlex.join([*argv, "--", "bash", "-c", original])


def _timeout(args: Mapping[str, Any]) -> float:
    if args.get("run_in_background") is True:
        return BACKGROUND_TIMEOUT
    given = args.get("timeout")
    if isinstance(given, int | float) and not isinstance(given, bool) and given > 0:
        return min(given / 1000.0 + 5.0, MAX_TIMEOUT)  # Claude gives milliseconds
    return DEFAULT_TIMEOUT
