"""Running on the host with no OS boundary: named so nobody mistakes it for a sandbox.

Refused unless ``BASTION_ALLOW_UNSANDBOXED=1``; logs a warning on every single use. The
wall clock, the group kill, output caps, secret masking, nice and prlimit still apply;
the filesystem and network boundaries in the spec do not.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

from bastion.exec.limits import limit_prefix
from bastion.exec.process import Launch, run_process
from bastion.exec.runner import RunResult, RunSpec, SandboxUnavailable

ALLOW_VARIABLE = "BASTION_ALLOW_UNSANDBOXED"
log = logging.getLogger("bastion.exec")


def unsandboxed_allowed(env: Mapping[str, str]) -> bool:
    return env.get(ALLOW_VARIABLE, "") == "1"


class UnsafeHostRunner:
    """Runs commands directly on the host. For explicit local development only."""

    name = "unsafe-host"
    sandboxed = False

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        self._env = os.environ if env is None else env
        self._check()

    def _check(self) -> None:
        if not unsandboxed_allowed(self._env):
            raise SandboxUnavailable(
                f"refusing to run commands without a sandbox: set {ALLOW_VARIABLE}=1 to allow it"
            )

    def run(self, spec: RunSpec) -> RunResult:
        self._check()
        log.warning(
            "UNSANDBOXED: running %r on the host with no OS boundary (%s=1)",
            spec.argv[0],
            ALLOW_VARIABLE,
        )
        launch = Launch(
            argv=[*limit_prefix(spec.limits), *spec.argv],
            cwd=spec.cwd,
            env=spec.child_env(),
            stdin=spec.stdin,
            timeout=spec.timeout,
            max_output_bytes=spec.max_output_bytes,
            secrets=spec.secrets,
            runner=self.name,
        )
        return run_process(launch)
