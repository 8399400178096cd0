"""The audit ledger store behaves the same on SQLite and PostgreSQL: appends chain, queries
filter, and verification passes, then names the exact record that was edited or removed."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from bastion.audit.events import GENESIS, AuditEvent, LedgerRecord
from bastion.audit.group import GroupCommitStore
from bastion.audit.ledger import VerifyResult, verify_store
from bastion.audit.store import LedgerQuery
from bastion.state import ENV_URL, Stores, open_stores

ROOT = Path(__file__).resolve().parents[2]


def event(n: int, *, session: str = "s1", decision: str = "allow", **kw: object) -> AuditEvent:
    fields: dict[str, object] = {
        "kind": "decided",
        "decision_id": f"d{n}",
        "time": 1000.0 + n / 7,
        "tool": "shell",
        "decision": decision,
        "resolver": "policy",
        "rule": "rule[1]",
        "source": "policy.toml:3",
        "message": f"call {n}",
        "reasons": "[]",
        "args_hash": f"h{n}",
        "summary": f"shell: echo {n}",
        "session": session,
        "exit_code": None,
        "duration": None,
    }
    fields.update(kw)
    return AuditEvent(**fields)  # type: ignore[arg-type]


def tamper(stores: Stores, sql: str) -> None:
    """Edit the stored ledger behind the store's back (as an attacker with file/DB access)."""
    if stores.url:
        with psycopg.connect(stores.url, autocommit=True) as conn:
            conn.execute(sql.replace("?", "%s"))
    else:
        conn = sqlite3.connect(stores.sqlite_path)
        conn.execute(sql)
        conn.commit()
        conn.close()


def test_appends_chain_from_genesis_in_sequence(stores: Stores) -> None:
    first = stores.ledger.append([event(1)])
    rest = stores.ledger.append([event(2), event(3)])
    records = first + rest
    assert (
        [r.seq for r in records],
        records[0].prev,
        [r.prev for r in records[1:]],
        list(stores.ledger.scan()),
    ) == ([1, 2, 3], GENESIS, [records[0].hash, records[1].hash], records)


def test_an_empty_append_stores_nothing(stores: Stores) -> None:
    assert (stores.ledger.append([]), list(stores.ledger.scan())) == ([], [])


def test_every_field_reads_back_exactly_including_nul_and_floats(stores: Stores) -> None:
    odd = event(
        1,
        summary="shell: printf 'a\x00b'",
        raw_args='{"c":"\\u0000"}',
        exit_code=-9,
        duration=0.1 + 0.2,
        time=1717171717.123456789,
        agent="ägent",
        turn=None,
    )
    stored = stores.ledger.append([odd])
    assert (list(stores.ledger.scan()), verify_store(stores.ledger).ok) == (stored, True)


def test_queries_filter_by_session_time_decision_and_position(stores: Stores) -> None:
    stores.ledger.append(
        [event(1), event(2, session="s2", decision="deny"), event(3, decision="deny"), event(4)]
    )

    def seqs(**kw: object) -> list[int]:
        return [r.seq for r in stores.ledger.query(LedgerQuery(**kw))]  # type: ignore[arg-type]

    assert (
        seqs(),
        seqs(session="s1"),
        seqs(decision="deny"),
        seqs(since=1000.0 + 3 / 7),
        seqs(after_seq=2, limit=1),
        seqs(session="s1", decision="deny"),
    ) == ([1, 2, 3, 4], [1, 3, 4], [2, 3], [3, 4], [3], [3])


def test_queries_filter_by_kind_and_exact_agent(stores: Stores) -> None:
    stores.ledger.append(
        [event(1), event(2, kind="requested", agent="claude/toolu_1"),
         event(3, kind="requested", agent="claude/toolu_10"), event(4, kind="resolved", agent="claude/toolu_1")]
    )  # fmt: skip

    def seqs(**kw: object) -> list[int]:
        return [r.seq for r in stores.ledger.query(LedgerQuery(**kw))]  # type: ignore[arg-type]

    assert (
        seqs(kind="requested"),
        seqs(agent="claude/toolu_1"),
        seqs(kind="resolved", agent="claude/toolu_1"),
    ) == (
        [2, 3],
        [2, 4],
        [4],
    )


def test_group_commit_over_the_store_keeps_one_chain(stores: Stores) -> None:
    grouped = GroupCommitStore(stores.ledger)
    for n in range(1, 6):
        grouped.append([event(n)])
    assert verify_store(stores.ledger) == VerifyResult(True, 5, list(stores.ledger.scan())[-1].hash)


#: what -> (the edit, the seq verify stops at, records checked good before it, a word of the problem)
EDITS: dict[str, tuple[str, int, int, str]] = {
    "an edited summary": ("UPDATE ledger SET summary = 'shell: harmless' WHERE seq = 3", 3, 2, "altered"),
    "a removed record": ("DELETE FROM ledger WHERE seq = 2", 3, 1, "missing"),
    "a re-chained record": ("UPDATE ledger SET prev = '" + "1" * 64 + "' WHERE seq = 4", 4, 3, "altered"),
}


@pytest.mark.parametrize("what", sorted(EDITS))
def test_verify_names_the_first_bad_record_after_tampering(stores: Stores, what: str) -> None:
    records: list[LedgerRecord] = stores.ledger.append([event(n) for n in range(1, 6)])
    sql, bad_seq, checked, word = EDITS[what]
    before = verify_store(stores.ledger)
    tamper(stores, sql)
    after = verify_store(stores.ledger)
    assert (before.ok, after.ok, after.bad_seq, after.checked, after.head, word in (after.problem or "")) == (
        True,
        False,
        bad_seq,
        checked,
        records[checked - 1].hash,
        True,
    )


def test_bastion_logs_verify_checks_the_postgresql_ledger_and_names_the_bad_record(
    pg_url: str, tmp_path: Path
) -> None:
    stores = open_stores(pg_url, str(tmp_path))
    stores.ledger.append([event(n) for n in range(1, 6)])
    stores.close()
    env = {**os.environ, ENV_URL: pg_url, "BASTION_STATE_DIR": str(tmp_path / "state"), "HOME": str(tmp_path)}

    def verify() -> tuple[int, str]:
        done = subprocess.run(
            [sys.executable, "-m", "bastion.adapters.cli.main", "logs", "verify", "--json"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        return done.returncode, done.stdout

    intact = verify()
    tamper(
        open_stores(pg_url, str(tmp_path)),
        "UPDATE ledger SET decision = 'allow', summary = 'x' WHERE seq = 4",
    )
    broken = verify()
    assert ((intact[0], json.loads(intact[1])["checked"]), (broken[0], json.loads(broken[1])["bad_seq"])) == (
        (0, 5),
        (1, 4),
    )
