"""Issue 15 on both backends (SQLite and PostgreSQL): every resolution is recorded exactly
once with its approver, even when the waiter died; the chain is keyed, so a rewritten
record with recomputed plain hashes fails verify; verify names the first bad record for any
corruption and never raises; an unkeyed (v1) ledger is re-keyed on open; refused calls are
counted apart from the calls let through."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sqlite3

import psycopg
import pytest

from bastion.approval.clock import FakeClock
from bastion.approval.model import EXPIRY, ApprovalRequest, Usage, new_id
from bastion.approval.queue import ApprovalQueue
from bastion.approval.state import RequestState
from bastion.audit.chain import CHAIN_VERSION, Chain, legacy_hash
from bastion.audit.events import EVENT_FIELDS, GENESIS, AuditEvent
from bastion.audit.ledger import verify_store
from bastion.audit.resolutions import LedgerResolutions
from bastion.call.effects import Effect
from bastion.policy.decision import Decision, Evaluation, Reason
from bastion.state import Stores, open_stores
from tests.postgres.test_pg_ledger_behaviour import event, tamper

ASKED = Evaluation(
    Decision.ASK,
    (Reason(Decision.ASK, "rule[1]", "policy.toml:3", "x", "a person decides"),),
    (Effect.NETWORK,),
)


def parked(created: float = 1000.0, ttl: float = 300.0) -> ApprovalRequest:
    return ApprovalRequest(
        id=new_id(),
        created=created,
        expires=created + ttl,
        tool="shell",
        summary="shell: git push origin main",
        reason="a person decides",
        evaluation=ASKED,
        call_key="key-1",
        project="/proj",
        session="s1",
        argv=("git", "push", "origin", "main"),
    )


def resolutions(stores: Stores) -> list[tuple[str, str, str | None, str]]:
    return [
        (r.event.decision_id, r.event.decision, r.event.approver, r.event.resolver)
        for r in stores.ledger.scan()
        if r.event.kind == "resolved"
    ]


def queue_over(stores: Stores, now: float) -> ApprovalQueue:
    return ApprovalQueue(stores.approvals, FakeClock(now), recorder=LedgerResolutions(stores.ledger))


# -- the ledger misses things: resolutions whose waiter died -------------------------------------


def test_answers_and_expiries_of_requests_whose_waiter_died_are_all_recorded_with_their_approver(
    stores: Stores, other_stores: Stores
) -> None:
    requests = [parked() for _ in range(23)]
    for r in requests:
        stores.approvals.create_request(r)  # nobody waits on any of them: the waiter died
    answerer = queue_over(other_stores, 1100.0)
    for r in requests[:10]:
        answerer.answer(r.id, approve=True, approver="k-approver1")
    for r in requests[10:20]:
        answerer.answer(r.id, approve=False, feedback="no", approver="local:alice")
    expired = queue_over(other_stores, 1300.0).expire_due()
    assert (sorted(expired), sorted(resolutions(stores))) == (
        sorted(r.id for r in requests[20:]),
        sorted(
            [(r.id, "allow", "k-approver1", "person") for r in requests[:10]]
            + [(r.id, "deny", "local:alice", "person") for r in requests[10:20]]
            + [(r.id, "deny", EXPIRY, "timeout") for r in requests[20:]]
        ),
    )


def test_a_resolution_is_recorded_exactly_once_whoever_writes_it_first(
    stores: Stores, other_stores: Stores
) -> None:
    request = parked()
    stores.approvals.create_request(request)
    queue_over(stores, 1100.0).answer(request.id, approve=True, approver="k1")
    final = stores.approvals.get_request(request.id)
    assert final is not None
    writers = [LedgerResolutions(stores.ledger), LedgerResolutions(other_stores.ledger)]
    again = [w.write(final) for w in writers * 2]  # the waiter waking late, another daemon, …
    assert (len(resolutions(stores)), {r.seq for r in again}, final.approver) == (1, {1}, "k1")


def test_the_approver_is_stored_with_the_resolved_request(stores: Stores, other_stores: Stores) -> None:
    request = parked()
    stores.approvals.create_request(request)
    done = queue_over(stores, 1001.0).answer(request.id, approve=True, approver="k-abc")
    assert (done.approver, other_stores.approvals.get_request(request.id)) == (
        "k-abc",
        dataclasses.replace(
            request, state=RequestState.APPROVED_ONCE, resolved_at=1001.0, resolver="person", approver="k-abc"
        ),
    )


# -- the chain is keyed -------------------------------------------------------------------------


def test_a_rewritten_record_with_recomputed_unkeyed_hashes_fails_verify(stores: Stores) -> None:
    records = stores.ledger.append([event(n) for n in range(1, 5)])
    forged = dataclasses.replace(records[1].event, decision="allow", summary="shell: harmless")
    prev = records[0].hash
    for record in [dataclasses.replace(records[1], event=forged), *records[2:]]:  # re-chain from 2 on
        digest = hashlib.sha256(
            json.dumps(
                {"seq": record.seq, "prev": prev, **dataclasses.asdict(record.event)},
                sort_keys=True,
                separators=(",", ":"),
            ).encode()
        ).hexdigest()
        tamper(
            stores,
            f"UPDATE ledger SET prev = '{prev}', hash = '{digest}', summary = "
            f"'{record.event.summary}' WHERE seq = {record.seq}",
        )
        prev = digest
    result = verify_store(stores.ledger)
    assert (result.ok, result.bad_seq, result.checked) == (False, 2, 1)


def test_a_ledger_read_with_another_key_fails_verify_at_its_first_record(stores: Stores) -> None:
    stores.ledger.append([event(n) for n in range(1, 4)])
    stores.ledger.chain = Chain(b"x" * 32)  # as a verifier holding the wrong key
    result = verify_store(stores.ledger)
    assert (result.ok, result.bad_seq, "keyed hash" in (result.problem or "")) == (False, 1, True)


CORRUPTIONS = {
    "a blob": (
        "UPDATE ledger SET summary = CAST('abc' AS BLOB) WHERE seq = 3",
        "ALTER TABLE ledger ALTER COLUMN summary TYPE bytea USING convert_to(summary, 'UTF8')",
        "its summary is bytes, not text",
    ),
    "an infinite time": (
        "UPDATE ledger SET time = 9e999 WHERE seq = 3",
        "UPDATE ledger SET time = 'Infinity' WHERE seq = 3",
        "its time is inf, not a finite number",
    ),
    "invalid JSON": (
        "UPDATE ledger SET reasons = '[{' WHERE seq = 3",
        "UPDATE ledger SET reasons = '[{' WHERE seq = 3",
        "its reasons is not valid JSON",
    ),
    "a missing column": (
        "ALTER TABLE ledger DROP COLUMN summary",
        "ALTER TABLE ledger DROP COLUMN summary",
        "it has no summary column",
    ),
}


@pytest.mark.parametrize("what", sorted(CORRUPTIONS))
def test_verify_names_the_first_bad_record_for_any_corruption_and_never_raises(
    stores: Stores, what: str
) -> None:
    stores.ledger.append([event(n) for n in range(1, 6)])
    sqlite_sql, pg_sql, words = CORRUPTIONS[what]
    tamper(stores, pg_sql if stores.url else sqlite_sql)
    result = verify_store(stores.ledger)
    # A column changed or dropped on PostgreSQL changes every row: the first bad record is 1.
    whole_column = what == "a missing column" or (what == "a blob" and stores.url is not None)
    bad = 1 if whole_column else 3
    assert (result.ok, result.bad_seq, words in (result.problem or "")) == (False, bad, True), result


# -- migration of an unkeyed ledger ---------------------------------------------------------------


def _write_v1(stores: Stores, events: list[AuditEvent], *, break_at: int | None = None) -> None:
    """Rows as Bastion wrote them before the chain was keyed: plain SHA-256, no approver."""
    prev = GENESIS
    names = [n for n in EVENT_FIELDS if n != "approver"]
    for seq, e in enumerate(events, start=1):
        digest = legacy_hash(seq, prev, e)
        values = [getattr(e, n) for n in names]
        if seq == break_at:
            values[names.index("summary")] = "shell: edited before the upgrade"
        marks = ", ".join(["?"] * (len(names) + 3))
        sql = f"INSERT INTO ledger (seq, prev, hash, {', '.join(names)}) VALUES ({marks})"
        if stores.url:
            with psycopg.connect(stores.url, autocommit=True) as conn:
                conn.execute(sql.replace("?", "%s"), (seq, prev, digest, *values))
        else:
            conn = sqlite3.connect(stores.sqlite_path)
            conn.execute(sql, (seq, prev, digest, *values))
            conn.commit()
            conn.close()
        prev = digest


@pytest.mark.parametrize("break_at", [None, 3])
def test_an_unkeyed_ledger_is_rekeyed_on_open_and_an_old_break_is_still_named(
    location: tuple[str | None, str], break_at: int | None
) -> None:
    first = open_stores(*location)
    first.ledger.append([])  # creates the (keyed, empty) ledger
    tamper(first, "DELETE FROM ledger_meta")  # as a ledger of an older Bastion: no chain version
    _write_v1(first, [event(n) for n in range(1, 6)], break_at=break_at)
    first.close()
    reopened = open_stores(*location)
    try:
        result = verify_store(reopened.ledger)
        reopened.ledger.append([event(6)])
        after = verify_store(reopened.ledger)
        meta = reopened.ledger.legacy_break()
    finally:
        reopened.close()
    if break_at is None:
        assert (result.ok, result.checked, after.ok, after.checked, meta) == (True, 5, True, 6, None)
    else:
        assert (
            result.ok,
            result.bad_seq,
            "before the ledger was keyed" in (result.problem or ""),
            after.bad_seq,
        ) == (False, 3, True, 3)


def test_a_ledger_whose_chain_version_was_reset_fails_verify_instead_of_trusting_it(
    location: tuple[str | None, str],
) -> None:
    first = open_stores(*location)
    first.ledger.append([event(n) for n in range(1, 4)])
    tamper(first, f"UPDATE ledger_meta SET value = 'v1' WHERE value = '{CHAIN_VERSION}'")
    first.close()
    reopened = open_stores(*location)
    try:
        result = verify_store(reopened.ledger)
    finally:
        reopened.close()
    assert (result.ok, result.bad_seq) == (False, 1)


# -- limits: refused calls are counted apart -------------------------------------------------------


def test_a_refused_call_moves_from_the_let_through_count_to_the_refused_count(stores: Stores) -> None:
    approvals = stores.approvals
    for at in (100.0, 101.0, 102.0):
        approvals.admit_call("s1", None, at)
    approvals.refuse_call("s1", 101.0)
    approvals.refuse_call("s1", 101.0)  # only one call was made at 101: nothing more moves
    assert approvals.peek_usage("s1", None, 103.0) == Usage(0, None, 3, minute_refused=1)
