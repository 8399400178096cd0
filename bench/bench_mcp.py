"""Added latency of ``bastion mcp proxy`` per tools/call: proxy vs direct, in the same run.

Run by hand:  .venv/bin/python bench/bench_mcp.py [CALLS] [GAP_MS]
The SDK client calls the test server's ``echo`` tool over stdio, first directly, then
through the proxy (an allow rule decides it, so nobody is asked; every call is audited to
the SQLite ledger with a synchronous commit). Target: < 2 ms p50 added. A bare synced
commit on the same disk is timed between the rounds: the decision's record must be durable
before the call is forwarded, so that commit is a floor no proxy code can remove (on these
shared machines it ranges from 0.2 to 5 ms). With PYTHONPATH set, the proxy runs that code.

Wall-clock figures swing with the load of a shared machine; the CPU time each side's
server process spends per call (read from /proc, Linux only) swings much less: the proxy's
minus the wrapped server's is the CPU the proxy adds to a call (some of it after the
answer is sent: the executed record).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parent.parent
NOTES = str(ROOT / "tests" / "adapters" / "mcp" / "notes_server.py")
BASTION = str(Path(sys.executable).parent / "bastion")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _server_pid() -> int | None:
    """The server process the client started: this process's child (Linux /proc)."""
    me = os.getpid()
    try:
        tasks = os.listdir(f"/proc/{me}/task")
    except OSError:
        return None
    children: list[int] = []
    for task in tasks:
        try:
            with open(f"/proc/{me}/task/{task}/children") as handle:
                children += [int(k) for k in handle.read().split()]
        except OSError:
            continue
    return children[-1] if len(children) == 1 else None


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid`` so far (0 when it cannot be read)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(
    params: StdioServerParameters, calls: int, gap: float = 0.0, cpu: list[float] | None = None
) -> list[float]:
    """Call latencies (ms); appends the server process's CPU per call (ms) to ``cpu``."""
    async with Client(params, mode="legacy", cache=None) as client:
        await client.list_tools()
        for _ in range(50):  # warm up
            await client.call_tool("echo", {"text": "hello"})
        pid = _server_pid()
        before = _cpu_seconds(pid) if pid else 0.0
        out = []
        for _ in range(calls):
            start = time.perf_counter()
            await client.call_tool("echo", {"text": "hello"})
            out.append((time.perf_counter() - start) * 1000)
            if gap:
                await anyio.sleep(gap)  # a model thinks between calls; not timed
        if pid and cpu is not None:
            cpu.append((_cpu_seconds(pid) - before) * 1000 / calls)
        return out


def synced_commits(folder: str, count: int = 300) -> list[float]:
    """Latency of one bare synced SQLite commit (ms) on the state dir's disk: the floor of
    a call whose decision must be durable before it is forwarded."""
    from bastion.audit.sqlite_db import open_db

    conn = open_db(os.path.join(folder, "commits.db"))
    conn.execute("CREATE TABLE IF NOT EXISTS t (a INTEGER PRIMARY KEY, b TEXT)")
    out = []
    for _ in range(count):
        start = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t (b) VALUES ('x')")
        conn.execute("COMMIT")
        out.append((time.perf_counter() - start) * 1000)
    conn.close()
    return out


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    gap = float(sys.argv[2]) / 1000 if len(sys.argv) > 2 else 0.0
    with tempfile.TemporaryDirectory() as tmp:
        # HOME beside the workspace, not inside it: a credentials dir under the readable root
        # is refused at start.
        work, home = Path(tmp, "work"), Path(tmp, "home")
        work.mkdir()
        home.mkdir()
        policy = Path(tmp, "policy.toml")
        policy.write_text('[[rule]]\ntool = "mcp"\npattern = "notes/echo"\naction = "allow"\n')
        env = {
            "HOME": str(home),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "BASTION_STATE_DIR": f"{tmp}/state",
        }
        if os.environ.get("PYTHONPATH"):  # the proxy runs the code under test (a worktree's src)
            env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        direct = StdioServerParameters(command=sys.executable, args=[NOTES], env=env, cwd=work)
        args = ["mcp", "proxy", "--policy", str(policy), "--name", "notes", "--", sys.executable, NOTES]
        proxied = StdioServerParameters(command=BASTION, args=args, env=env, cwd=work)
        rounds = []
        commits: list[float] = []
        cpu_direct: list[float] = []
        cpu_proxy: list[float] = []
        os.makedirs(f"{tmp}/state", exist_ok=True)
        for _ in range(2):  # interleaved, so a load change hits both sides
            rounds.append(
                (
                    anyio.run(measure, direct, calls // 2, gap, cpu_direct),
                    anyio.run(measure, proxied, calls // 2, gap, cpu_proxy),
                )
            )
            commits += synced_commits(f"{tmp}/state")
    plain = [v for d, _ in rounds for v in d]
    gated = [v for _, p in rounds for v in p]
    print(f"tools/call over stdio, {len(plain)} calls each, {gap * 1000:g} ms between calls (ms)")
    print(f"{'':10} {'p50':>8} {'p95':>8} {'p99':>8} {'mean':>8}")
    for label, values in (("direct", plain), ("proxy", gated)):
        print(
            f"{label:10} {pct(values, 0.5):8.3f} {pct(values, 0.95):8.3f} {pct(values, 0.99):8.3f} "
            f"{statistics.fmean(values):8.3f}"
        )
    print(
        f"{'commit':10} {pct(commits, 0.5):8.3f} {pct(commits, 0.95):8.3f} {pct(commits, 0.99):8.3f} "
        f"{statistics.fmean(commits):8.3f}   (one bare synced SQLite commit on the state dir's disk)"
    )
    added = pct(gated, 0.5) - pct(plain, 0.5)
    print(
        f"added p50: {added:.3f} ms (target < 2 ms); of which one synced commit (the decision's "
        f"record, durable before the call is forwarded): {pct(commits, 0.5):.3f} ms; the rest: "
        f"{added - pct(commits, 0.5):.3f} ms"
    )
    if cpu_direct and cpu_proxy:
        server, proxy = statistics.fmean(cpu_direct), statistics.fmean(cpu_proxy)
        print(
            f"server CPU per call: the server alone {server:.3f} ms, the proxy {proxy:.3f} ms "
            f"(the proxy adds {proxy - server:.3f} ms of CPU per call, not all of it before the answer)"
        )


if __name__ == "__main__":
    main()
