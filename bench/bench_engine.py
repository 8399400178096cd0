"""Gate.evaluate per family, in-process, against baselines measured in the same run.

Run by hand:  .venv/bin/python bench/bench_engine.py
Targets (ratios, same run): a path decision <= 1.5x one os.path.realpath of that path;
a network decision on a literal address <= 10x a dict lookup.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable

from bastion import Gate, ToolCall, load_policy_text
from bastion.policy.network import StaticResolver

ROUNDS = 20_000


def timings(fn: Callable[[], object], rounds: int = ROUNDS) -> list[float]:
    for _ in range(200):
        fn()
    out = []
    clock = time.perf_counter_ns
    for _ in range(rounds):
        start = clock()
        fn()
        out.append(clock() - start)
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    root = tempfile.mkdtemp(prefix="bastion-bench-")
    workspace = os.path.join(root, "home", "proj")
    os.makedirs(os.path.join(workspace, "src", "pkg"))
    target = os.path.join(workspace, "src", "pkg", "module.py")
    open(target, "w").close()
    env = {"HOME": os.path.join(root, "home"), "BASTION_STATE_DIR": os.path.join(root, "state")}
    policy = load_policy_text(
        '[network]\nallow_hosts = ["pypi.org", "*.github.com"]\n', cwd=workspace, env=env
    )
    gate = Gate(policy, resolver=StaticResolver({"pypi.org": ["151.101.0.223"]}), sandboxed=True)
    table = {f"key{i}": i for i in range(1000)}

    def lookup() -> object:
        return table.get("key500")

    cases: dict[str, Callable[[], object]] = {
        "dict lookup (baseline)": lookup,
        "os.path.realpath (baseline)": lambda: os.path.realpath(target),
    }
    calls = {
        "read": ToolCall("read", {"path": target}, cwd=workspace),
        "write": ToolCall("write", {"path": "src/pkg/module.py"}, cwd=workspace),
        "fetch literal address": ToolCall("fetch", {"url": "http://10.0.0.7/"}, cwd=workspace),
        "fetch allowed host": ToolCall("fetch", {"url": "https://pypi.org/simple/"}, cwd=workspace),
        "code": ToolCall("code", {"language": "python", "source": "print(1)"}, cwd=workspace),
        "db": ToolCall("db", {"operation": "read", "target": "t"}, cwd=workspace),
        "mcp": ToolCall("mcp", {"server": "files", "tool": "read_file"}, cwd=workspace),
        "install": ToolCall("install", {"manager": "pip", "packages": ["requests"]}, cwd=workspace),
        "shell": ToolCall("shell", {"command": "git status && ls -la src | head"}, cwd=workspace),
    }
    for name, call in calls.items():
        cases[f"Gate.evaluate {name}"] = lambda call=call: gate.evaluate(call)
    results = {name: timings(fn) for name, fn in cases.items()}
    base = statistics.median(results["dict lookup (baseline)"])
    real = statistics.median(results["os.path.realpath (baseline)"])
    print(f"python {sys.version.split()[0]}, {ROUNDS} rounds each, times in microseconds")
    print(f"{'case':45} {'p50':>8} {'p99':>8} {'p50/dict':>9} {'p50/realpath':>13}")
    for name, values in results.items():
        p50, p99 = statistics.median(values), pct(values, 0.99)
        print(f"{name:45} {p50 / 1000:8.2f} {p99 / 1000:8.2f} {p50 / base:9.1f} {p50 / real:13.2f}")


if __name__ == "__main__":
    main()
