"""Sandbox start-up overhead per exec: bubblewrap vs a bare subprocess, in the same run.

    .venv/bin/python bench/bench_sandbox.py [RUNS]

Each variant runs ``true`` RUNS times (default 200), interleaved so machine noise hits
all of them alike, and reports p50/p90 wall-clock milliseconds per run:

- bare: ``subprocess.run(["true"])``
- runner-unsafe: the same through Bastion's process driver (capture, caps, group kill)
- bwrap-minimal: ``bwrap --ro-bind / / true`` (bubblewrap's own floor)
- runner-bwrap: the full BubblewrapRunner sandbox (every namespace, the mount plan, nice)
"""

from __future__ import annotations

import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from bastion.configuration import load_policy_text
from bastion.exec import BubblewrapRunner, ExecConfig, UnsafeHostRunner, build_spec


def main(runs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bastion-bench-sandbox-") as workspace:
        measure(runs, workspace)


def measure(runs: int, workspace: str) -> None:
    policy = load_policy_text("", cwd=workspace, env={"HOME": os.path.expanduser("~")})
    spec = build_spec(policy, ExecConfig(), ["true"], cwd=workspace)
    bwrap = BubblewrapRunner()
    unsafe = UnsafeHostRunner({"BASTION_ALLOW_UNSANDBOXED": "1"})
    logging.getLogger("bastion.exec").setLevel(logging.ERROR)  # one warning per run otherwise
    variants: dict[str, Callable[[], object]] = {
        "bare subprocess": lambda: subprocess.run(["true"], check=True),
        "runner-unsafe": lambda: unsafe.run(spec),
        "bwrap-minimal": lambda: subprocess.run([bwrap.bwrap, "--ro-bind", "/", "/", "true"], check=True),
        "runner-bwrap": lambda: bwrap.run(spec),
    }
    timings: dict[str, list[float]] = {name: [] for name in variants}
    for run in variants.values():  # warm-up
        run()
    for _ in range(runs):
        for name, run in variants.items():
            start = time.perf_counter()
            run()
            timings[name].append((time.perf_counter() - start) * 1000)
    base = statistics.median(timings["bare subprocess"])
    print(f"{runs} runs each, interleaved; milliseconds per exec of 'true'")
    print(f"{'variant':<18}{'p50':>8}{'p90':>8}{'x bare':>8}")
    for name, samples in timings.items():
        samples.sort()
        p50, p90 = statistics.median(samples), samples[int(len(samples) * 0.9)]
        print(f"{name:<18}{p50:>8.2f}{p90:>8.2f}{p50 / base:>8.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
