"""Wall clock, process-group kill, output caps and exit codes (real processes)."""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path

import pytest

from bastion.exec import BubblewrapRunner, ExecConfig, RunSpec, UnsafeHostRunner
from bastion.exec.output import CUT_MARKER
from tests.conftest import PolicyFactory
from tests.exec.sandbox_helpers import spec_for


def _processes_with(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    if marker.encode() in handle.read():
                        found.append(int(entry))
            except OSError:
                continue
    return found


def _left_behind(marker: str) -> list[int]:
    """Processes still carrying ``marker``, after giving the kernel a moment to reap."""
    for _ in range(50):
        left = _processes_with(marker)
        if not left:
            return []
        time.sleep(0.1)
    return left


def _forking_sleeper() -> tuple[str, str]:
    seconds = f"{4000 + uuid.uuid4().int % 1000}.{os.getpid()}"
    # A background child, a grandchild in its own session, and a foreground sleep.
    command = (
        f"sleep {seconds} & setsid sleep {seconds} & (trap '' TERM; sleep {seconds}) & sleep {seconds}; wait"
    )
    return command, f"sleep\x00{seconds}"


def test_a_forking_sleeper_is_killed_at_the_timeout_with_nothing_left_behind(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    command, marker = _forking_sleeper()
    result = runner.run(spec_for(make_policy(), command, environ=child_env, config=ExecConfig(timeout=1)))
    assert (result.exit_code, result.timed_out, result.stdout) == (None, True, "")
    assert _left_behind(marker) == []


def test_the_unsafe_runner_also_kills_the_whole_group_at_the_timeout(
    make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    command, marker = _forking_sleeper()
    command = command.replace("setsid sleep", "sleep")  # setsid escapes any host-side group
    unsafe = UnsafeHostRunner({"BASTION_ALLOW_UNSANDBOXED": "1"})
    result = unsafe.run(spec_for(make_policy(), command, environ=child_env, config=ExecConfig(timeout=1)))
    assert (result.exit_code, result.timed_out, result.runner) == (None, True, "unsafe-host")
    assert _left_behind(marker) == []


def test_background_processes_die_when_the_command_returns(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    command, marker = _forking_sleeper()
    command = command.split("; wait")[0].rsplit("& sleep", 1)[0] + "& echo started"
    result = runner.run(spec_for(make_policy(), command, environ=child_env))
    assert (result.exit_code, result.timed_out, result.stdout) == (0, False, "started\n")
    assert _left_behind(marker) == []


def test_output_over_the_cap_is_cut_and_marked(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    config = ExecConfig(timeout=20, max_output_bytes=1000)
    result = runner.run(
        spec_for(
            make_policy(),
            "head -c 3000000 /dev/zero | tr '\\0' a; echo err >&2",
            environ=child_env,
            config=config,
        )
    )
    marker = CUT_MARKER.format(cap=1000, dropped=3000000 - 1000)
    assert (result.stdout, result.stderr) == ("a" * 1000 + marker, "err\n")
    assert (result.exit_code, result.truncated) == (0, True)


def test_the_real_exit_code_and_stdin_come_through(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    spec = spec_for(make_policy(), "tr a-z A-Z; exit 7", environ=child_env, stdin=b"hello")
    result = runner.run(spec)
    assert (result.exit_code, result.stdout, result.truncated, result.timed_out) == (7, "HELLO", False, False)


def test_a_child_killed_by_a_signal_reports_128_plus_the_signal(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    result = runner.run(spec_for(make_policy(), "kill -9 $$", environ=child_env))
    assert result.exit_code == 137


def test_the_child_runs_at_nice_10(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    result = runner.run(spec_for(make_policy(), "nice", environ=child_env))
    assert result.stdout == "10\n"


def test_a_cpu_ceiling_from_the_config_is_applied_with_prlimit(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str]
) -> None:
    config = ExecConfig(timeout=20, max_cpu_seconds=7, max_memory_mb=512)
    result = runner.run(spec_for(make_policy(), "ulimit -t; ulimit -v", environ=child_env, config=config))
    assert result.stdout == f"7\n{512 * 1024}\n"


def test_a_working_directory_outside_every_root_is_refused(
    runner: BubblewrapRunner, make_policy: PolicyFactory, child_env: dict[str, str], home: Path
) -> None:
    from bastion.exec import ExecError

    with pytest.raises(ExecError, match="not inside any sandbox root"):
        runner.run(spec_for(make_policy(), "true", environ=child_env, cwd=str(home / ".ssh")))


def test_a_spec_never_shows_its_secrets_in_repr() -> None:
    spec = RunSpec(argv=("true",), cwd="/", secrets={"TOKEN": "hunter2-secret"})
    assert "hunter2-secret" not in repr(spec)
    assert spec.child_env() == {"TOKEN": "hunter2-secret"}
