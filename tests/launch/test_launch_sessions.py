"""The session store: JSON files under <state_dir>/sessions/, ceilings only ever lowered."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.errors import StoreError
from bastion.launch.sessions import JsonSessionStore, Run, SessionNotFound, new_session
from bastion.policy.ceiling import NO_CEILING, Ceiling

READ_ONLY = Ceiling("ask_every_action", "read_only", "allowed")


def test_a_session_round_trips_through_its_json_file(tmp_path: Path) -> None:
    store = JsonSessionStore(str(tmp_path))
    session = new_session(("claude", "codex"), ("hi",), NO_CEILING, "built-in", "/w")
    session = session.with_run(
        Run("claude", True, ("--permission-mode", "acceptEdits"), NO_CEILING, 0, ("note",), False, 1.0)
    )
    store.save(session)
    assert store.load(session.id) == session
    assert store.list_ids() == [session.id]
    assert (tmp_path / "sessions" / f"{session.id}.json").is_file()


def test_lowering_a_session_meets_the_ceilings_and_never_raises(tmp_path: Path) -> None:
    session = new_session(("claude",), (), READ_ONLY, "file", "/w")
    assert session.lowered_to(NO_CEILING, "config") is session
    lowered = session.lowered_to(Ceiling("never_ask", "unrestricted", "denied"), "config")
    assert (lowered.ceiling, lowered.ceiling_source) == (
        Ceiling("ask_every_action", "read_only", "denied"),
        "config",
    )


def test_a_missing_or_damaged_session_is_an_error_not_a_default(tmp_path: Path) -> None:
    store = JsonSessionStore(str(tmp_path))
    with pytest.raises(SessionNotFound):
        store.load("20260101-000000-abcdef")
    with pytest.raises(SessionNotFound):
        store.load("../../etc/passwd")
    (tmp_path / "sessions").mkdir()
    (tmp_path / "sessions" / "broken-1.json").write_text("{}")
    with pytest.raises(StoreError, match="damaged"):
        store.load("broken-1")
