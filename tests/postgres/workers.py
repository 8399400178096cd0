"""Worker processes for the concurrency tests (``python -m tests.postgres.workers KIND …``).

Each waits for a start file to appear, so all of them hit the database at the same moment,
then prints one JSON line with what it did.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time

from bastion.approval.state import Action
from bastion.audit.events import AuditEvent
from bastion.state import open_stores


def _wait_for(start_file: str) -> None:
    deadline = time.time() + 60
    while not os.path.exists(start_file) and time.time() < deadline:
        time.sleep(0.005)


def approve(url: str, ids_file: str, name: str, start_file: str) -> dict[str, object]:
    """Try to answer every request (in a random order); report the ones this process won."""
    with open(ids_file, encoding="utf-8") as handle:
        ids = json.load(handle)
    random.shuffle(ids)
    stores = open_stores(url, "/nonexistent-state-dir")
    _wait_for(start_file)
    won, lost = [], 0
    for request_id in ids:
        action = random.choice([Action.APPROVE_ONCE, Action.DENY])
        outcome = stores.approvals.resolve(request_id, action, at=time.time(), resolver=name)
        if outcome.won:
            won.append(request_id)
        elif outcome.request is not None and outcome.request.resolver != name:
            lost += 1
    stores.close()
    return {"name": name, "won": won, "lost": lost}


def append(url: str, count: str, name: str, start_file: str) -> dict[str, object]:
    """Append ``count`` events one transaction each; report the sequence numbers received."""
    stores = open_stores(url, "/nonexistent-state-dir")
    _wait_for(start_file)
    seqs = []
    for n in range(int(count)):
        event = AuditEvent(
            kind="decided",
            decision_id=f"{name}-{n}",
            time=time.time(),
            tool="shell",
            decision="allow",
            resolver="policy",
            rule="rule[1]",
            source="p.toml:1",
            message="m",
            reasons="[]",
            args_hash="h",
            summary=f"shell: echo {n}",
            session=name,
        )
        seqs.append(stores.ledger.append([event])[0].seq)
    stores.close()
    return {"name": name, "seqs": seqs}


if __name__ == "__main__":
    kind, *args = sys.argv[1:]
    result = {"approve": approve, "append": append}[kind](*args)
    sys.stdout.write(json.dumps(result) + "\n")
