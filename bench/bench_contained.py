"""Wall time of one contained call as the agent's shell runs it (issue #30, item 5), same run.

    .venv/bin/python bench/bench_contained.py [RUNS] [--floor]

The call is ``git status`` in a small git workspace (200 files), run by ``bash -c LINE``
as an agent's shell would, RUNS times each (default 50), interleaved so machine noise
hits all alike. Variants, min, median and p90 wall ms, and ratios to the bare bwrap run
(of the medians, and of the minimums):

- bare: ``git status`` itself
- bare bwrap: ``bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all
  --die-with-parent bash -c 'git status'`` (bubblewrap's floor, no Bastion sandbox)
- hook's line: the command exactly as Bastion's Claude Code hook rewrites the call (the
  hook's decider in this process, containment stage included: ``updatedInput.command``) -
  Bastion's whole sandbox (mount plan, seccomp, cgroups, timeout, nice), started by a bash
  launcher, no Python; the hook runs before the timer (its round trip is
  ``bench/bench_hook.py``'s, and its time here is reported apart)
- bastion argv: the same bwrap argv (mounts, namespaces, seccomp, nice) run bare - no
  launcher, no cgroups, no timeout, no status file: the floor of Bastion's sandbox itself
- sandbox run: today's rewritten line, ``bastion sandbox run --profile read-only --cwd D
  --timeout 120 -- bash -c 'git status'`` (Python, the runner, the ledger record)
- srt: Anthropic's sandbox-runtime CLI (``srt -c 'git status'``), when ``SRT`` names its
  binary (npm ``@anthropic-ai/sandbox-runtime@0.0.83``; it needs socat)

``--floor`` instead breaks Bastion's bwrap argv down (command ``true``): the argv, without
the /etc allow-list (its directories' binds and its files' copies), without ``nice``,
beside the bare bwrap line. The argv's copied files (``--file FD``) and seccomp program are
opened by the line's redirections, as the launcher opens them.
"""

from __future__ import annotations

import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from bastion.configuration import load_text
from bastion.exec.prepared import SECCOMP_FD, PreparedRun, prepare, runs_dir
from bastion.exec.profile import Filesystem, Profile
from bastion.exec.settle import STALE_SECONDS, settle

COMMAND = "git status"
BARE_BWRAP = (
    "bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all --die-with-parent bash -c 'git status'"
)


def _workspace(root: str) -> str:
    workspace = os.path.join(root, "proj")
    os.makedirs(os.path.join(workspace, "src"))
    subprocess.run(["git", "init", "-q", workspace], check=True)
    for index in range(200):
        with open(os.path.join(workspace, "src", f"m{index}.py"), "w") as handle:
            handle.write("x = 1\n")
    return workspace


def main(runs: int, floor_only: bool) -> None:
    root = tempfile.mkdtemp(prefix="bastion-bench-contained-")
    try:
        measure(runs, root, floor_only)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def measure(runs: int, root: str, floor_only: bool) -> None:
    workspace = _workspace(root)
    env = {"HOME": root, "BASTION_STATE_DIR": os.path.join(root, "state"), "PATH": os.environ["PATH"]}
    config = load_text("", cwd=workspace, env=env)
    profile = Profile(Filesystem.READ_ONLY)
    bastion = os.path.join(os.path.dirname(sys.executable), "bastion")
    cli = [bastion, "sandbox", "run", *profile.argv(), "--cwd", workspace, "--timeout", "120"]
    sandbox_run = shlex.join([*cli, "--", "bash", "-c", COMMAND])
    prepare_ms: list[float] = []

    def prepared_line() -> str:
        start = time.perf_counter()
        line = _hook_line(workspace, env)
        prepare_ms.append((time.perf_counter() - start) * 1000)
        return line

    def prepared() -> PreparedRun:
        run = prepare(config.policy, config.exec, profile, cwd=workspace, environ=env, timeout=120)
        assert isinstance(run, PreparedRun), run
        return run

    def argv_line() -> str:
        run = prepared()
        return f"{shlex.join([*run.argv, COMMAND])} {_descriptors(run)}"

    lines = _floor_lines(prepared()) if floor_only else _call_lines(prepared_line, argv_line, sandbox_run)
    try:
        run_lines(lines, runs, workspace, env, "true" if floor_only else COMMAND)
    finally:  # lines made but not run through the launcher: their cgroups go now
        settle(runs_dir(env["BASTION_STATE_DIR"]), now=time.time() + 2 * STALE_SECONDS)
    if not floor_only:
        hook = statistics.median(prepare_ms)
        print(
            f"the hook's decision and containment stage, in this process: p50 {hook:.1f} ms (not in the line)"
        )


