"""Full shell-call decisions (parse + classify + policy) against fair baselines, same run.

Run by hand:  .venv/bin/python bench/bench_shell_decision.py [--profile]

Baselines (issue #17): cedarpy on a *pre-parsed* ``PolicySet`` and ``Entities`` (parsing the
policy text on every call would flatter us), and a dict lookup. Our figures are taken on
*unique* command strings (a fresh gate, every string different, as in a real agent session, so
the per-gate parse cache and the replay of repeated calls never hit) and, separately, on
repeated strings: replayed (the gate re-asks the file system and returns the earlier decision),
and with the replay off (the parse cached, the policy deciding afresh).
``check --batch`` is measured by the slope between a 300- and a 2,300-call batch of unique
commands, so interpreter start-up and policy loading cancel out; JSON in and out included.

Targets: unique in-process p50 <= 1.0x cedarpy p50, p99 <= 100 us; batch slope <= 1.5x;
a 10 KiB command of ~480 simple commands < 5 ms. The 10 KiB figure is given twice: one command
repeated (as the issue's case), and different agent commands joined (no repetition to reuse).
"""

from __future__ import annotations

import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time

import cedarpy

from bastion import Gate, ToolCall, load_policy_text
from bastion.policy.network import StaticResolver
from bastion.shell.analysis import analyze

sys.path.insert(0, os.path.dirname(__file__))
from agent_commands import corpus, unique_corpus

SMALL_BATCH, LARGE_BATCH = 300, 2300
POLICY_TEXT = (
    '[commands]\nallow = ["pytest *", "npm test", "make test"]\n[network]\nallow_hosts = ["pypi.org"]\n'
)
CEDAR_POLICIES = """
permit(principal, action == Action::"run", resource) when { resource.reader };
permit(principal == User::"agent", action == Action::"run", resource == Command::"pytest");
permit(principal == User::"agent", action == Action::"run", resource == Command::"npm-test");
forbid(principal, action == Action::"run", resource) when { resource.credentials };
forbid(principal, action == Action::"write", resource) when { resource.system };
permit(principal, action == Action::"fetch", resource == Host::"pypi.org");
"""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _workspace() -> tuple[str, dict[str, str], str]:
    root = tempfile.mkdtemp(prefix="bastion-bench-")
    workspace = os.path.join(root, "home", "proj")
    for d in ("src/lib", "src/bastion", "tests", "docs", "build"):
        os.makedirs(os.path.join(workspace, d), exist_ok=True)
    for f in ("README.md", "src/app.py", "src/bastion/cli.py", "tests/test_app.py", "package.json"):
        with open(os.path.join(workspace, f), "w") as handle:
            handle.write("x\n")
    env = {"HOME": os.path.join(root, "home"), "BASTION_STATE_DIR": os.path.join(root, "state")}
    return workspace, env, root


def _gate(workspace: str, env: dict[str, str], *, replay: bool = True) -> Gate:
    policy = load_policy_text(POLICY_TEXT, cwd=workspace, env=env)
    return Gate(policy, resolver=StaticResolver({}), sandboxed=True, replay=replay)


def _timed(gate: Gate, calls: list[ToolCall]) -> list[float]:
    clock = time.perf_counter_ns
    out: list[float] = []
    for call in calls:
        start = clock()
        gate.evaluate(call)
        out.append(clock() - start)
    return out


def _cedar(n: int) -> list[float]:
    policies = cedarpy.PolicySet.from_str(CEDAR_POLICIES)
    entities = cedarpy.Entities.from_json_str(
        json.dumps(
            [
                {"uid": {"type": "User", "id": "agent"}, "attrs": {}, "parents": []},
                *(
                    {
                        "uid": {"type": "Command", "id": f"c{i}"},
                        "attrs": {"reader": i % 3 == 0, "credentials": i % 7 == 0, "system": False},
                        "parents": [],
                    }
                    for i in range(64)
                ),
            ]
        )
    )
    requests = [
        {
            "principal": 'User::"agent"',
            "action": 'Action::"run"',
            "resource": f'Command::"c{i % 64}"',
            "context": {},
        }
        for i in range(n)
    ]
    for request in requests[:200]:
        cedarpy.is_authorized(request, policies, entities)
    clock = time.perf_counter_ns
    out: list[float] = []
    for request in requests:
        start = clock()
        cedarpy.is_authorized(request, policies, entities)
        out.append(clock() - start)
    return out


