"""The ledger links a child's records to its parent, in Bastion's real SQLite file, and a
ledger written before the ``parent`` column existed still opens and verifies."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

from bastion.approval.clock import FakeClock
from bastion.approval.memory import MemoryStore
from bastion.audit.chain import Chain, canonical
from bastion.audit.events import AuditEvent
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.sqlite import SqliteLedgerStore
from bastion.call.model import ToolCall
from bastion.policy.compiled import Policy
from bastion.policy.engine import Gate
from bastion.runtime import Gatekeeper

CHAIN = Chain(b"c" * 32)
HASHER = ArgumentHasher(b"k" * 32)


def sqlite_keeper(policy: Policy, path: Path) -> Gatekeeper:
    return Gatekeeper(
        Gate(policy),
        store=MemoryStore(),
        clock=FakeClock(1000.0),
        ledger=Ledger(SqliteLedgerStore(str(path), chain=CHAIN), hasher=HASHER),
    )


def event(**kw: object) -> AuditEvent:
    base: dict[str, object] = dict(
        kind="decided",
        decision_id="d",
        time=1.0,
        tool="read",
        decision="allow",
        resolver="policy",
        rule="r",
        source="s",
        message="m",
        reasons="[]",
        args_hash="h",
        summary="read x",
    )
    return AuditEvent(**{**base, **kw})  # type: ignore[arg-type]


def test_a_childs_records_name_its_parent_in_the_sqlite_ledger(
    make_policy: Callable[..., Policy], workspace: Path, tmp_path: Path
) -> None:
    path = tmp_path / "bastion.db"
    keeper = sqlite_keeper(make_policy(), path)
    keeper.child("parent", session="kid")
    read = ToolCall("read", {"path": "README.md"}, cwd=str(workspace), turn="t1")
    for session in ("parent", "kid"):
        asyncio.run(keeper.request(ToolCall(read.tool, read.args, cwd=read.cwd, session=session, turn="t1")))
    keeper.close()
    rows = (
        sqlite3.connect(path).execute("SELECT session, parent, decision FROM ledger ORDER BY seq").fetchall()
    )
    assert rows == [("parent", None, "allow"), ("kid", "parent", "allow")]
    reopened = Ledger(SqliteLedgerStore(str(path), chain=CHAIN), hasher=HASHER)
    assert [r.event.parent for r in reopened.events(session="kid")] == ["parent"]
    assert reopened.verify().ok
    reopened.close()


def test_the_parent_is_under_the_chain_hash(tmp_path: Path) -> None:
    path = tmp_path / "bastion.db"
    ledger = Ledger(SqliteLedgerStore(str(path), chain=CHAIN), hasher=HASHER)
    ledger.append(event(session="kid", parent="parent"))
    ledger.close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE ledger SET parent = 'someone-else'")
    reopened = Ledger(SqliteLedgerStore(str(path), chain=CHAIN), hasher=HASHER)
    result = reopened.verify()
    reopened.close()
    assert (result.ok, result.bad_seq) == (False, 1)


def test_a_record_without_a_parent_hashes_as_it_did_before_the_field_existed() -> None:
    assert b'"parent"' not in canonical(1, "0" * 64, event())
    assert b'"parent":"p"' in canonical(1, "0" * 64, event(parent="p"))


def test_a_ledger_written_before_the_parent_column_opens_and_verifies(tmp_path: Path) -> None:
    path = tmp_path / "bastion.db"
    ledger = Ledger(SqliteLedgerStore(str(path), chain=CHAIN), hasher=HASHER)
    ledger.append(event())
    ledger.append(event(decision_id="e", session="s"))
    ledger.close()
    with sqlite3.connect(path) as conn:  # what an older Bastion wrote: no parent column at all
        conn.execute("ALTER TABLE ledger DROP COLUMN parent")
    reopened = Ledger(SqliteLedgerStore(str(path), chain=CHAIN), hasher=HASHER)
    reopened.append(event(decision_id="f", session="kid", parent="s"))
    result = reopened.verify()
    parents = [r.event.parent for r in reopened.events()]
    reopened.close()
    assert (result.ok, parents) == (True, [None, None, "s"])
