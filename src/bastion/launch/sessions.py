"""Launch sessions: which agents, with which ceiling, and every run so far.

A session's ceiling is fixed when it is created and can only be lowered afterwards (a
stricter configuration applies from the next run on). Storage sits behind ``SessionStore``
so a PostgreSQL store can plug in; ``JsonSessionStore`` keeps one file per session under
``<state_dir>/sessions/``.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import tempfile
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from bastion.errors import BastionError, StoreError
from bastion.policy.ceiling import Ceiling

_ID = re.compile(r"^[a-z0-9-]{4,64}$")


class SessionNotFound(BastionError):
    hint = "list sessions with `ls <state_dir>/sessions/`"


@dataclass(frozen=True, slots=True)
class Run:
    """One attempt to start one agent in a session."""

    agent: str
    started: bool
    flags: tuple[str, ...]
    ceiling: Ceiling
    exit_code: int | None = None
    notes: tuple[str, ...] = ()
    bypassed: bool = False
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class Session:
    id: str
    agents: tuple[str, ...]
    agent_args: tuple[str, ...]
    ceiling: Ceiling
    ceiling_source: str
    cwd: str
    created_at: float
    bypassed: bool = False
    runs: tuple[Run, ...] = field(default=())
    #: The session this one was delegated from (``bastion launch --parent``): its ceiling
    #: was the parent's or stricter when it was created, and it only goes down from there.
    parent: str | None = None

    def with_run(self, run: Run) -> Session:
        return replace(self, runs=(*self.runs, run))

    def lowered_to(self, ceiling: Ceiling, source: str) -> Session:
        """The session with its ceiling met with ``ceiling`` (never raised)."""
        lowered = self.ceiling.meet(ceiling)
        if lowered == self.ceiling:
            return self
        return replace(self, ceiling=lowered, ceiling_source=source)


def new_session(
    agents: tuple[str, ...],
    agent_args: tuple[str, ...],
    ceiling: Ceiling,
    source: str,
    cwd: str,
    *,
    bypassed: bool = False,
    parent: str | None = None,
) -> Session:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    return Session(
        f"{stamp}-{secrets.token_hex(3)}",
        agents,
        agent_args,
        ceiling,
        source,
        cwd,
        time.time(),
        bypassed,
        parent=parent,
    )


class SessionStore(Protocol):
    def save(self, session: Session) -> None: ...

    def load(self, session_id: str) -> Session: ...

    def list_ids(self) -> list[str]: ...


def session_to_dict(session: Session) -> dict[str, Any]:
    return asdict(session)


def session_from_dict(data: dict[str, Any]) -> Session:
    runs = tuple(
        Run(
            r["agent"],
            bool(r["started"]),
            tuple(r["flags"]),
            Ceiling(**r["ceiling"]),
            r.get("exit_code"),
            tuple(r.get("notes", ())),
            bool(r.get("bypassed", False)),
            float(r.get("at", 0.0)),
        )
        for r in data.get("runs", ())
    )
    return Session(
        str(data["id"]),
        tuple(data["agents"]),
        tuple(data["agent_args"]),
        Ceiling(**data["ceiling"]),
        str(data["ceiling_source"]),
        str(data["cwd"]),
        float(data["created_at"]),
        bool(data.get("bypassed", False)),
        runs,
        None if data.get("parent") is None else str(data["parent"]),
    )


class JsonSessionStore:
    """One JSON file per session, written atomically, readable by the owner only."""

    def __init__(self, state_dir: str) -> None:
        self.folder = Path(state_dir, "sessions")

    def _path(self, session_id: str) -> Path:
        if not _ID.match(session_id):
            raise SessionNotFound(f"no session {session_id!r}")
        return self.folder / f"{session_id}.json"

    def save(self, session: Session) -> None:
        target = self._path(session.id)
        try:
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(session_to_dict(session), handle, indent=2)
            os.replace(tmp, target)
        except OSError as exc:
            raise StoreError(f"cannot save session {session.id}: {exc}") from exc

    def load(self, session_id: str) -> Session:
        path = self._path(session_id)
        try:
            data = json.loads(path.read_text("utf-8"))
        except FileNotFoundError as exc:
            raise SessionNotFound(f"no session {session_id!r}") from exc
        except (OSError, ValueError) as exc:
            raise StoreError(f"cannot read session {session_id}: {exc}") from exc
        try:
            return session_from_dict(data)
        except (KeyError, TypeError, ValueError) as exc:
            raise StoreError(f"session {session_id} is damaged: {exc}") from exc

    def list_ids(self) -> list[str]:
        if not self.folder.is_dir():
            return []
        return sorted(p.stem for p in self.folder.glob("*.json"))
