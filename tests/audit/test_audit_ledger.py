"""The hash-chained ledger: appends chain, verify finds edits, removals and reorders."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from bastion.audit.chain import Chain
from bastion.audit.events import GENESIS, AuditEvent, EventKind, make_event
from bastion.audit.keyed import ArgumentHasher, load_or_create_key
from bastion.audit.ledger import Ledger, VerifyResult
from bastion.audit.settings import AuditConfig
from bastion.audit.sqlite import SqliteLedgerStore
from bastion.audit.store import MemoryLedgerStore
from bastion.call.model import ToolCall
from bastion.errors import StoreError
from bastion.policy.decision import Decision, Evaluation, Reason

HASHER = ArgumentHasher(b"k" * 32)
#: The chain key the stores link with (fixed: tests reopen files).
CHAIN = Chain(b"c" * 32)
ALLOWED = Evaluation(Decision.ALLOW, (Reason(Decision.ALLOW, "rule[2]", "/p/policy.toml:7", "git", "fine"),))


def event(n: int, **kw: object) -> AuditEvent:
    call = ToolCall(
        "shell", {"command": f"echo record-{n:04d}"}, cwd="/p", session=str(kw.pop("session", "s1"))
    )
    return make_event(
        call,
        ALLOWED,
        kind=EventKind.DECIDED,
        decision_id=f"d{n}",
        resolver="policy",
        time=1000.0 + n,
        hasher=HASHER,
        config=AuditConfig(),
    )


@pytest.fixture(params=["memory", "sqlite"])
def ledger(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Ledger]:
    store = (
        MemoryLedgerStore(CHAIN)
        if request.param == "memory"
        else SqliteLedgerStore(str(tmp_path / "b.db"), chain=CHAIN)
    )
    made = Ledger(store, hasher=HASHER)
    yield made
    made.close()


def test_an_event_records_which_rule_decided_where_and_the_redacted_call() -> None:
    call = ToolCall(
        "shell", {"command": "deploy --token abcdef123"}, cwd="/p", session="s1", agent="claude", turn="t1"
    )
    made = make_event(
        call,
        ALLOWED,
        kind=EventKind.EXECUTED,
        decision_id="d1",
        resolver="grant",
        time=5.0,
        hasher=HASHER,
        config=AuditConfig(),
        exit_code=1,
        duration=0.25,
    )
    assert made == AuditEvent(
        kind="executed",
        decision_id="d1",
        time=5.0,
        tool="shell",
        decision="allow",
        resolver="grant",
        rule="rule[2]",
        source="/p/policy.toml:7",
        message="fine",
        reasons='[{"rule":"rule[2]","source":"/p/policy.toml:7","decision":"allow"}]',
        args_hash=HASHER.digest(call),
        summary="shell: deploy --token ***",
        session="s1",
        agent="claude",
        turn="t1",
        raw_args=None,
        exit_code=1,
        duration=0.25,
    )


def test_raw_arguments_are_kept_only_when_the_policy_opts_in() -> None:
    call = ToolCall("shell", {"command": "deploy --token abcdef123"})
    made = make_event(
        call,
        ALLOWED,
        kind=EventKind.DECIDED,
        decision_id="d",
        resolver="policy",
        time=1.0,
        hasher=HASHER,
        config=AuditConfig(store_raw_arguments=True),
    )
    assert made.raw_args == json.dumps({"command": "deploy --token abcdef123"})


def test_appended_records_chain_from_genesis_and_verify(ledger: Ledger) -> None:
    first = ledger.append(event(1))
    rest = ledger.append_many([event(2), event(3)])
    assert [(r.seq, r.prev) for r in [first, *rest]] == [(1, GENESIS), (2, first.hash), (3, rest[0].hash)]
    assert rest[1].hash == CHAIN.hash(3, rest[0].hash, event(3))
    assert ledger.verify() == VerifyResult(True, 3, rest[1].hash)


def test_an_empty_ledger_verifies(ledger: Ledger) -> None:
    assert ledger.verify() == VerifyResult(True, 0, GENESIS)


def test_events_filter_by_session_time_decision_and_position(ledger: Ledger) -> None:
    ledger.append_many([event(1), event(2, session="s2"), event(3)])
    assert [r.seq for r in ledger.events(session="s1")] == [1, 3]
    assert [r.seq for r in ledger.events(since=1002.0)] == [2, 3]
    assert [r.seq for r in ledger.events(decision="deny")] == []
    assert [r.seq for r in ledger.events(after_seq=1, limit=1)] == [2]


def test_events_filter_by_kind_and_exact_agent(ledger: Ledger) -> None:
    asked = dataclasses.replace(event(2), kind="requested", agent="claude/toolu_1")
    other = dataclasses.replace(event(3), kind="requested", agent="claude/toolu_10")
    ledger.append_many([event(1), asked, other, dataclasses.replace(asked, kind="resolved")])

    assert [r.seq for r in ledger.events(kind=EventKind.REQUESTED)] == [2, 3]
    assert [r.seq for r in ledger.events(agent="claude/toolu_1")] == [2, 4]
    assert [r.seq for r in ledger.events(session="s1", kind=EventKind.RESOLVED, agent="claude/toolu_1")] == [
        4
    ]
    assert ledger.events(kind=EventKind.EXECUTED) == []


def test_a_record_reads_back_as_json_with_iso_time(ledger: Ledger) -> None:
    record = ledger.append(event(1))
    data = record.to_json()
    assert (data["seq"], data["time"], data["reasons"], data["hash"]) == (
        1,
        "1970-01-01T00:16:41.000Z",
        [{"rule": "rule[2]", "source": "/p/policy.toml:7", "decision": "allow"}],
        record.hash,
    )


def test_the_key_is_created_once_with_mode_0600_and_reused(tmp_path: Path) -> None:
    key = load_or_create_key(str(tmp_path / "state"))
    assert (
        len(key),
        load_or_create_key(str(tmp_path / "state")),
        (tmp_path / "state" / "ledger.key").stat().st_mode & 0o777,
    ) == (32, key, 0o600)
    assert repr(ArgumentHasher(key)) == "ArgumentHasher(key=***)"


# -- tampering with the SQLite file ----------------------------------------------------------


@pytest.fixture
def db_with_ten(tmp_path: Path) -> Path:
    path = tmp_path / "b.db"
    made = Ledger(SqliteLedgerStore(str(path), chain=CHAIN), hasher=HASHER)
    made.append_many([event(n) for n in range(1, 11)])
    made.close()
    return path


def _verify(path: Path) -> VerifyResult:
    made = Ledger(SqliteLedgerStore(str(path), chain=CHAIN), hasher=HASHER)
    try:
        return made.verify()
    finally:
        made.close()


def _sql(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path)
    with conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()


def test_an_edited_field_is_found_at_its_record(db_with_ten: Path) -> None:
    _sql(db_with_ten, "UPDATE ledger SET decision = 'deny' WHERE seq = 6")
    result = _verify(db_with_ten)
    assert (result.ok, result.checked, result.bad_seq, result.problem) == (
        False,
        5,
        6,
        "record 6 was altered: its content does not match its keyed hash "
        "(or the ledger key is not the one it was written with)",
    )


def test_a_removed_record_is_found_where_the_gap_is(db_with_ten: Path) -> None:
    _sql(db_with_ten, "DELETE FROM ledger WHERE seq = 4")
    result = _verify(db_with_ten)
    assert (result.ok, result.bad_seq, result.problem) == (False, 5, "record 4 is missing (found 5 after 3)")


def test_a_removed_record_with_renumbered_successors_breaks_the_link(db_with_ten: Path) -> None:
    _sql(db_with_ten, "DELETE FROM ledger WHERE seq = 4", "UPDATE ledger SET seq = seq - 1 WHERE seq > 4")
    result = _verify(db_with_ten)
    assert (result.ok, result.bad_seq) == (False, 4)


def test_reordered_records_are_found_at_the_first_swapped_one(db_with_ten: Path) -> None:
    _sql(
        db_with_ten,
        "UPDATE ledger SET seq = -7 WHERE seq = 7",
        "UPDATE ledger SET seq = 7 WHERE seq = 8",
        "UPDATE ledger SET seq = 8 WHERE seq = -7",
    )
    result = _verify(db_with_ten)
    assert (result.ok, result.bad_seq, result.problem) == (
        False,
        7,
        "record 7 was altered: its content does not match its keyed hash "
        "(or the ledger key is not the one it was written with)",
    )


def test_a_changed_byte_in_the_database_file_is_found_at_that_record(db_with_ten: Path) -> None:
    raw = bytearray(db_with_ten.read_bytes())
    offset = raw.find(b"record-0008")
    assert offset > 0 and raw.find(b"record-0008", offset + 1) == -1
    raw[offset + len(b"record-000")] = ord("9")  # "record-0008" -> "record-0009" in the summary
    db_with_ten.write_bytes(bytes(raw))
    result = _verify(db_with_ten)
    assert (result.ok, result.checked, result.bad_seq) == (False, 7, 8)


def test_many_events_appended_in_one_commit_are_stored_in_order_each_linked_to_the_last(
    ledger: Ledger,
) -> None:
    ledger.append(event(0))
    returned = ledger.append_many([event(n) for n in range(1, 8)])
    stored = ledger.events()
    verdict = ledger.verify()
    assert (
        [r.event.decision_id for r in returned],
        [r.seq for r in returned],
        [r.prev for r in stored[1:]],
        returned,
        (verdict.ok, verdict.checked),
    ) == (
        [f"d{n}" for n in range(1, 8)],
        list(range(2, 9)),
        [r.hash for r in stored[:-1]],
        stored[1:],
        (True, 8),
    )


def test_a_batch_with_one_event_sqlite_cannot_store_keeps_none_of_the_batch(tmp_path: Path) -> None:
    store = SqliteLedgerStore(str(tmp_path / "b.db"), chain=CHAIN)
    made = Ledger(store, hasher=HASHER)
    first = made.append(event(0))
    bad = dataclasses.replace(event(9), exit_code=2**70)  # hashes, but no SQLite integer holds it
    with pytest.raises((OverflowError, StoreError)):
        made.append_many([event(1), event(2), bad, event(3)])
    after = [(r.seq, r.event.decision_id) for r in made.events()]
    head = made.append(event(4))
    verdict = made.verify()
    made.close()
    assert (after, head.seq, head.prev, verdict.ok) == ([(1, "d0")], 2, first.hash, True)
