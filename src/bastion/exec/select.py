"""Choose the runner: bubblewrap when it works; otherwise fail, or run unsandboxed only
when explicitly allowed. ``BASTION_REQUIRE_SANDBOX=1`` turns a missing sandbox into a
hard error whatever else is set."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Mapping

from bastion.exec.bubblewrap import BubblewrapRunner
from bastion.exec.runner import Runner, SandboxUnavailable
from bastion.exec.unsafe import ALLOW_VARIABLE, UnsafeHostRunner, unsandboxed_allowed

REQUIRE_VARIABLE = "BASTION_REQUIRE_SANDBOX"


@functools.cache
def bwrap_problem(bwrap: str | None = None) -> str | None:
    """None when bubblewrap can start a sandbox here, else what went wrong."""
    path = bwrap or shutil.which("bwrap")
    if path is None:
        return "bubblewrap ('bwrap') is not installed"
    # The namespaces every run uses: a machine that cannot give a run its own user
    # namespace (with nested ones disabled) has no usable sandbox.
    probe = [path, "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
             "--ro-bind", "/", "/", "true"]  # fmt: skip
    try:
        done = subprocess.run(probe, capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap could not start: {exc}"
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip()[:300]
        return f"bubblewrap cannot create a sandbox here: {detail or f'exit {done.returncode}'}"
    return None


def select_runner(env: Mapping[str, str] | None = None) -> Runner:
    """The runner to use, or SandboxUnavailable (with ``hint``) saying how to get one."""
    env = os.environ if env is None else env
    problem = bwrap_problem()
    if problem is None:
        return BubblewrapRunner()
    if env.get(REQUIRE_VARIABLE, "") == "1":
        raise SandboxUnavailable(f"{problem}, and {REQUIRE_VARIABLE}=1 requires a sandbox")
    if unsandboxed_allowed(env):
        return UnsafeHostRunner(env)
    raise SandboxUnavailable(f"{problem} (set {ALLOW_VARIABLE}=1 to run unsandboxed)")


def sandbox_available() -> bool:
    """Will commands run inside bubblewrap here? (cached probe)"""
    return bwrap_problem() is None
