"""Where a Bastion-guarded Claude Code Bash call spends its time (issue #30): a timeline.

    BASTION_AGENT_BIN_DIR=/var/cache/bastion-ci/npm/node_modules/.bin \\
        .venv/bin/python bench/bench_claude_trace.py [--calls 15]

The real Claude Code, driven offline by ``bench_claude``'s model API, with Bastion's hooks
installed as ``bastion install claude`` writes them, each hook command wrapped in ``date``
stamps (its start and end), and the model sending ``date +%s%N; git status`` (the command's
first word prints when it starts, inside the sandbox when contained). One session per
``[exec] contain`` setting (``all``, ``off``), the first call of each left out; the medians,
in ms after the ``tool_use`` was sent, of: the PreToolUse hook's start and end, the
command's start, the PostToolUse hook's start and end, and the ``tool_result``'s arrival.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import bench_claude as bc

COMMAND = "date +%s%N; git status"
_STAMP = re.compile(r"\s*(\d{18,20})\n")


class Traced(bc.Session):
    """A session that keeps each tool result's text and arrival (``perf_counter``)."""

    def __init__(self, calls: int) -> None:
        super().__init__(calls, lambda: COMMAND)
        self.results: dict[str, tuple[str, float]] = {}

    def answer(self, body: dict[str, Any], arrived: float) -> bytes:
        for use_id, content, _ in bc._results(body):
            self.results.setdefault(use_id, (content, arrived))
        return super().answer(body, arrived)


def _stamped(settings: Path, log: Path) -> None:
    """Wrap every hook command in ``date`` stamps appended to ``log`` (its exit kept)."""
    doc = json.loads(settings.read_text())
    for event, groups in doc["hooks"].items():
        for group in groups:
            for hook in group["hooks"]:
                inner = hook["command"]
                hook["command"] = (f"echo {event} start $(date +%s%N) >> {log}; {inner}; r=$?; "
                                   f"echo {event} end $(date +%s%N) >> {log}; exit $r")  # fmt: skip
    settings.write_text(json.dumps(doc))


def trace(root: Path, contain: str, calls: int, api: bc.ModelAPI) -> list[float]:
    from bastion.adapters.hooks.install import install

    project, env = bc._project(root, f"trace-{contain}")
    policy = Path(env["HOME"]) / ".config" / "bastion" / "policy.toml"
    policy.parent.mkdir(parents=True)
    policy.write_text(f'[exec]\ncontain = "{contain}"\n')
    install("claude", scope="project", cwd=str(project), env=env, out=lambda *_: None)
    log = root / f"hooks-{contain}.log"
    _stamped(project / ".claude" / "settings.json", log)
    env = {**env, "BASTION_HOOK_IDLE": "900"}
    bc.run_session(api, (project, env, lambda: COMMAND), 2)  # warm: the daemon, the caches
    log.unlink(missing_ok=True)
    session = Traced(calls)
    api.session = session
    argv = [bc._claude(), "-p", "do the task", "--settings", str(project / ".claude" / "settings.json"),
            "--output-format", "json", "--allowedTools", "Bash"]  # fmt: skip
    offset = time.time_ns() - time.perf_counter_ns()  # wall clock = perf_counter + offset
    subprocess.run(argv, cwd=project, env={**env, "ANTHROPIC_BASE_URL": api.url}, capture_output=True,
                   text=True, timeout=600, stdin=subprocess.DEVNULL, check=True)  # fmt: skip
    (Path(env["BASTION_STATE_DIR"]) / "hooks.sock").unlink(missing_ok=True)  # the daemon ends
    stamps = [(w[0], w[1], int(w[2])) for w in (line.split() for line in log.read_text().splitlines())]
    rows = []
    for use_id in sorted(session.sent, key=lambda k: int(k.rsplit("_", 1)[1]))[1:]:
        sent = int(session.sent[use_id] * 1e9) + offset
        text, arrived = session.results[use_id]
        received = int(arrived * 1e9) + offset
        started = _STAMP.match(text)
        if started is None:
            raise SystemExit(f"no start stamp in the tool result: {text[:300]!r}")
        hooks = [
            t for event, _, t in stamps if event in ("PreToolUse", "PostToolUse") and sent <= t <= received
        ]
        if len(hooks) != 4:
            raise SystemExit(f"expected a PreToolUse and a PostToolUse hook per call, got {len(hooks) // 2}")
        points = [*hooks[:2], int(started.group(1)), *hooks[2:], received]
        rows.append([(t - sent) / 1e6 for t in points])
    return [statistics.median(column) for column in zip(*rows, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=15)
    options = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bastion-bench-trace-"))
    api = bc.ModelAPI()
    try:
        medians = {contain: trace(root, contain, options.calls, api) for contain in ("all", "off")}
    finally:
        from bastion.exec.prepared import runs_dir
        from bastion.exec.settle import STALE_SECONDS, settle

        api.httpd.shutdown()
        for state in root.glob("*/state"):  # the last runs' cgroups, which no later call settles
            settle(runs_dir(str(state)), now=time.time() + 2 * STALE_SECONDS)
        shutil.rmtree(root, ignore_errors=True)
    print(f"median ms after the tool_use, {options.calls - 1} calls each")
    heads = ("pre start", "pre end", "command", "post start", "post end", "result")
    print(f"{'contain':<9}" + "".join(f"{h:>11}" for h in heads))
    for contain, values in medians.items():
        print(f"{contain:<9}" + "".join(f"{v:>11.1f}" for v in values))


if __name__ == "__main__":
    main()
