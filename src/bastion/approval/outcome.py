"""Turn a resolution into the Evaluation the caller gets: the first reason says who decided.

The resolver is recoverable from any final Evaluation with :func:`resolver_of`, so the
ledger, the CLI and an agent all read the same answer to "who decided this?".
"""

from __future__ import annotations

from bastion.approval.model import ApprovalRequest, Grant, Resolver
from bastion.approval.state import RequestState
from bastion.policy.decision import MARKER_BLOCKED, MARKER_DENIED, Decision, Evaluation, Reason
from bastion.policy.rule_ids import Origin

#: Who resolved a call, read from its leading reason's origin; every other origin is the policy.
_BY_ORIGIN = {
    Origin.PERSON: Resolver.PERSON,
    Origin.CALLBACK: Resolver.CALLBACK,
    Origin.TIMEOUT: Resolver.TIMEOUT,
    Origin.CANCEL: Resolver.CANCEL,
    Origin.GRANT: Resolver.GRANT,
    Origin.LIMIT: Resolver.LIMIT,
    Origin.BREAKER: Resolver.BREAKER,
}


def resolver_of(evaluation: Evaluation) -> Resolver:
    if not evaluation.reasons:
        return Resolver.POLICY
    return _BY_ORIGIN.get(evaluation.reasons[0].origin, Resolver.POLICY)


def prepend(evaluation: Evaluation, reason: Reason, *, marker: str | None) -> Evaluation:
    """The same evaluation with a new deciding reason in front (earlier reasons kept)."""
    return Evaluation(
        decision=reason.decision,
        reasons=(reason, *evaluation.reasons),
        effects=evaluation.effects,
        marker=marker,
        trace=evaluation.trace,
    )


def granted(evaluation: Evaluation, grant: Grant) -> Evaluation:
    what = f"pattern {grant.pattern!r}" if grant.pattern else "this exact call"
    reason = Reason(
        Decision.ALLOW,
        f"grant.{grant.kind}",
        f"grant {grant.id}",
        grant.summary,
        f"a standing grant ({grant.scope.value} {grant.scope_value}) allows {what}",
    )
    return prepend(evaluation, reason, marker=None)


def overridden(evaluation: Evaluation, reason: Reason) -> Evaluation:
    """A limit or breaker refusal: a hard reject the agent must not retry."""
    return prepend(evaluation, reason, marker=MARKER_BLOCKED)


def confirmed(evaluation: Evaluation) -> Evaluation:
    reason = Reason(
        Decision.ALLOW, "approval.confirmed", "caller", "", "a person confirmed this call before it was sent"
    )
    return prepend(evaluation, reason, marker=None)


def non_interactive(evaluation: Evaluation, default: str, source: str) -> Evaluation:
    decision = Decision.parse(default)
    reason = Reason(
        decision,
        "approval.non_interactive_default",
        source,
        "",
        "nobody can be asked here (non-interactive): the call is "
        f"{'denied' if decision is Decision.DENY else 'left to ask'} without waiting",
    )
    # The cause (the rule or check that asked) leads; the default only says nobody answered.
    cause = tuple(r for r in evaluation.reasons if not r.origin.soft)
    if not cause:
        return prepend(evaluation, reason, marker=None)
    return Evaluation(
        decision=decision,
        reasons=(*cause, reason),
        effects=evaluation.effects,
        marker=None,
        trace=evaluation.trace,
    )


def resolved(request: ApprovalRequest, asked: Evaluation, *, ttl_text: str = "") -> Evaluation:
    """The final Evaluation of a parked request in a final state."""
    by = request.resolver or "person"
    rule = {
        "callback": "approval.callback",
        "timeout": "approval.timeout",
        "cancel": "approval.cancelled",
    }.get(by, "approval.person")
    who = "your code (on_permission)" if by == "callback" else "a person"
    source = f"request {request.id}"
    match request.state:
        case RequestState.APPROVED_ONCE:
            reason = Reason(Decision.ALLOW, rule, source, request.id, f"approved once by {who}")
            return prepend(asked, reason, marker=None)
        case RequestState.APPROVED_UNCONTAINED:  # never a grant: this one call, as written
            message = f"approved once by {who} to run uncontained, as written, outside the sandbox"
            reason = Reason(Decision.ALLOW, "approval.uncontained", source, request.id, message)
            return prepend(asked, reason, marker=None)
        case RequestState.APPROVED_ALWAYS:
            reason = Reason(
                Decision.ALLOW,
                rule,
                source,
                request.id,
                f"approved by {who}; standing grant {request.grant_id} created",
            )
            return prepend(asked, reason, marker=None)
        case RequestState.DENIED:
            feedback = f": {request.feedback}" if request.feedback else ""
            reason = Reason(Decision.DENY, rule, source, request.id, f"denied by {who}{feedback}")
            return prepend(asked, reason, marker=MARKER_DENIED)
        case RequestState.EXPIRED:
            within = f" within {ttl_text}" if ttl_text else " in time"
            reason = Reason(
                Decision.DENY,
                "approval.timeout",
                source,
                request.id,
                f"nobody answered{within}: an unanswered request is a denial",
            )
            return prepend(asked, reason, marker=None)
        case RequestState.CANCELLED:
            reason = Reason(
                Decision.DENY,
                "approval.cancelled",
                source,
                request.id,
                "the request was cancelled before anyone answered",
            )
            return prepend(asked, reason, marker=None)
    raise ValueError(f"request {request.id} is still pending")


def ttl_text(seconds: float) -> str:
    for unit, size in (("h", 3600), ("m", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    return f"{seconds:g}s"


def final_evaluation(request: ApprovalRequest) -> Evaluation:
    """The final Evaluation of a resolved request from the stored request alone: what the
    waiter returns and what every writer of its ledger record writes."""
    return resolved(request, request.evaluation, ttl_text=ttl_text(request.expires - request.created))
