"""Which containment limits this machine can enforce (for ``bastion doctor``), and what an
agent whose hooks cannot rewrite a call must be told."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Mapping
from types import MappingProxyType

from bastion.agents.registry import uncontained
from bastion.exec import cgroups, seccomp

Check = tuple[str, bool, str]

#: Agents whose hook protocol cannot rewrite a call (their record's ``enforcement``): what
#: runs is what the agent wrote, so only ``bastion launch`` contains it.
UNCONTAINED_AGENTS: Mapping[str, str] = MappingProxyType(
    {
        a.name: f"bastion launch {a.name} (the agent itself in Bastion's agent:{a.name} sandbox)"
        for a in uncontained()
    }
)


def uncontained_note(agent: str) -> str | None:
    """The plain statement for an agent Bastion cannot contain through its hooks."""
    how = UNCONTAINED_AGENTS.get(agent)
    if how is None:
        return None
    return (
        f"{agent}: its hooks cannot rewrite a call, so a call Bastion allows runs UNCONTAINED, "
        f"on the host with the agent's own rights. For an OS sandbox start it with: {how}"
    )


@functools.cache
def _bwrap_supports(*args: str) -> bool:
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return False
    probe = [bwrap, *args, "--ro-bind", "/", "/", "true"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=10, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def limit_checks(max_processes: int, max_resident_mb: int, max_memory_mb: int) -> list[Check]:
    """(name, enforced here, how) for each limit of ``[exec]``."""
    can = cgroups.enforceable()
    root = os.geteuid() == 0
    if can["pids"]:
        procs: Check = ("limit processes", True, f"cgroup pids.max = {max_processes} (holds for root too)")
    elif root:
        procs = ("limit processes", False, "NOT enforced: no writable pids cgroup, and RLIMIT_NPROC does "
                 "not hold for root; run Bastion as a normal user or give it a cgroup")  # fmt: skip
    else:
        procs = ("limit processes", True, f"RLIMIT_NPROC = {max_processes} (no pids cgroup)")
    if can["memory"]:
        memory: Check = ("limit memory", True, f"cgroup memory limit = {max_resident_mb} MiB")
    elif max_memory_mb:
        memory = (
            "limit memory",
            True,
            f"address space only (RLIMIT_AS = {max_memory_mb} MiB; no memory cgroup)",
        )
    else:
        memory = ("limit memory", False, "NOT enforced: no writable memory cgroup; set [exec] max_memory_mb "
                  "for an address-space cap")  # fmt: skip
    problem = seccomp.available()
    denied = f"{len(seccomp.DENIED_SYSCALLS)} syscalls denied, no new user namespaces"
    filt: Check = ("limit seccomp", problem is None, problem or denied)
    userns = _bwrap_supports("--unshare-user", "--disable-userns")
    why = "refused (--disable-userns)" if userns else "bwrap cannot --disable-userns here (needs 0.8)"
    nested: Check = ("limit nested user namespaces", userns, why)
    tmp = _bwrap_supports("--size", "1048576", "--tmpfs", "/tmp")
    tmp_check: Check = (
        "limit /tmp size",
        tmp,
        "capped (--size)" if tmp else "bwrap cannot --size a tmpfs here",
    )
    return [procs, memory, filt, nested, tmp_check]
