"""Which evaluations a person (or a standing grant) may answer, and asking the code that answers."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable

from bastion.approval.model import CALLBACK, ApprovalRequest, PermissionDecision, grantable
from bastion.approval.outcome import non_interactive
from bastion.approval.queue import AnswerError, ApprovalQueue
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Evaluation
from bastion.policy.rule_ids import NOBODY_TO_ASK


def would_ask(evaluation: Evaluation) -> bool:
    """An ASK, or the engine's soft non-interactive DENY of what would have been an ASK
    (a standing grant may answer both); never a hardline call, never a real DENY."""
    if evaluation.hardline:
        return False
    if evaluation.decision is Decision.ASK:
        return True
    deciding = [r for r in evaluation.reasons if r.decision is Decision.DENY]
    return (
        evaluation.decision is Decision.DENY
        and evaluation.marker is None
        and bool(deciding)
        and all(r.rule in NOBODY_TO_ASK for r in deciding)
    )


def shadow_answer(policy: Policy, evaluation: Evaluation, *, headless: bool) -> Evaluation:
    """Shadow mode's answer (``enforce = false``): allowed, recording the decision enforcing
    would have made *for this caller*. A ``headless`` caller (nobody can answer an ASK: a
    non-interactive request, an agent run without a person) would get the non-interactive
    default, a deny, so its ASK is recorded as ``would_deny``."""
    from bastion.policy.shadow import shadowed

    if headless and evaluation.decision is Decision.ASK:
        evaluation = non_interactive(evaluation, policy.non_interactive_default, policy.approval_source)
    return shadowed(evaluation, policy.enforce_source)


async def ask_callback(
    on_permission: Callable[[ApprovalRequest], object], queue: ApprovalQueue, request: ApprovalRequest
) -> None:
    """Ask ``on_permission`` (the Python API's callback) and answer the parked request with
    its reply; a failing callback is a denial."""
    try:
        reply = on_permission(request)
        if inspect.isawaitable(reply):
            reply = await reply
        choice = PermissionDecision.coerce(reply)
        always = choice.kind == "always" and request.grantable and grantable(request.evaluation)
        queue.answer(
            request.id,
            approve=choice.kind != "reject",
            always=always,
            pattern=choice.pattern,
            scope=choice.scope,
            feedback=choice.feedback,
            resolver="callback",
            approver=CALLBACK,
        )
    except asyncio.CancelledError:
        raise
    except AnswerError:
        return  # already resolved (expired or answered elsewhere): nothing to do
    except Exception as exc:  # a failing callback is a denial, never an approval
        try:
            queue.answer(
                request.id,
                approve=False,
                resolver="callback",
                approver=CALLBACK,
                feedback=f"on_permission failed: {type(exc).__name__}: {exc}",
            )
        except AnswerError:
            return
