"""Several processes on one PostgreSQL database: exactly-once answers and one linear ledger."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from bastion.approval.state import RequestState
from bastion.audit.ledger import verify_records
from bastion.state import open_stores
from tests.postgres.test_pg_approval_behaviour import make_request

ROOT = Path(__file__).resolve().parents[2]


def run_workers(kind: str, args: list[list[str]], tmp_path: Path) -> list[dict[str, object]]:
    start = tmp_path / f"start-{kind}"
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.postgres.workers", kind, *a, str(start)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for a in args
    ]
    start.touch()
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    return results


def test_four_approvers_racing_on_100_requests_resolve_each_exactly_once(pg_url: str, tmp_path: Path) -> None:
    stores = open_stores(pg_url, str(tmp_path))
    requests = [make_request(created=1e9, ttl=1e10) for _ in range(100)]
    for request in requests:
        stores.approvals.create_request(request)
    ids_file = tmp_path / "ids.json"
    ids_file.write_text(json.dumps([r.id for r in requests]))
    results = run_workers("approve", [[pg_url, str(ids_file), f"approver{i}"] for i in range(4)], tmp_path)
    wins = Counter(rid for r in results for rid in r["won"])  # type: ignore[attr-defined]
    winner = {rid: r["name"] for r in results for rid in r["won"]}  # type: ignore[attr-defined]
    final = {r.id: r for r in stores.approvals.list_requests()}
    stores.close()
    assert (
        sorted(wins.values()) == [1] * 100,
        sum(int(r["lost"]) for r in results),  # type: ignore[call-overload]
        {final[rid].resolver for rid in winner} == {r["name"] for r in results if r["won"]},
        all(final[rid].resolver == name for rid, name in winner.items()),
        {s for s in (r.state for r in final.values())} <= {RequestState.APPROVED_ONCE, RequestState.DENIED},
    ) == (True, 300, True, True, True)


def test_four_writers_appending_10000_events_keep_one_verifiable_chain(pg_url: str, tmp_path: Path) -> None:
    results = run_workers("append", [[pg_url, "2500", f"writer{i}"] for i in range(4)], tmp_path)
    stores = open_stores(pg_url, str(tmp_path))
    records = list(stores.ledger.scan())
    verdict = verify_records(records, stores.ledger.chain)
    stores.close()
    got = sorted(s for r in results for s in r["seqs"])  # type: ignore[attr-defined]
    per_writer = Counter(r.event.session for r in records)
    assert (verdict.ok, verdict.checked, got == list(range(1, 10_001)), dict(per_writer)) == (
        True,
        10_000,
        True,
        {f"writer{i}": 2500 for i in range(4)},
    )
