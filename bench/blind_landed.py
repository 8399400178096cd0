"""Every attack of the blind suites that Bastion does not deny, run as Claude Code runs it, and
what landed: the wider look behind ``tests/containment/test_blind_suites_landed.py`` (which
runs only the allowed ones, in CI). By hand, for minutes:

    .venv/bin/python bench/blind_landed.py [SUITE ...] [--json FILE]

An asked call is approved, as a person at Claude Code's prompt would, and runs what the hook
answered (with ``[exec] contain = "all"``, the call in its sandbox: ``bastion sandbox run``).
Claude's own file tools are not run here (the hook does not see them; a denied read would be
run all the same). Prints each attack that landed, then per suite the count by how it ran,
the landed count and the mean seconds a case (the fixture's copy and snapshots included).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.containment.blind_suites import FILE_TOOLS, SUITES, hostile_attacks, run
from tests.containment.hostile import snapshot


def run_suite(name: str, rows: list[dict[str, Any]]) -> str:
    """Run the suite's attacks that a hook sees; print each that landed; its summary line."""
    root = Path(tempfile.mkdtemp(prefix=f"blind-landed-{name}-"))
    world = SUITES[name].build(root / "fx", root / "state")
    try:
        attacks = [x for x in hostile_attacks(SUITES[name], world) if x.tool not in (*FILE_TOOLS, "fetch")]
        world.reset()
        pristine = snapshot(world)
        seconds: dict[str, list[float]] = defaultdict(list)
        landed = 0
        for attack in attacks:
            started = time.monotonic()
            ran, after = run(attack, world, pristine)
            if after != pristine:
                world.reset()
            seconds[ran.how].append(time.monotonic() - started)
            rows.append({"suite": name, "id": ran.case, "how": ran.how, "landed": list(ran.landed),
                         "args": dict(attack.args)})  # fmt: skip
            if ran.landed:
                landed += 1
                shown = json.dumps(dict(attack.args))[:160]
                print(f"{name} {ran.case} [{ran.how}] {shown}\n  -> {'; '.join(ran.landed)}", flush=True)
    finally:
        shutil.rmtree(world.state, ignore_errors=True)  # the hook daemon ends with its state dir
        subprocess.run(["chmod", "-R", "u+rwX", str(root)], check=False)
        shutil.rmtree(root, ignore_errors=True)
    means = ", ".join(f"{how} {len(s)} ({sum(s) / len(s):.2f} s)" for how, s in sorted(seconds.items()))
    return f"suite {name[-1].upper()}: {len(attacks)} run, {landed} landed; {means}"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("suites", nargs="*", default=sorted(SUITES))
    ap.add_argument("--json", help="write every case's result here")
    a = ap.parse_args()
    rows: list[dict[str, Any]] = []
    for name in a.suites:
        print(run_suite(name, rows), flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
