"""``[exec]`` settings live with the policy (they are part of it); re-exported for the runner."""

from bastion.policy.exec_settings import DEFAULT_ENV_ALLOW, SECRET_NAME, ExecConfig

__all__ = ["DEFAULT_ENV_ALLOW", "SECRET_NAME", "ExecConfig"]
