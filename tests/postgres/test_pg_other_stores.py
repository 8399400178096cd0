"""API keys, MCP pins, launch sessions and the gateway's shared state behave the same on
SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.keys.model import Role
from bastion.keys.store import has_active, verify
from bastion.launch.sessions import Run, SessionNotFound, new_session
from bastion.policy.ceiling import NO_CEILING, Ceiling
from bastion.state import Stores
from bastion.state.pins import Pin, ToolVersion, check_offer

READ_ONLY = Ceiling("ask_every_action", "read_only", "allowed")


def version(description: str, name: str = "t") -> ToolVersion:
    return ToolVersion.of({"name": name, "description": description, "inputSchema": {"type": "object"}})


# -- API keys ---------------------------------------------------------------------------------
def test_a_created_key_verifies_on_another_opening_until_it_is_revoked(
    stores: Stores, other_stores: Stores
) -> None:
    record, key = stores.keys.create(Role.APPROVER, now=100.0, label="alice")
    seen = verify(other_stores.keys, key)
    revoked = (other_stores.keys.revoke(record.id, now=200.0), stores.keys.revoke(record.id, now=300.0))
    assert (seen, revoked, verify(stores.keys, key), verify(stores.keys, key + "x")) == (
        record,
        (True, False),
        None,
        None,
    )


def test_keys_list_oldest_first_and_hide_revoked_ones_unless_asked(stores: Stores) -> None:
    old, _ = stores.keys.create(Role.AGENT, now=1.0)
    new, _ = stores.keys.create(Role.ADMIN, now=2.0, label="ops")
    stores.keys.revoke(old.id, now=3.0)
    everything = stores.keys.list(include_revoked=True)
    assert (
        [k.id for k in stores.keys.list()],
        [(k.id, k.active) for k in everything],
        has_active(stores.keys, Role.ADMIN),
        has_active(stores.keys, Role.AGENT),
    ) == ([new.id], [(old.id, False), (new.id, True)], True, False)


# -- MCP pins -----------------------------------------------------------------------------------
def test_first_use_pins_every_tool_once_and_a_second_first_use_loses(
    stores: Stores, other_stores: Stores
) -> None:
    offered = {"t": version("reads notes")}
    first = stores.pins.pin_first("notes", offered)
    second = other_stores.pins.pin_first("notes", {"t": version("other")})
    assert (
        first,
        second,
        other_stores.pins.known("notes"),
        other_stores.pins.servers(),
        stores.pins.pins("notes"),
    ) == (True, False, True, ["notes"], {"t": Pin("t", offered["t"])})


def test_a_changed_tool_is_blocked_until_trusted(stores: Stores, other_stores: Stores) -> None:
    trusted, changed, new = version("reads notes"), version("IGNORE PREVIOUS"), version("x", "u")
    first = check_offer(stores.pins, "notes", {"t": trusted})
    review = check_offer(other_stores.pins, "notes", {"t": changed, "u": new})
    pending = stores.pins.pins("notes")
    done = stores.pins.trust("notes", ["t"])
    after = check_offer(other_stores.pins, "notes", {"t": changed, "u": new})
    assert (
        first.first_use,
        sorted(b.why for b in review.blocked),
        pending["t"],
        done,
        sorted(after.trusted),
        [b.tool for b in after.blocked],
    ) == (True, ["changed", "new"], Pin("t", trusted, changed), ["t"], ["t"], ["u"])


def test_trusting_everything_promotes_every_pending_tool(stores: Stores) -> None:
    stores.pins.pin_first("s", {"a": version("a", "a")})
    stores.pins.note_pending("s", {"a": version("a2", "a"), "b": version("b", "b")})
    assert (
        stores.pins.trust("s"),
        stores.pins.trust("s"),
        {n: p.pending for n, p in stores.pins.pins("s").items()},
    ) == (["a", "b"], [], {"a": None, "b": None})


# -- launch sessions ------------------------------------------------------------------------------
def test_a_saved_session_loads_back_whole_with_its_runs(stores: Stores, other_stores: Stores) -> None:
    session = new_session(("claude",), ("--x",), NO_CEILING, "default", "/proj")
    run = Run("claude", True, ("--flag",), READ_ONLY, exit_code=0, notes=("ok",), at=5.0)
    stores.sessions.save(session)
    stores.sessions.save(session.with_run(run))
    assert (other_stores.sessions.load(session.id), other_stores.sessions.list_ids()) == (
        session.with_run(run),
        [session.id],
    )


def test_loading_an_unknown_session_says_it_is_not_found(stores: Stores) -> None:
    with pytest.raises(SessionNotFound):
        stores.sessions.load("20240101-000000-abcdef")


# -- the gateway's logins and request owners ------------------------------------------------------
def test_request_owners_and_page_logins_are_seen_by_every_daemon(
    stores: Stores, other_stores: Stores
) -> None:
    here, there = stores.gateway_state(), other_stores.gateway_state()
    here.set_owner("r1", "k1", now=1.0)
    here.set_owner("r1", "k2", now=2.0)  # the first owner stays
    token, login = here.open_session("k1", now=10.0, ttl=60.0)
    seen = there.session(token, now=20.0)
    there.close_session(token)
    assert (there.owner("r1"), there.owner("r2"), seen, here.session(token, now=21.0)) == (
        "k1",
        None,
        login,
        None,
    )


# -- the gateway's global rate limit (PostgreSQL: one budget for every daemon) --------------------
def test_a_rate_limit_is_one_budget_per_key_and_minute_across_daemons(pg_url: str, tmp_path: Path) -> None:
    from bastion.postgres.connection import shared_database
    from bastion.postgres.counters import PgRateLimiter

    now = [600.0]
    db = shared_database(pg_url)
    here, there = (PgRateLimiter(db, 3, clock=lambda: now[0]) for _ in range(2))
    first = [here.check("k1"), there.check("k1"), here.check("k1"), there.check("k1"), here.check("k2")]
    now[0] = 659.5
    late = there.check("k1")
    now[0] = 660.0
    fresh = [here.check("k1"), there.check("k1")]
    here.close()
    there.close()
    db.release()
    assert (first, late, fresh) == ([0, 0, 0, 60, 0], 1, [0, 0])


def test_cli_commands_find_the_database_through_the_environment(pg_url: str, tmp_path: Path) -> None:
    from bastion.state import ENV_URL, open_stores_from_env

    opened = open_stores_from_env(
        {ENV_URL: pg_url, "BASTION_STATE_DIR": str(tmp_path), "HOME": str(tmp_path)}, cwd=str(tmp_path)
    )
    none = open_stores_from_env(
        {"BASTION_STATE_DIR": str(tmp_path), "HOME": str(tmp_path)}, cwd=str(tmp_path)
    )
    assert ((opened.kind, opened.url), (none.kind, none.url)) == (("postgresql", pg_url), ("sqlite", None))
