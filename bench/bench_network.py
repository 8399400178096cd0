"""Network decision cost vs a pure-Python dict lookup, measured in the same run.

    .venv/bin/python bench/bench_network.py

Each sample times a batch of calls with perf_counter_ns and divides by the batch size, so
timer overhead does not dominate; p50/p99 are over the samples. "repeat" decides the same
text again (the steady state of an agent fetching from one host: served by the per-rules
memo); "cold" decides a never-seen text each time (full parse + classification).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from bastion.policy.network import NetworkRules, decide_target

SAMPLES = 300
BATCH = 200

RULES = NetworkRules(allow_hosts=("pypi.org", "*.github.com"), deny_hosts=("evil.example",))
TABLE = {f"key{i}": i for i in range(1000)}


def lookup(key: str) -> int:
    return TABLE[key]


def measure(call: Callable[[int], object]) -> tuple[float, float]:
    """(p50, p99) nanoseconds per call; ``call`` receives a running index."""
    per_call: list[float] = []
    index = 0
    for _ in range(SAMPLES):
        start = time.perf_counter_ns()
        for _ in range(BATCH):
            call(index)
            index += 1
        per_call.append((time.perf_counter_ns() - start) / BATCH)
    per_call.sort()
    return statistics.median(per_call), per_call[int(len(per_call) * 0.99) - 1]


def main() -> None:
    cold_texts = [f"http://10.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}/" for i in range(70_000)]
    cold_names = [f"https://h{i}.github.com/" for i in range(70_000)]
    cases: dict[str, Callable[[int], object]] = {
        "dict lookup (baseline)": lambda i: lookup("key7"),
        "literal address, repeat": lambda i: decide_target("http://10.0.0.1/", RULES, None),
        "literal address, cold": lambda i: decide_target(cold_texts[i], RULES, None),
        "allowed name, repeat": lambda i: decide_target("https://pypi.org/", RULES, None),
        "allowed name, cold": lambda i: decide_target(cold_names[i], RULES, None),
    }
    base = 0.0
    print(f"{'case':28} {'p50 ns':>9} {'p99 ns':>9} {'p50 / dict':>11}")
    for name, call in cases.items():
        p50, p99 = measure(call)
        base = base or p50
        print(f"{name:28} {p50:9.0f} {p99:9.0f} {p50 / base:10.1f}x")


if __name__ == "__main__":
    main()
