"""Cost of a contained call vs the same call uncontained (issue #14), in the same run.

    .venv/bin/python bench/bench_contain.py [RUNS]

The call is ``bash -c 'echo hi > out.txt'`` in a small git workspace. Variants, interleaved
RUNS times each (default 200) so machine noise hits all alike; p50/p90 wall-clock ms:

- uncontained: the command as the agent runs it on the host (``subprocess.run``)
- plan only: ``build_spec`` with a profile (the credential/protected-path walk, the mounts)
- contained, in process: ``BubblewrapRunner.run`` of that spec (cgroup, seccomp, bwrap)
- contained, ``bastion sandbox run``: what a rewritten hook call runs (a fresh process:
  imports, policy cache, the run, the ledger record)
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from bastion.configuration import load_text
from bastion.exec import BubblewrapRunner, build_spec
from bastion.exec.profile import Filesystem, Profile

COMMAND = "echo hi > out.txt"


def _workspace(root: str) -> str:
    workspace = os.path.join(root, "proj")
    os.makedirs(os.path.join(workspace, "src"))
    subprocess.run(["git", "init", "-q", workspace], check=True)
    for index in range(200):  # a small project: 200 files
        with open(os.path.join(workspace, "src", f"m{index}.py"), "w") as handle:
            handle.write("x = 1\n")
    return workspace


def main(runs: int) -> None:
    root = tempfile.mkdtemp(prefix="bastion-bench-contain-")
    try:
        measure(runs, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def measure(runs: int, root: str) -> None:
    workspace = _workspace(root)
    env = {"HOME": root, "BASTION_STATE_DIR": os.path.join(root, "state"), "PATH": os.environ["PATH"]}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    config = load_text("", cwd=workspace, env=env)
    policy = config.policy
    profile = Profile(Filesystem.WORKSPACE_WRITE)
    bwrap = BubblewrapRunner()
    bastion = os.path.join(os.path.dirname(sys.executable), "bastion")
    cli = [bastion, "sandbox", "run", "--profile", "workspace-write", "--", "bash", "-c", COMMAND]

    def plan() -> object:
        return build_spec(policy, config.exec, ["bash", "-c", COMMAND], cwd=workspace, environ=env,
                          profile=profile)  # fmt: skip

    variants: dict[str, Callable[[], object]] = {
        "uncontained": lambda: subprocess.run(["bash", "-c", COMMAND], cwd=workspace, check=True),
        "plan only": plan,
        "contained, in process": lambda: bwrap.run(plan()),  # type: ignore[arg-type]
        "contained, bastion sandbox run": lambda: subprocess.run(cli, cwd=workspace, env=env, check=True),
    }
    timings: dict[str, list[float]] = {name: [] for name in variants}
    for run in variants.values():  # warm-up (fills the policy cache, the probes)
        run()
    for _ in range(runs):
        for name, run in variants.items():
            start = time.perf_counter()
            run()
            timings[name].append((time.perf_counter() - start) * 1000)
    base = statistics.median(timings["uncontained"])
    print(f"{runs} runs each, interleaved; ms per call of bash -c '{COMMAND}'; load {os.getloadavg()[0]:.1f}")
    print(f"{'variant':<34}{'p50':>9}{'p90':>9}{'x uncontained':>15}")
    for name, samples in timings.items():
        samples.sort()
        p50, p90 = statistics.median(samples), samples[int(len(samples) * 0.9)]
        print(f"{name:<34}{p50:>9.2f}{p90:>9.2f}{p50 / base:>15.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
