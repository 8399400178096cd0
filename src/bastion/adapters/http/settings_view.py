"""What the settings page and ``GET /v1/settings`` show: the effective mode and ceiling with
where each came from, the roots, and the standing grants with their evidence.

Pure: built from the policy the daemon decides with and the store's grants, never from the
files again, so the page shows exactly what is in force.
"""

from __future__ import annotations

from typing import Any

from bastion.approval.model import ApprovalRequest, Grant, iso
from bastion.policy.compiled import Policy


def grant_object(grant: Grant, evidence: ApprovalRequest | None) -> dict[str, Any]:
    """A grant and the request a person approved to create it (None when it is gone)."""
    proof = None
    if evidence is not None:
        proof = {"request_id": evidence.id, "summary": evidence.summary, "reason": evidence.reason,
                 "asked_at": iso(evidence.created), "resolved_at": iso(evidence.resolved_at),
                 "resolver": evidence.resolver}  # fmt: skip
    return {**grant.to_json(), "created_at": iso(grant.created), "evidence": proof}


def settings_object(policy: Policy, grants: list[tuple[Grant, ApprovalRequest | None]]) -> dict[str, Any]:
    ceiling = policy.ceiling
    trusted = [root for root in policy.read_roots if root not in policy.workspace]
    return {
        "mode": {"value": policy.mode, "source": policy.mode_source},
        "ceiling": None if ceiling is None else {
            "approval": ceiling.approval, "filesystem": ceiling.filesystem, "network": ceiling.network,
            "source": policy.ceiling_source,
        },
        "approval": {"interactive_default": policy.interactive_default,
                     "non_interactive_default": policy.non_interactive_default,
                     "ttl_seconds": policy.ttl_seconds, "source": policy.approval_source},
        "workspace_roots": list(policy.workspace),
        "trusted_roots": [{"path": root, "writable": root in policy.write_roots} for root in trusted],
        "policy_files": list(policy.sources),
        "grants": [grant_object(grant, evidence) for grant, evidence in grants],
    }  # fmt: skip
