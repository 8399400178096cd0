"""Helpers for the real-bubblewrap tests (shared by tests/exec and tests/tools)."""

from __future__ import annotations

import os
import shutil
from typing import Any

import pytest

from bastion.exec import ExecConfig, RunSpec, build_spec
from bastion.policy.compiled import Policy


def require_bwrap() -> None:
    """Skip without bwrap locally; in CI (``CI`` set) a missing bwrap FAILS the test."""
    if shutil.which("bwrap") is not None:
        return
    if os.environ.get("CI"):
        pytest.fail(
            "bubblewrap is not installed, and CI must run the sandbox tests "
            "(.ci/run installs the Debian package 'bubblewrap')"
        )
    pytest.skip("bubblewrap is not installed (apt-get install bubblewrap)")


def spec_for(
    policy: Policy,
    command: str,
    *,
    environ: dict[str, str],
    cwd: str | None = None,
    config: ExecConfig | None = None,
    **kwargs: Any,
) -> RunSpec:
    """``bash -c COMMAND`` under ``policy``, in its workspace unless ``cwd`` says otherwise."""
    return build_spec(
        policy,
        config or ExecConfig(timeout=20),
        ["bash", "-c", command],
        cwd=cwd or policy.workspace[0],
        environ=environ,
        **kwargs,
    )
