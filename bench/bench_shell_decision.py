"""Full shell-call decisions (parse + classify + policy) vs cedarpy and a dict baseline, same run.

Run by hand:  .venv/bin/python bench/bench_shell_decision.py
Targets: in-process p50 <= cedarpy p50 (ratio <= 1.0), p99 <= 100 us; through
`bastion check --batch` (JSON in and out, start-up excluded) <= 1.5x cedarpy p50;
a 10 KiB command < 5 ms.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import cedarpy

from bastion import Gate, ToolCall, load_policy_text
from bastion.policy.network import StaticResolver

sys.path.insert(0, os.path.dirname(__file__))
from agent_commands import corpus

REPEAT = 5


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    root = tempfile.mkdtemp(prefix="bastion-bench-")
    workspace = os.path.join(root, "home", "proj")
    for d in ("src/lib", "src/bastion", "tests", "docs", "build"):
        os.makedirs(os.path.join(workspace, d), exist_ok=True)
    env = {"HOME": os.path.join(root, "home"), "BASTION_STATE_DIR": os.path.join(root, "state")}
    policy_text = (
        '[commands]\nallow = ["pytest *", "npm test", "make test"]\n[network]\nallow_hosts = ["pypi.org"]\n'
    )
    gate = Gate(
        load_policy_text(policy_text, cwd=workspace, env=env), resolver=StaticResolver({}), sandboxed=True
    )
    commands = corpus()
    calls = [ToolCall("shell", {"command": c}, cwd=workspace, interactive=True) for c in commands]
    clock = time.perf_counter_ns
    # Cold: the parse cache is emptied before every call, so each one is parsed afresh.
    cold: list[float] = []
    for _ in range(REPEAT):
        for call in calls:
            gate.analyze_shell.cache_clear()
            start = clock()
            gate.evaluate(call)
            cold.append(clock() - start)
    # Warm: agents repeat commands; the per-gate parse cache serves them (paths still checked).
    shell: list[float] = []
    for _ in range(REPEAT):
        for call in calls:
            start = clock()
            gate.evaluate(call)
            shell.append(clock() - start)

    policies = 'permit(principal == User::"alice", action == Action::"view", resource == Photo::"a.jpg");'
    request = {
        "principal": 'User::"alice"',
        "action": 'Action::"view"',
        "resource": 'Photo::"a.jpg"',
        "context": {},
    }
    cedar: list[float] = []
    for _ in range(200):
        cedarpy.is_authorized(request, policies, [])
    for _ in range(len(calls)):
        start = clock()
        cedarpy.is_authorized(request, policies, [])
        cedar.append(clock() - start)

    table = {f"k{i}": i for i in range(1000)}
    base: list[float] = []
    for _ in range(len(calls)):
        start = clock()
        table.get("k500")
        base.append(clock() - start)

    long_command = "; ".join(["grep -rn TODO src | head -5"] * 400)[:10240]
    long_call = ToolCall("shell", {"command": long_command}, cwd=workspace)
    long_times = []
    for _ in range(20):
        gate.analyze_shell.cache_clear()
        start = clock()
        gate.evaluate(long_call)
        long_times.append(clock() - start)

    batch_per_call = _batch(commands, workspace, env, policy_text, root)
    cedar_p50 = statistics.median(cedar)
    p50, p99 = statistics.median(shell), pct(shell, 0.99)
    print(f"python {sys.version.split()[0]}; {len(commands)} commands x {REPEAT}; times in microseconds")
    print(f"{'case':42} {'p50':>9} {'p99':>9} {'p50/cedarpy':>12}")
    rows = [
        ("dict lookup (baseline)", statistics.median(base), pct(base, 0.99)),
        ("cedarpy is_authorized (simple ACL)", cedar_p50, pct(cedar, 0.99)),
        ("Gate.evaluate shell, cold (parse each time)", statistics.median(cold), pct(cold, 0.99)),
        ("Gate.evaluate shell, warm (parse cached)", p50, p99),
        ("check --batch, per call (start-up excluded)", batch_per_call, float("nan")),
        ("Gate.evaluate 10 KiB command", statistics.median(long_times), pct(long_times, 0.99)),
    ]
    for name, a, b in rows:
        print(f"{name:42} {a / 1000:9.2f} {b / 1000:9.2f} {a / cedar_p50:12.2f}")


def _batch(commands: list[str], workspace: str, env: dict[str, str], policy_text: str, root: str) -> float:
    """Per-call cost of `check --batch`: (time for N lines - time for 1 line) / (N - 1)."""
    policy_file = os.path.join(root, "policy.toml")
    with open(policy_file, "w") as handle:
        handle.write(policy_text)
    lines = [json.dumps({"tool": "shell", "args": {"command": c}, "cwd": workspace}) for c in commands]
    full_env = {**os.environ, **env}
    exe = [
        sys.executable,
        "-m",
        "bastion.adapters.cli.main",
        "check",
        "--policy",
        policy_file,
        "--batch",
        "-",
    ]

    def run(payload: list[str]) -> float:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter_ns()
            subprocess.run(
                exe, input="\n".join(payload) + "\n", text=True, env=full_env, capture_output=True, check=True
            )
            best = min(best, time.perf_counter_ns() - start)
        return best

    many = lines * REPEAT
    return (run(many) - run(lines[:1])) / (len(many) - 1)


if __name__ == "__main__":
    main()
