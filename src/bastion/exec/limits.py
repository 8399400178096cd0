"""Ceilings on one child: the ``nice``/``prlimit`` prefix, the wall clock, the group kill."""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import signal

from bastion.exec.runner import ExecError, Limits

#: Where a sandboxed child finds the wrappers (the system dirs are mounted read-only).
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


@functools.cache
def _system_program(name: str) -> str | None:
    return shutil.which(name, path=SYSTEM_PATH)


def limit_prefix(limits: Limits, *, nproc: int = 0) -> list[str]:
    """``nice -n 10 [prlimit --as=… --cpu=…]`` to put in front of a command.

    The memory and CPU ceilings are off (0) unless the policy's ``[exec]`` sets them: see
    ``ExecConfig`` for why a default address-space cap does more harm than good.
    """
    nice = _system_program("nice")
    if nice is None:
        raise ExecError("'nice' (coreutils) not found in the system directories")
    prefix = [nice, "-n", str(limits.nice)]
    ceilings = []
    if limits.max_memory_mb > 0:
        ceilings.append(f"--as={limits.max_memory_mb * 1024 * 1024}")
    if limits.max_cpu_seconds > 0:
        ceilings.append(f"--cpu={limits.max_cpu_seconds}")
    if nproc > 0:
        ceilings.append(f"--nproc={nproc}")
    if ceilings:
        prlimit = _system_program("prlimit")
        if prlimit is None:
            raise ExecError("[exec] sets a memory or CPU ceiling but 'prlimit' (util-linux) is not installed")
        prefix += [prlimit, *ceilings, "--"]
    return prefix


def kill_group(pgid: int) -> None:
    """SIGKILL a whole process group; a group already gone is fine."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def exit_code_of(returncode: int) -> int:
    """A child killed by signal N reports ``128 + N``, as a shell would."""
    return 128 - returncode if returncode < 0 else returncode
