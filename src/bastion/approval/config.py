"""``[limits]`` settings live with the policy; re-exported for the approval layer."""

from bastion.policy.settings import LimitsConfig

__all__ = ["LimitsConfig"]
