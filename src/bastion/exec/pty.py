"""A sandboxed process that outlives one tool call: the ``session`` and ``job`` tools' engine.

A pump thread of its own starts the process (``bwrap --die-with-parent`` ties the sandbox to
the *thread* that forked it, so a short-lived worker thread must not start it), reads its
output into a bounded log, and enforces the wall clock and the idle clock: a process past
either is killed, with the whole group, and its ``ending`` says why. On a terminal (a pty),
the output is also handed to a filter first (the session reads its prompt markers there).
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import selectors
import signal
import subprocess
import termios
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bastion.exec.limits import exit_code_of, kill_group
from bastion.exec.process import Launch
from bastion.exec.procfs import descendants, wait_gone
from bastion.exec.runner import ExecError

_CHUNK = 65536
#: How often the pump looks at its clocks when the process is quiet.
_TICK = 0.05
#: How long to keep reading after the group was killed (the pty closes as processes die).
_DRAIN_SECONDS = 2.0
_START_SECONDS = 30.0

#: Builds the launch of one run; what it opens (cgroups, seccomp fd) is held by the stack.
Starter = Callable[[contextlib.ExitStack], Launch]
#: Sees each chunk of terminal output before it is logged; returns what to log.
OutputFilter = Callable[[bytes], bytes]


class Ending(StrEnum):
    EXITED = "exited"  # the process ended by itself
    KILLED = "killed"  # the agent closed or killed it
    TIMED_OUT = "timed-out"  # past its total wall-clock limit
    IDLE = "idle"  # nobody typed or read for the idle limit
    REFUSED = "refused"  # Bastion closed it (a shell waiting for a continuation line)
    FAILED = "failed"  # it could not be started


@dataclass(frozen=True, slots=True)
class Chunk:
    """Output from ``offset`` to ``next_offset``; ``dropped`` bytes before it were no
    longer held (the log keeps the newest ``cap`` bytes)."""

    data: bytes
    offset: int
    next_offset: int
    dropped: int

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")


class OutputLog:
    """The newest ``cap`` bytes of a stream, addressed by absolute offsets."""

    def __init__(self, cap: int) -> None:
        if cap <= 0:
            raise ValueError("cap must be positive")
        self.cap = cap
        self._data = bytearray()
        self.start = 0  # the absolute offset of the first byte held
        self.total = 0

    def feed(self, chunk: bytes) -> None:
        self._data += chunk
        self.total += len(chunk)
        excess = len(self._data) - self.cap
        if excess > 0:
            del self._data[:excess]
            self.start += excess

    @property
    def held(self) -> int:
        return len(self._data)

    def read(self, offset: int, limit: int) -> Chunk:
        first = max(offset, self.start)
        begin = min(first, self.total) - self.start
        data = bytes(self._data[begin : begin + max(0, limit)])
        return Chunk(data, first, first + len(data), max(0, self.start - offset))


class LiveProcess:
    """One background process in the sandbox. ``terminal`` gives it a pty as its stdin,
    stdout and stderr (otherwise stdin is /dev/null and stderr joins stdout)."""

    def __init__(
        self,
        starter: Starter,
        *,
        terminal: bool,
        cap: int,
        total_seconds: float,
        idle_seconds: float | None = None,
        output_filter: OutputFilter | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._starter = starter
        self.terminal = terminal
        self.log = OutputLog(cap)
        self.total_seconds = total_seconds
        self.idle_seconds = idle_seconds
        self._filter = output_filter
        self._clock = clock
        #: Guards every field below; notified on output, on start and on the end.
        self.changed = threading.Condition(threading.RLock())
        self.pid: int | None = None
        self.started_at = clock()
        self.active_at = self.started_at
        self.ended_at: float | None = None
        self.ending: Ending | None = None
        self.exit_code: int | None = None
        self.error = ""
        self._wanted: Ending | None = None  # a kill asked for, applied by the pump
        self._attended = 0  # decisions under way (the idle clock waits for them)
        self._master: int | None = None
        self._fd_lock = threading.Lock()  # held while the master fd is written or closed
        self._reaped = False
        self._tree: list[int] = []  # the processes killed at the end, to see gone
        self._thread = threading.Thread(target=self._main, name="bastion-live", daemon=True)

    # -- the caller's side ---------------------------------------------------------------
    def start(self) -> None:
        """Start the pump thread and wait until the process runs; ExecError if it cannot."""
        self._thread.start()
        with self.changed:
            self.changed.wait_for(lambda: self.pid is not None or self.ending is not None, _START_SECONDS)
            if self.pid is None:
                self.kill(Ending.FAILED)
                raise ExecError(self.error or "the process did not start in time")

    @property
    def running(self) -> bool:
        """False from the moment a kill is asked for: nothing more goes to it."""
        with self.changed:
            return self.ending is None and self._wanted is None

    @property
    def end(self) -> Ending | None:
        """Why it ended, or is being ended (a kill asked for); None while it runs."""
        with self.changed:
            return self.ending or self._wanted

    def touch(self) -> None:
        """The agent typed or read: the idle clock starts again."""
        with self.changed:
            self.active_at = self._clock()

    @contextlib.contextmanager
    def attended(self) -> Iterator[None]:
        """While a line waits for a person's answer, the session is not idle."""
        with self.changed:
            self._attended += 1
        try:
            yield
        finally:
            with self.changed:
                self._attended -= 1
                self.active_at = self._clock()

    def write(self, data: bytes, *, timeout: float = 5.0) -> None:
        """Type ``data`` into the terminal (all of it, or ExecError)."""
        deadline = self._clock() + timeout
        with self._fd_lock:  # not ``changed``: the pump must keep reading meanwhile
            with self.changed:
                if self._master is None or self.ending is not None or self._wanted is not None:
                    raise ExecError("the session has ended")
                fd = self._master
            view = memoryview(data)
            while view:
                if self._clock() > deadline:
                    raise ExecError("the session does not read its input")
                try:
                    view = view[os.write(fd, view) :]
                except BlockingIOError:
                    select.select([], [fd], [], _TICK)
                except OSError as exc:
                    raise ExecError(f"cannot type into the session: {exc.strerror}") from None

    def terminal_modes(self) -> list[Any] | None:
        """The pty's input modes now (``tcgetattr``: iflag, lflag, special characters);
        None when it is closed."""
        with self._fd_lock:
            if self._master is None:
                return None
            attrs = termios.tcgetattr(self._master)
            return [attrs[0], attrs[3], attrs[6]]

    def kill(self, ending: Ending = Ending.KILLED) -> None:
        """Kill the whole process group now; the pump reaps it and records ``ending``."""
        with self.changed:
            if self.ending is None and self._wanted is None:
                self._wanted = ending
            if self.pid is not None and not self._reaped:
                self._kill_tree(self.pid)
            self.changed.notify_all()

    def wait_until(self, condition: Callable[[], bool], timeout: float) -> bool:
        """Wait (at most ``timeout`` s) until ``condition()`` holds or the process ended."""
        with self.changed:
            return (
                self.changed.wait_for(lambda: condition() or self.ending is not None, timeout) and condition()
            )

    def wait_ended(self, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.ending is not None, timeout)

    @property
    def duration(self) -> float:
        with self.changed:
            return (self.ended_at or self._clock()) - self.started_at

    # -- the pump thread -----------------------------------------------------------------
    def _main(self) -> None:
        ending, returncode = Ending.FAILED, None
        try:
            with contextlib.ExitStack() as stack:  # on exit: the cgroups emptied and removed
                proc, fd = self._spawn(stack)
                ending = self._pump(proc, fd)
                kill_group(proc.pid)  # anything left in the group goes too
                returncode = proc.wait()
                with self.changed:
                    self._reaped = True
                wait_gone(self._tree, _DRAIN_SECONDS)
        except Exception as exc:  # reported to the caller, never a crash of the host
            with self.changed:
                self.error = str(exc) if isinstance(exc, ExecError) else f"{type(exc).__name__}: {exc}"
        finally:
            self._close_master()  # before ``changed``: ``write`` takes the two in that order
            with self.changed:
                # A kill asked for (or a clock that ran out) before the end is why it ended.
                self.ending = self._wanted or ending
                if self.ending is Ending.EXITED and returncode is not None:
                    self.exit_code = exit_code_of(returncode)
                self.ended_at = self._clock()
                self.changed.notify_all()

    def _spawn(self, stack: contextlib.ExitStack) -> tuple[subprocess.Popen[bytes], int]:
        launch = self._starter(stack)
        if self.terminal:
            master, slave = os.openpty()
            _plain_terminal(slave)
            stdin: int = slave
            stdout: int = slave
            stderr: int = slave
        else:
            master, slave = os.pipe()
            stdin, stdout, stderr = subprocess.DEVNULL, slave, subprocess.STDOUT
        try:
            proc = subprocess.Popen(
                list(launch.argv),
                cwd=launch.cwd,
                env=dict(launch.env),
                stdin=stdin,
                stdout=stdout,
                stderr=stderr,
                start_new_session=True,
                close_fds=True,
                pass_fds=launch.pass_fds,
            )
        except OSError as exc:
            os.close(master)
            raise ExecError(f"cannot start {launch.argv[0]!r}: {exc.strerror or exc}") from None
        finally:
            os.close(slave)
        os.set_blocking(master, False)
        with self.changed:
            self._master, self.pid = master, proc.pid
            self.changed.notify_all()
        return proc, master

    def _pump(self, proc: subprocess.Popen[bytes], fd: int) -> Ending:
        """Read until the output closes; the reason the process ended."""
        killed_at: float | None = None
        ending = Ending.EXITED
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                now = self._clock()
                if killed_at is None:
                    wanted = self._due(now) or (Ending.EXITED if _exited(proc.pid) else None)
                    if wanted is not None:
                        # Killed, past a clock, or the main process is done and whatever
                        # still holds the output was left behind: the whole group goes.
                        ending, killed_at = wanted, now
                        self._kill_tree(proc.pid)
                elif now - killed_at > _DRAIN_SECONDS:
                    return ending
                if sel.select(_TICK) and not self._read(fd):
                    return ending

    def _kill_tree(self, pid: int) -> None:
        """The group, and every process below it: bwrap puts the sandbox in a session of
        its own (``--new-session``), out of reach of the group kill, so each is killed by
        pid while none of them is reaped yet (their parents are in the tree too)."""
        tree = descendants(pid)
        kill_group(pid)
        for child in tree:
            with contextlib.suppress(OSError):
                os.kill(child, signal.SIGKILL)
        self._tree = list(dict.fromkeys([*self._tree, *tree]))

    def _due(self, now: float) -> Ending | None:
        with self.changed:
            if self._wanted is None and now - self.started_at >= self.total_seconds:
                self._wanted = Ending.TIMED_OUT
            elif (
                self._wanted is None
                and self.idle_seconds is not None
                and not self._attended
                and now - self.active_at >= self.idle_seconds
            ):
                self._wanted = Ending.IDLE
            return self._wanted

    def _read(self, fd: int) -> bool:
        """One chunk into the log; False at the end of the output."""
        try:
            data = os.read(fd, _CHUNK)
        except BlockingIOError:
            return True
        except OSError as exc:
            if exc.errno == errno.EIO:  # a pty whose every other end is closed
                return False
            raise
        if not data:
            return False
        with self.changed:
            self.log.feed(self._filter(data) if self._filter is not None else data)
            self.changed.notify_all()
        return True

    def _close_master(self) -> None:
        with self._fd_lock:
            if self._master is not None:
                with contextlib.suppress(OSError):
                    os.close(self._master)
                self._master = None


def _plain_terminal(fd: int) -> None:
    """Output newlines stay ``\\n`` (no ``\\r\\n``); everything else is a normal terminal."""
    attrs = termios.tcgetattr(fd)
    attrs[1] &= ~termios.ONLCR
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


def _exited(pid: int) -> bool:
    """Has the process exited? Leaves it unreaped, so its pid (= the group id) cannot be
    reused before the group is killed."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return info is not None
