"""Round trip of ``bastion hook claude`` for a Bash call vs ``python -c pass`` (same
interpreter, same run, interleaved so machine noise hits both alike). The hook's answer
includes the containment stage: an allowed call's run is prepared (bwrap's argv, seccomp
program, cgroups) before the answer, as every installed hook does.

    .venv/bin/python bench/bench_hook.py [--runs 40]

The hook runs with a throwaway HOME and state dir; the first call fills the compiled-policy
cache and is reported apart (cold); the rest read it (warm). The installed hook is what
``bastion install`` writes (this interpreter with ``-S`` on ``bastion/adapters/hooks/fastpath.py``),
timed bare and through its ``sh -c '… || exit 2'``. Results go to BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bastion.adapters.hooks.targets import hook_command, hook_launcher


def timed(
    argv: list[str], stdin: bytes, env: dict[str, str]
) -> tuple[float, subprocess.CompletedProcess[bytes]]:
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, env=env)
    return time.perf_counter() - start, done


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--command", default="git status")
    options = parser.parse_args()
    bastion = str(Path(sys.executable).parent / "bastion")
    root = Path(tempfile.mkdtemp(prefix="bastion-bench-"))
    try:
        project = root / "home" / "proj"
        project.mkdir(parents=True)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(root / "home"),
            "BASTION_STATE_DIR": str(root / "state"),
            "CLAUDE_CODE_ENTRYPOINT": "sdk-cli",
            **({"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}),
        }
        stdin = json.dumps(
            {
                "session_id": "bench",
                "cwd": str(project),
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": options.command},
                "tool_use_id": "toolu_bench",
            }
        ).encode()
        hook = [bastion, "hook", "claude"]
        local_env = {**env, "BASTION_HOOK_NO_DAEMON": "1"}
        cold, first = timed(hook, stdin, local_env)
        assert first.returncode == 0, first.stdout + first.stderr
        # The resident daemon's hook socket (what `bastion serve` starts), in this process.
        from bastion.adapters.hooks.daemon import start_hook_server, stop_hook_server

        server = start_hook_server(env)
        base: list[float] = []
        warm: list[float] = []
        daemon: list[float] = []
        try:
            for _ in range(options.runs):
                base.append(timed([sys.executable, "-c", "pass"], b"", env)[0])
                warm.append(timed(hook, stdin, local_env)[0])
                daemon.append(timed(hook, stdin, env)[0])
        finally:
            stop_hook_server(server)
        b, w, d = statistics.median(base), statistics.median(warm), statistics.median(daemon)
        print(f"python -c pass             median {b * 1000:7.1f} ms  (min {min(base) * 1000:.1f})")
        print(
            f"hook, no daemon            median {w * 1000:7.1f} ms  (min {min(warm) * 1000:.1f})  "
            f"cold first call {cold * 1000:.1f} ms  ratio {w / b:.2f}x"
        )
        print(
            f"hook, via daemon socket    median {d * 1000:7.1f} ms  (min {min(daemon) * 1000:.1f})  "
            f"ratio {d / b:.2f}x"
        )
        # What `bastion install` writes: this interpreter without site on the launcher, in
        # `sh -c '… || exit 2'`; timed bare (as the rows above) and as the agent runs it.
        launcher = [*hook_launcher(), "hook", "claude", "--autostart"]
        installed = ["sh", "-c", hook_command("claude", hook_launcher(), timeout=60)]
        auto_first, auto, via_sh = _autostarted(launcher, installed, stdin, env, root, options.runs)
        a, s = statistics.median(auto), statistics.median(via_sh)
        print(
            f"installed hook, autostart  median {a * 1000:7.1f} ms  "
            f"ratio {a / b:.2f}x; first call {auto_first * 1000:.1f} ms = "
            f"{auto_first / cold:.2f}x the cold in-process call, {auto_first / w:.2f}x a warm one"
        )
        print(f"  the same, through sh -c  median {s * 1000:7.1f} ms  ratio {s / b:.2f}x")
        print(
            f"runs={options.runs} command={options.command!r}; answer: {first.stdout.decode().strip()[:300]}"
        )
    finally:
        _settle_all(root)
        shutil.rmtree(root, ignore_errors=True)


def _settle_all(root: Path) -> None:
    """Each allowed call's answer prepared a contained run (its cgroups made) that nobody
    runs here: settle them all now rather than in a day."""
    from bastion.exec.prepared import runs_dir
    from bastion.exec.settle import STALE_SECONDS, settle

    for state in ("state", "auto-state"):
        settle(runs_dir(str(root / state)), now=time.time() + 2 * STALE_SECONDS)


def _autostarted(
    argv: list[str], installed: list[str], stdin: bytes, env: dict[str, str], root: Path, runs: int
) -> tuple[float, list[float], list[float]]:
    """The installed hook (``--autostart``) on a fresh state dir: its first call (decided in
    process while it spawns the daemon), then ``runs`` calls of ``argv`` and of the whole
    ``installed`` command line, in turn, once the daemon answers."""
    state = root / "auto-state"
    auto_env = {**env, "BASTION_STATE_DIR": str(state), "BASTION_HOOK_IDLE": "60"}
    first, done = timed(argv, stdin, auto_env)
    assert done.returncode == 0, done.stdout + done.stderr
    deadline = time.monotonic() + 30
    while not (state / "hooks.sock").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    times: list[float] = []
    via_sh: list[float] = []
    for _ in range(runs):
        times.append(timed(argv, stdin, auto_env)[0])
        via_sh.append(timed(installed, stdin, auto_env)[0])
    (state / "hooks.sock").unlink()  # the daemon sees its socket gone and ends
    return first, times, via_sh


if __name__ == "__main__":
    main()
