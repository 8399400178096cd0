"""The request a parked call becomes: what the queue stores and the approvals card states.

Redacted (no raw argument is stored), with the facts a person answers on: the folder the call
runs in, its project scope, and what ends the wait (the policy's ``ttl`` or the caller's own
shorter time-out: an agent's hook is killed by its agent at its timeout).
"""

from __future__ import annotations

from bastion.approval.grants import shell_argv, suggest_pattern
from bastion.approval.model import ApprovalRequest, Deadline, grantable
from bastion.audit.redact import redact, summarize
from bastion.call.model import ToolCall
from bastion.policy.decision import Evaluation


def parked_request(
    call: ToolCall,
    evaluation: Evaluation,
    *,
    request_id: str,
    now: float,
    timeout: float | None,
    ttl: float,
    project: str,
    call_key: str,
) -> ApprovalRequest:
    """``timeout`` (the caller's) can only shorten the policy's ``ttl``."""
    waits = ttl if timeout is None else min(timeout, ttl)
    argv = shell_argv(call)
    redacted = None if argv is None else tuple(redact(word) for word in argv)
    return ApprovalRequest(
        id=request_id,
        created=now,
        expires=now + max(waits, 0.0),
        tool=call.tool,
        summary=summarize(call),
        reason=redact(evaluation.message)[:500],
        evaluation=evaluation,
        call_key=call_key,
        project=project,
        folder=call.cwd,
        deadline=Deadline.CALLER if waits < ttl else Deadline.POLICY,
        session=call.session,
        agent=call.agent,
        turn=call.turn,
        argv=redacted,
        grantable=grantable(evaluation),
        suggested_pattern=suggest_pattern(redacted) if grantable(evaluation) else None,
    )
