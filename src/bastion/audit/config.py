"""``[audit]`` settings live with the policy; re-exported for the ledger."""

from bastion.policy.settings import AuditConfig

__all__ = ["AuditConfig"]
