"""Start one process in its own group, feed stdin, capture capped output, enforce the clock.

Shared by every backend. The child gets a new session (so it is the leader of a process
group of its own); at the wall-clock deadline - or when the main process has exited and
something it left behind still holds the output pipes - the whole group is killed.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bastion.exec.limits import exit_code_of, kill_group
from bastion.exec.output import CappedBuffer, secret_margin
from bastion.exec.runner import ExecError, RunResult

_CHUNK = 65536
#: How long to keep reading after the group was killed (pipes close as processes die).
_DRAIN_SECONDS = 2.0


@dataclass(frozen=True, slots=True)
class Launch:
    argv: Sequence[str]
    cwd: str
    env: Mapping[str, str]
    stdin: bytes | None
    timeout: float
    max_output_bytes: int
    secrets: Mapping[str, str]
    runner: str
    #: Descriptors the child inherits (the seccomp program for ``bwrap --seccomp FD``).
    pass_fds: tuple[int, ...] = ()


def run_process(launch: Launch) -> RunResult:
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            list(launch.argv),
            cwd=launch.cwd,
            env=dict(launch.env),
            stdin=subprocess.PIPE if launch.stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            close_fds=True,
            pass_fds=launch.pass_fds,
        )
    except OSError as exc:  # the message names the program, never the environment
        raise ExecError(f"cannot start {launch.argv[0]!r}: {exc.strerror or exc}") from None
    margin = secret_margin(launch.secrets)
    out = CappedBuffer(launch.max_output_bytes, margin=margin)
    err = CappedBuffer(launch.max_output_bytes, margin=margin)
    timed_out = _pump(proc, launch, out, err, deadline=start + launch.timeout)
    kill_group(proc.pid)  # anything left behind in the group goes too
    returncode = proc.wait()
    return RunResult(
        exit_code=None if timed_out else exit_code_of(returncode),
        stdout=out.text(launch.secrets),
        stderr=err.text(launch.secrets),
        truncated=out.truncated or err.truncated,
        timed_out=timed_out,
        duration=time.monotonic() - start,
        runner=launch.runner,
    )


def _pump(
    proc: subprocess.Popen[bytes],
    launch: Launch,
    out: CappedBuffer,
    err: CappedBuffer,
    *,
    deadline: float,
) -> bool:
    """Read until both pipes close; True when the deadline killed the group."""
    assert proc.stdout is not None and proc.stderr is not None
    pending = memoryview(launch.stdin or b"")
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ, out)
        sel.register(proc.stderr, selectors.EVENT_READ, err)
        if proc.stdin is not None:
            os.set_blocking(proc.stdin.fileno(), False)
            if pending:
                sel.register(proc.stdin, selectors.EVENT_WRITE, None)
            else:
                proc.stdin.close()
        timed_out = False
        killed_at: float | None = None
        while sel.get_map():
            now = time.monotonic()
            if killed_at is None and now >= deadline:
                timed_out = True
                kill_group(proc.pid)
                killed_at = now
            if killed_at is None and _exited(proc.pid):
                # The main process is done; whatever still holds the pipes was left behind.
                kill_group(proc.pid)
                killed_at = now
            if killed_at is not None and now - killed_at > _DRAIN_SECONDS:
                break
            wait = 0.2 if killed_at is None else 0.05
            for key, _ in sel.select(min(wait, max(0.0, deadline - now)) or 0.01):
                if key.data is None:
                    pending = _write_some(proc, sel, pending)
                    continue
                data = os.read(key.fd, _CHUNK)
                if data:
                    key.data.feed(data)
                else:
                    sel.unregister(key.fileobj)
        for key in list(sel.get_map().values()):
            sel.unregister(key.fileobj)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None and not stream.closed:
            stream.close()
    return timed_out


def _exited(pid: int) -> bool:
    """Has the process exited? Leaves it unreaped, so its pid (= the group id) cannot be
    reused before the group is killed."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return info is not None


def _write_some(
    proc: subprocess.Popen[bytes], sel: selectors.BaseSelector, pending: memoryview
) -> memoryview:
    assert proc.stdin is not None
    try:
        written = os.write(proc.stdin.fileno(), pending[:_CHUNK])
    except BrokenPipeError:
        written = len(pending)  # the child stopped reading: the rest is dropped
    except BlockingIOError:
        return pending
    pending = pending[written:]
    if not pending:
        sel.unregister(proc.stdin)
        proc.stdin.close()
    return pending
