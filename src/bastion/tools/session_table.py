"""The sessions and jobs one tool context started, and the limits they run under.

They belong to the ``ToolContext`` (no process-global table): two contexts never see each
other's sessions. Ids are random (unguessable) and start with a letter, never with ``-``,
so an id can never be read as an option.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

#: Ended entries kept (so their end and last output can still be read); oldest go first.
_KEEP_ENDED = 32


@dataclass(frozen=True, slots=True)
class SessionSettings:
    """Limits of the ``session`` tool: an open session is killed after ``idle_seconds``
    without a ``send`` or ``read``, and after ``total_seconds`` whatever it is doing."""

    idle_seconds: float = 600.0
    total_seconds: float = 3600.0
    #: Output held per session (the newest bytes; older ones are dropped and counted).
    max_output_bytes: int = 1_000_000
    #: At most this much output per ``read`` or ``send`` answer.
    read_bytes: int = 65_536
    max_open: int = 4
    #: The terminal's line buffer holds 4095 bytes; a longer line would be cut, and what
    #: ran would not be what was decided.
    max_line_bytes: int = 4000
    #: The most a ``send`` or ``read`` waits for the shell's prompt.
    max_wait_seconds: float = 60.0

    def __post_init__(self) -> None:
        _positive(self, "idle_seconds", "total_seconds", "max_output_bytes", "read_bytes",
                  "max_open", "max_wait_seconds")  # fmt: skip
        if not 0 < self.max_line_bytes <= 4000:
            raise ValueError("max_line_bytes must be between 1 and 4000")


@dataclass(frozen=True, slots=True)
class JobSettings:
    """Limits of the ``job`` tool: a job is killed after ``total_seconds`` (a ``start``
    may ask for less, never more)."""

    total_seconds: float = 3600.0
    max_output_bytes: int = 4_000_000
    read_bytes: int = 65_536
    max_running: int = 4
    #: The most a ``status`` or ``output`` waits for the job to end.
    max_wait_seconds: float = 60.0

    def __post_init__(self) -> None:
        _positive(self, "total_seconds", "max_output_bytes", "read_bytes", "max_running", "max_wait_seconds")


def _positive(settings: object, *names: str) -> None:
    for name in names:
        if not getattr(settings, name) > 0:
            raise ValueError(f"{type(settings).__name__}.{name} must be positive")


class Entry(Protocol):
    """A session or a job as the table sees it."""

    @property
    def running(self) -> bool: ...

    def kill(self) -> None: ...

    def wait_ended(self, timeout: float) -> bool: ...


class Table:
    """Entries by id; thread-safe (a tool call may run in any thread)."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self._entries: dict[str, Entry] = {}
        self._lock = threading.Lock()

    def new_id(self) -> str:
        return f"{self.prefix}{secrets.token_hex(12)}"

    def add(self, key: str, entry: Entry, *, max_running: int) -> bool:
        """Add ``entry`` unless ``max_running`` entries already run; prunes old ended ones."""
        with self._lock:
            if sum(1 for e in self._entries.values() if e.running) >= max_running:
                return False
            ended = [k for k, e in self._entries.items() if not e.running]
            for old in ended[: max(0, len(ended) - _KEEP_ENDED + 1)]:
                del self._entries[old]
            self._entries[key] = entry
            return True

    def get(self, key: str) -> Entry | None:
        with self._lock:
            return self._entries.get(key)

    def remove(self, key: str) -> Entry | None:
        with self._lock:
            return self._entries.pop(key, None)

    def __iter__(self) -> Iterator[Entry]:
        with self._lock:
            return iter(list(self._entries.values()))

    def kill_all(self, timeout: float) -> None:
        """Kill every entry, then wait (at most ``timeout`` s each) until it has ended and
        cleaned up after itself."""
        entries = list(self)
        for entry in entries:
            entry.kill()
        for entry in entries:
            entry.wait_ended(timeout)


class Background:
    """What a tool context runs in the background: its sessions and its jobs."""

    def __init__(self, sessions: SessionSettings | None = None, jobs: JobSettings | None = None) -> None:
        self.session_settings = sessions or SessionSettings()
        self.job_settings = jobs or JobSettings()
        self.sessions = Table("sess")
        self.jobs = Table("job")

    def close(self, timeout: float = 10.0) -> None:
        """Kill every session and job and wait for their ends (a host that stops calls this)."""
        self.sessions.kill_all(timeout)
        self.jobs.kill_all(timeout)