def _batch_slope(commands: list[str], workspace: str, env: dict[str, str], root: str) -> float:
    """Per-call cost of `check --batch`: (t(2,300 lines) - t(300 lines)) / 2,000, best of 3."""
    policy_file = os.path.join(root, "policy.toml")
    with open(policy_file, "w") as handle:
        handle.write(POLICY_TEXT)
    lines = [json.dumps({"tool": "shell", "args": {"command": c}, "cwd": workspace}) for c in commands]
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
    full_env = {**os.environ, **env}

    def run(payload: list[str]) -> float:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter_ns()
            subprocess.run(
                exe,
                input="\n".join(payload) + "\n",
                text=True,
                env=full_env,
                capture_output=True,
                check=False,
            )
            best = min(best, time.perf_counter_ns() - start)
        return best

    small = lines[:SMALL_BATCH]
    return (run(lines[:LARGE_BATCH]) - run(small)) / (LARGE_BATCH - SMALL_BATCH)


def _long_times(workspace: str, env: dict[str, str], commands: list[str]) -> list[float]:
    gate = _gate(workspace, env)
    out: list[float] = []
    for command in commands:
        call = ToolCall("shell", {"command": command}, cwd=workspace)
        start = time.perf_counter_ns()
        gate.evaluate(call)
        out.append(time.perf_counter_ns() - start)
    return out


def _distinct_10k(commands: list[str]) -> str:
    """Unique agent commands joined with ``; `` up to 10 KiB (whole commands only)."""
    out: list[str] = []
    size = 0
    for command in commands:
        if size + len(command) + 2 > 10240:
            break
        out.append(command)
        size += len(command) + 2
    return "; ".join(out)


def _profile(gate: Gate, calls: list[ToolCall]) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    for call in calls:
        gate.evaluate(call)
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(25)


def main() -> None:
    workspace, env, root = _workspace()
    unique = unique_corpus(LARGE_BATCH)
    calls = [ToolCall("shell", {"command": c}, cwd=workspace, interactive=True) for c in unique]
    if "--profile" in sys.argv:
        _profile(_gate(workspace, env), calls)
        return
    cold = _timed(_gate(workspace, env), calls)  # a fresh gate: every string seen once
    repeated = [ToolCall("shell", {"command": c}, cwd=workspace, interactive=True) for c in corpus()]
    warm_gate = _gate(workspace, env)
    _timed(warm_gate, repeated)
    warm = _timed(warm_gate, repeated)
    # The same, with the replay of repeated calls off: the parse is cached, the policy decides.
    fresh_gate = _gate(workspace, env, replay=False)
    _timed(fresh_gate, repeated)
    no_replay = _timed(fresh_gate, repeated)
    # More detail (the same unique strings, nothing else changes): the classifier alone,
    # parse + walk + classify, so the policy's share is the difference.
    clock = time.perf_counter_ns
    classify_only: list[float] = []
    for command in unique:
        start = clock()
        analyze(command)
        classify_only.append(clock() - start)
    cedar = _cedar(len(calls))
    table = {f"k{i}": i for i in range(1000)}
    base: list[float] = []
    for _ in range(len(calls)):
        start = time.perf_counter_ns()
        table.get("k500")
        base.append(time.perf_counter_ns() - start)
    long_command = "; ".join(["grep -rn TODO src | head -5"] * 400)[:10240]
    long_times = _long_times(workspace, env, [f"{long_command} #{i}" for i in range(20)])
    # The same size made of different commands: a memo of repeated commands does not help it.
    distinct = [_distinct_10k(unique[i * 7 :]) for i in range(20)]
    distinct_times = _long_times(workspace, env, distinct)
    slope = _batch_slope(unique, workspace, env, root)

    cedar_p50 = statistics.median(cedar)
    print(f"python {sys.version.split()[0]}; {len(calls)} unique commands; times in microseconds")
    print(f"{'case':46} {'p50':>9} {'p99':>9} {'p50/cedarpy':>12}")
    rows = [
        ("dict lookup (baseline)", statistics.median(base), pct(base, 0.99)),
        ("cedarpy is_authorized, pre-parsed PolicySet", cedar_p50, pct(cedar, 0.99)),
        ("Gate.evaluate shell, unique commands", statistics.median(cold), pct(cold, 0.99)),
        (
            "  of which analyze (parse+walk+classify)",
            statistics.median(classify_only),
            pct(classify_only, 0.99),
        ),
        ("Gate.evaluate shell, repeated (replayed)", statistics.median(warm), pct(warm, 0.99)),
        ("  repeated, replay off (parse cached)", statistics.median(no_replay), pct(no_replay, 0.99)),
        ("check --batch per call (slope 300 -> 2,300)", slope, float("nan")),
        (
            f"Gate.evaluate 10 KiB ({2 * (long_command.count(';') + 1)} simple commands)",
            statistics.median(long_times),
            pct(long_times, 0.99),
        ),
        (
            f"Gate.evaluate 10 KiB, distinct ({distinct[0].count('; ') + 1} commands)",
            statistics.median(distinct_times),
            pct(distinct_times, 0.99),
        ),
    ]
    for name, a, b in rows:
        print(f"{name:46} {a / 1000:9.2f} {b / 1000:9.2f} {a / cedar_p50:12.2f}")


if __name__ == "__main__":
    main()
