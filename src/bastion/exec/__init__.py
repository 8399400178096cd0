"""Sandboxed execution: the Runner interface, the bubblewrap backend, limits and secrets.

The names load on first use: this package's modules import each other, and an
``__init__`` importing them all would sit in an import cycle with every one of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bastion.exec.boundary import build_spec, child_environment, sandbox_roots
    from bastion.exec.bubblewrap import BubblewrapRunner
    from bastion.exec.prepared import PreparedRun, Unpreparable, prepare
    from bastion.exec.runner import ExecError, Limits, Runner, RunResult, RunSpec, SandboxUnavailable
    from bastion.exec.secrets import (
        SecretError,
        SecretStore,
        check_credentials_placement,
        ensure_credentials_dir,
    )
    from bastion.exec.select import select_runner
    from bastion.exec.settings import ExecConfig
    from bastion.exec.settle import Settled, settle
    from bastion.exec.unsafe import UnsafeHostRunner

_WHERE = {
    "BubblewrapRunner": "bastion.exec.bubblewrap",
    "ExecConfig": "bastion.exec.settings",
    "ExecError": "bastion.exec.runner",
    "Limits": "bastion.exec.runner",
    "PreparedRun": "bastion.exec.prepared",
    "RunResult": "bastion.exec.runner",
    "RunSpec": "bastion.exec.runner",
    "Runner": "bastion.exec.runner",
    "SandboxUnavailable": "bastion.exec.runner",
    "SecretError": "bastion.exec.secrets",
    "SecretStore": "bastion.exec.secrets",
    "Settled": "bastion.exec.settle",
    "Unpreparable": "bastion.exec.prepared",
    "UnsafeHostRunner": "bastion.exec.unsafe",
    "build_spec": "bastion.exec.boundary",
    "check_credentials_placement": "bastion.exec.secrets",
    "child_environment": "bastion.exec.boundary",
    "ensure_credentials_dir": "bastion.exec.secrets",
    "prepare": "bastion.exec.prepared",
    "sandbox_roots": "bastion.exec.boundary",
    "select_runner": "bastion.exec.select",
    "settle": "bastion.exec.settle",
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
    "PreparedRun",
    "RunResult",
    "RunSpec",
    "Runner",
    "SandboxUnavailable",
    "SecretError",
    "SecretStore",
    "Settled",
    "Unpreparable",
    "UnsafeHostRunner",
    "build_spec",
    "check_credentials_placement",
    "child_environment",
    "ensure_credentials_dir",
    "prepare",
    "sandbox_roots",
    "select_runner",
    "settle",
]
