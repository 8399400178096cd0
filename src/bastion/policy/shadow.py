"""Shadow mode (``enforce = false``): every call is decided and recorded with the decision
enforcing would have taken, and allowed — except what no rollout may let through: a
hardline class (destructive, system, infrastructure, credentials, Bastion itself) and any
call Bastion could not decide safely (an error is never an allow).

The shadowed Evaluation is an ALLOW whose first reason is ``shadow.would_<decision>`` (so
the ledger's ``rule`` column says *shadow* on every record, and ``bastion logs
--would-deny`` can find them), followed by the reasons enforcing would have acted on;
its JSON carries ``"shadow": true`` and ``"would": "<decision>"``.
"""

from __future__ import annotations

import dataclasses

from bastion.policy.decision import Decision, Evaluation, Reason

SHADOW_PREFIX = "shadow.would_"
HARDLINE_RULE = "shadow.hardline"
#: Rules of ``deny_for_error`` answers: no safe decision was reached, so none is waived.
ERROR_RULES = frozenset(
    {"internal-error", "call.invalid", "state.unavailable", "audit.unavailable", "policy.invalid"}
)


def would_rule(decision: Decision) -> str:
    return f"{SHADOW_PREFIX}{decision.label}"


def _kept(evaluation: Evaluation) -> bool:
    """A denial shadow mode never waives: hardline, or an error."""
    if evaluation.decision is not Decision.DENY and not evaluation.hardline:
        return False
    return evaluation.hardline or any(r.rule in ERROR_RULES for r in evaluation.reasons)


def shadowed(evaluation: Evaluation, source: str) -> Evaluation:
    """The answer under ``enforce = false`` (``source``: where it was set) for ``evaluation``."""
    if evaluation.shadow:
        return evaluation
    would = evaluation.decision
    if _kept(evaluation):
        note = Reason(
            would,
            HARDLINE_RULE,
            source,
            "",
            "shadow mode: hardline classes and undecidable calls are still enforced",
        )
        return dataclasses.replace(evaluation, reasons=(*evaluation.reasons, note), shadow=True, would=would)
    deciding = "; ".join(r.message for r in evaluation.reasons if r.decision is would) or would.label
    first = Reason(
        Decision.ALLOW,
        would_rule(would),
        source,
        evaluation.reasons[0].matched if evaluation.reasons else "",
        f"[shadow] would {would.label}: {deciding}",
    )
    return dataclasses.replace(
        evaluation,
        decision=Decision.ALLOW,
        reasons=(first, *evaluation.reasons),
        marker=None,
        shadow=True,
        would=would,
    )
