"""The kernel side of every sandboxed run: seccomp, no nested user namespaces, the process
and memory cgroups, the capped /tmp (real bubblewrap)."""

from __future__ import annotations

import os

import pytest

from bastion.exec import BubblewrapRunner, ExecConfig, cgroups
from bastion.exec.seccomp import DENIED_SYSCALLS, filter_program
from tests.conftest import PolicyFactory
from tests.exec.sandbox_helpers import spec_for

#: Each line calls one syscall through libc's syscall(2) and prints its errno name.
PROBE = """
import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
NR = {"ptrace": 101, "keyctl": 250, "add_key": 248, "request_key": 249, "mount": 165,
      "umount2": 166, "pivot_root": 155, "bpf": 321, "perf_event_open": 298, "setns": 308,
      "kexec_load": 246, "init_module": 175, "unshare": 272}
for name, nr in NR.items():
    args = (0x10000000,) if name == "unshare" else (0, 0, 0, 0, 0)
    rc = libc.syscall(nr, *args)
    print(name, "ok" if rc == 0 else errno.errorcode[ctypes.get_errno()])
"""


def _run(make_policy: PolicyFactory, child_env: dict[str, str], command: str, **config: object) -> str:
    policy = make_policy("")
    spec = spec_for(policy, command, environ=child_env, config=ExecConfig(timeout=30, **config))  # type: ignore[arg-type]
    result = BubblewrapRunner().run(spec)
    return result.stdout + result.stderr


def test_every_denied_syscall_fails_with_eperm_inside_the_sandbox(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    out = _run(make_policy, child_env, f"python3 -c '{PROBE}'")

    assert out.splitlines() == [
        f"{name} EPERM"
        for name in ("ptrace", "keyctl", "add_key", "request_key", "mount", "umount2", "pivot_root",
                     "bpf", "perf_event_open", "setns", "kexec_load", "init_module", "unshare")
    ]  # fmt: skip


def test_a_new_user_namespace_cannot_be_made_even_without_the_filter(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    out = _run(make_policy, child_env, "unshare -U true 2>&1; echo rc=$?", seccomp=False)

    assert out.endswith("rc=1\n")


def test_the_filter_denies_what_the_issue_lists() -> None:
    wanted = {"ptrace", "keyctl", "add_key", "request_key", "mount", "umount2", "pivot_root", "bpf",
              "perf_event_open", "setns", "kexec_load", "init_module"}  # fmt: skip
    assert wanted <= set(DENIED_SYSCALLS)
    assert len(filter_program()) % 8 == 0  # whole BPF instructions


def test_without_seccomp_the_same_probe_is_not_refused_by_a_filter(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    out = _run(make_policy, child_env, f"python3 -c '{PROBE}'", seccomp=False)

    # Without the filter the kernel still refuses most (no capabilities), but keyctl works.
    assert "keyctl EPERM" not in out.splitlines()


@pytest.mark.skipif(not cgroups.enforceable()["memory"], reason="no writable memory cgroup here")
def test_a_run_past_its_resident_memory_cap_is_killed(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    grab = "python3 -c 'b = bytearray(300 * 1024 * 1024); print(len(b))'; echo rc=$?"

    out = _run(make_policy, child_env, grab, max_resident_mb=64)

    assert "rc=137" in out or "MemoryError" in out
    assert "314572800" not in out


def test_a_run_within_its_memory_cap_runs(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    out = _run(make_policy, child_env, "python3 -c 'b = bytearray(8 * 1024 * 1024); print(len(b))'",
               max_resident_mb=256)  # fmt: skip

    assert out == "8388608\n"


@pytest.mark.skipif(not cgroups.controllers(), reason="no writable cgroup here")
def test_the_run_leaves_no_cgroup_behind(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    mine = f"bastion-{os.getpid()}-"  # other processes may be running sandboxes meanwhile

    _run(make_policy, child_env, "sleep 0.1 & echo started")

    assert [n for c in cgroups.controllers() for n in os.listdir(c.parent) if n.startswith(mine)] == []
