"""1,000 appends from several processes at once: nothing lost, the chain holds, and a byte
changed in the database file is found at exactly its record."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

from bastion.audit.chain import Chain
from bastion.audit.events import EventKind, make_event
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.settings import AuditConfig
from bastion.audit.sqlite import SqliteLedgerStore
from bastion.call.model import ToolCall
from bastion.policy.decision import Decision, Evaluation, Reason

CHAIN = Chain(b"c" * 32)

HASHER = ArgumentHasher(b"k" * 32)
ALLOWED = Evaluation(Decision.ALLOW, (Reason(Decision.ALLOW, "rule[1]", "p.toml:2", "x", "ok"),))
PROCESSES, EACH = 4, 250


def _write(path: str, worker: int, barrier: object) -> None:
    ledger = Ledger(SqliteLedgerStore(path, chain=CHAIN), hasher=HASHER)
    barrier.wait()  # type: ignore[attr-defined]
    for n in range(EACH):
        call = ToolCall("shell", {"command": f"echo w{worker}-n{n:04d}"}, session=f"w{worker}")
        ledger.append(
            make_event(
                call,
                ALLOWED,
                kind=EventKind.DECIDED,
                decision_id=f"{worker}-{n}",
                resolver="policy",
                time=float(n),
                hasher=HASHER,
                config=AuditConfig(),
            )
        )
    ledger.close()


def test_concurrent_appends_lose_nothing_and_a_changed_byte_is_found_at_its_record(tmp_path: Path) -> None:
    path = tmp_path / "bastion.db"
    Ledger(SqliteLedgerStore(str(path), chain=CHAIN), hasher=HASHER).close()
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(PROCESSES)
    workers = [ctx.Process(target=_write, args=(str(path), w, barrier)) for w in range(PROCESSES)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=120)
    assert [w.exitcode for w in workers] == [0] * PROCESSES

    ledger = Ledger(SqliteLedgerStore(str(path), chain=CHAIN), hasher=HASHER)
    records = ledger.events()
    verdict = ledger.verify()
    target = next(r for r in records if r.event.summary == "shell: echo w2-n0123")
    ledger.close()  # the last connection checkpoints the WAL into the file
    assert sorted(r.event.decision_id for r in records) == sorted(
        f"{w}-{n}" for w in range(PROCESSES) for n in range(EACH)
    )
    assert ([r.seq for r in records], verdict.ok, verdict.checked) == (list(range(1, 1001)), True, 1000)

    raw = bytearray(path.read_bytes())
    offset = raw.find(b"echo w2-n0123")
    assert offset > 0 and raw.find(b"echo w2-n0123", offset + 1) == -1
    raw[offset + len(b"echo w2-n012")] = ord("4")
    path.write_bytes(bytes(raw))
    reopened = Ledger(SqliteLedgerStore(str(path), chain=CHAIN), hasher=HASHER)
    broken = reopened.verify()
    reopened.close()
    assert (broken.ok, broken.bad_seq, broken.checked, broken.problem) == (
        False,
        target.seq,
        target.seq - 1,
        f"record {target.seq} was altered: its content does not match its keyed hash "
        "(or the ledger key is not the one it was written with)",
    )