def _hook_line(workspace: str, env: dict[str, str]) -> str:
    """The command Bastion's Claude Code hook answers with for ``git status`` (in process)."""
    from bastion.adapters.hooks.decide import LocalDecider, Options
    from bastion.adapters.hooks.entry import protocol_for

    protocol = protocol_for("claude")
    payload = {"session_id": "bench", "cwd": workspace, "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": COMMAND}, "tool_use_id": "toolu_bench"}  # fmt: skip
    hook_env = {**env, "CLAUDE_CODE_ENTRYPOINT": "sdk-cli"}
    verdict = LocalDecider().decide(protocol.parse(payload, hook_env), protocol, Options(env=hook_env))
    assert verdict.decision == "allow" and verdict.updated_input is not None, verdict
    line = str(verdict.updated_input["command"])
    assert line.startswith("/usr/bin/bash -p -c '# bastion: contained run"), line[:200]
    return line


def _floor_lines(run: PreparedRun) -> dict[str, Callable[[], str]]:
    """Bastion's bwrap argv running ``true``, then without parts of it."""
    words = [*run.argv, "true"]
    redirect = _descriptors(run)
    no_etc, index = [], 0
    while index < len(words):
        if words[index] == "--ro-bind" and words[index + 1].startswith("/etc/"):
            index += 3
            continue
        if words[index] == "--perms" and words[index + 2] == "--file":  # a copied /etc file
            index += 5
            continue
        no_etc.append(words[index])
        index += 1
    inside = words.index("--", words.index("--chdir"))
    assert words[inside + 1 : inside + 4] == ["/usr/bin/nice", "-n", "10"], words[inside:]
    no_nice = [*words[: inside + 1], *words[inside + 4 :]]
    return {
        "bare bwrap": lambda: BARE_BWRAP.replace("'git status'", "true"),
        "bastion argv": lambda: f"{shlex.join(words)} {redirect}",
        "without /etc": lambda: f"{shlex.join(no_etc)} {redirect}",
        "without nice": lambda: f"{shlex.join(no_nice)} {redirect}",
    }


def _descriptors(run: PreparedRun) -> str:
    """The redirections that give bwrap its seccomp program and the files it copies in
    (``--file FD PATH``: the host's PATH), as the launcher opens them."""
    opens = [f"{SECCOMP_FD}<{shlex.quote(run.seccomp_path or '')}"]
    words = run.argv
    opens += [f"{words[i + 1]}<{shlex.quote(words[i + 2])}" for i, w in enumerate(words) if w == "--file"]
    return " ".join(opens)


def _call_lines(
    prepared_line: Callable[[], str], argv_line: Callable[[], str], sandbox_run: str
) -> dict[str, Callable[[], str]]:
    lines: dict[str, Callable[[], str]] = {
        "bare": lambda: COMMAND,
        "bare bwrap": lambda: BARE_BWRAP,
        "hook's line": prepared_line,
        "bastion argv": argv_line,
        "sandbox run": lambda: sandbox_run,
    }
    srt = os.environ.get("SRT")
    if srt and os.access(srt, os.X_OK):
        lines["srt"] = lambda: shlex.join([srt, "-c", COMMAND])
    else:
        print("srt: not measured (set SRT to the srt binary; npm @anthropic-ai/sandbox-runtime@0.0.83)")
    return lines


def run_lines(
    lines: dict[str, Callable[[], str]], runs: int, workspace: str, env: dict[str, str], what: str
) -> None:

    def shell(line: str) -> float:
        start = time.perf_counter()
        done = subprocess.run(["bash", "-c", line], cwd=workspace, env=env, capture_output=True, check=False)
        elapsed = (time.perf_counter() - start) * 1000
        if done.returncode != 0:
            raise SystemExit(f"failed ({done.returncode}): {line[:200]}\n{done.stderr.decode()[-2000:]}")
        return elapsed

    for make in lines.values():  # warm-up: policy cache, probes, page cache
        shell(make())
    timings: dict[str, list[float]] = {name: [] for name in lines}
    for _ in range(runs):
        for name, make in lines.items():
            timings[name].append(shell(make()))
    floor = statistics.median(timings["bare bwrap"])
    print(f"{runs} runs each, interleaved; wall ms of `bash -c LINE` for {what!r}")
    # min: the least disturbed run, near what an idle machine gives on a loaded one
    print(f"{'variant':<14}{'min':>9}{'p50':>9}{'p90':>9}{'x bwrap':>9}{'min x':>9}")
    least = min(timings["bare bwrap"])
    for name, samples in timings.items():
        samples.sort()
        p50, p90 = statistics.median(samples), samples[int(len(samples) * 0.9)]
        print(
            f"{name:<14}{samples[0]:>9.1f}{p50:>9.1f}{p90:>9.1f}{p50 / floor:>9.2f}{samples[0] / least:>9.2f}"
        )


if __name__ == "__main__":
    numbers = [a for a in sys.argv[1:] if a.isdigit()]
    main(int(numbers[0]) if numbers else 50, "--floor" in sys.argv[1:])
