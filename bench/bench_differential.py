"""The differential oracle over the whole corpus: every shell-test literal and every
generated command is decided by the default policy (workspace mode); every allowed one is
executed in the bubblewrap + strace sandbox and judged (see tests/differential/).

Run by hand:  PYTHONPATH=src .venv/bin/python bench/bench_differential.py [--report FILE] [--workers N]
              [--external]
Target (issue #13): >= 5,000 generated commands evaluated, zero violations. With --external,
the corpus from outside the project (tests/differential/corpus/external.jsonl: man pages and
community cheatsheets); target (issue #31): >= 5,000 commands, zero high or medium findings.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tests.differential.oracle import corpus, external, sandbox
from tests.differential.oracle.run import WORKERS, Oracle, by_kind, by_severity, info_kinds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", help="write every violation to this file")
    parser.add_argument("--workers", type=int, default=WORKERS)
    parser.add_argument("--external", action="store_true", help="the corpus from outside the project")
    args = parser.parse_args()
    missing = sandbox.missing_tools()
    if missing:
        print(f"needs {' and '.join(missing)} (apt-get install bubblewrap strace)", file=sys.stderr)
        return 2
    oracle = Oracle()
    try:
        if args.external:
            literals, generated = external.commands(), []
        else:
            literals, generated = corpus.literal_commands(), corpus.generated()
        start = time.perf_counter()
        allowed, evaluated = oracle.allowed(literals + generated)
        decided = time.perf_counter()
        results = oracle.execute_all(allowed, workers=args.workers)
        done = time.perf_counter()
    finally:
        oracle.close()
    bad = [r for r in results if r.violations]
    if args.external:
        print(f"corpus: {len(literals)} external commands ({external.CORPUS.name})")
    else:
        print(f"corpus: {len(literals)} test literals + {len(generated)} generated commands")
    print(
        f"evaluated {evaluated}, allowed {len(allowed)}, executed {len(results)}, "
        f"violating {len(bad)} ({len(bad) / max(len(results), 1):.1%} of allowed)"
    )
    print("violating commands by kind:")
    for kind, count in by_kind(results).most_common():
        print(f"  {count:5d}  {kind}")
    print("commands with a finding, by severity:")
    for severity, count in sorted(by_severity(results).items()):
        print(f"  {count:5d}  {severity}")
    print("reported, not counted:")
    for kind, count in info_kinds(results).most_common():
        print(f"  {count:5d}  {kind}")
    print(
        f"time: decide {decided - start:.1f} s, execute {done - decided:.1f} s "
        f"({(done - decided) / max(len(results), 1) * 1000:.0f} ms per command, {args.workers} workers)"
    )
    if args.report:
        with open(args.report, "w") as out:
            out.write("\n\n".join(r.report() for r in bad) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
