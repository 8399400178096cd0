"""Sandboxed execution: the Runner interface, the bubblewrap backend, limits and secrets.

The names load on first use: this package's modules import each other, and an
``__init__`` importing them all would sit in an import cycle with every one of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bastion.exec.boundary import build_spec, child_environment, sandbox_roots
    from bastion.exec.bubblewrap import BubblewrapRunner
    from bastion.exec.runner import ExecError, Limits, Runner, RunResult, RunSpec, SandboxUnavailable
    from bastion.exec.secrets import (
        SecretError,
        SecretStore,
        check_credentials_placement,
        ensure_credentials_dir,
    )
    from bastion.exec.select import select_runner
    from bastion.exec.settings import ExecConfig
    from bastion.exec.unsafe import UnsafeHostRunner

_WHERE = {
    "BubblewrapRunner": "bastion.exec.bubblewrap",
    "ExecConfig": "bastion.exec.settings",
    "ExecError": "bastion.exec.runner",
    "Limits": "bastion.exec.runner",
    "RunResult": "bastion.exec.runner",
    "RunSpec": "bastion.exec.runner",
    "Runner": "bastion.exec.runner",
    "SandboxUnavailable": "bastion.exec.runner",
    "SecretError": "bastion.exec.secrets",
    "SecretStore": "bastion.exec.secrets",
    "UnsafeHostRunner": "bastion.exec.unsafe",
    "build_spec": "bastion.exec.boundary",
    "check_credentials_placement": "bastion.exec.secrets",
    "child_environment": "bastion.exec.boundary",
    "ensure_credentials_dir": "bastion.exec.secrets",
    "sandbox_roots": "bastion.exec.boundary",
    "select_runner": "bastion.exec.select",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'bastion.exec' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


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
