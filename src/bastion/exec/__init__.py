"""Sandboxed execution: the Runner interface, the bubblewrap backend, limits and secrets."""

from bastion.exec.boundary import build_spec, child_environment, sandbox_roots
from bastion.exec.bubblewrap import BubblewrapRunner
from bastion.exec.runner import (
    ExecError,
    Limits,
    Runner,
    RunResult,
    RunSpec,
    SandboxUnavailable,
)
from bastion.exec.secrets import (
    SecretError,
    SecretStore,
    check_credentials_placement,
    ensure_credentials_dir,
)
from bastion.exec.select import select_runner
from bastion.exec.unsafe import UnsafeHostRunner
from bastion.policy.exec_settings import ExecConfig

__all__ = [
    "BubblewrapRunner",
    "ExecConfig",
    "ExecError",
    "Limits",
    "RunResult",
    "RunSpec",
    "Runner",
    "SandboxUnavailable",
    "SecretError",
    "SecretStore",
    "UnsafeHostRunner",
    "build_spec",
    "check_credentials_placement",
    "child_environment",
    "ensure_credentials_dir",
    "sandbox_roots",
    "select_runner",
]
