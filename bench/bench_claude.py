"""What the user feels (issue #30): the real Claude Code, driven offline by a model API on
loopback, times one Bash ``git status`` call from the API sending its ``tool_use`` to the
API receiving its ``tool_result``, in three setups in the same run.

    BASTION_AGENT_BIN_DIR=/var/cache/bastion-ci/npm/node_modules/.bin \\
        .venv/bin/python bench/bench_claude.py [--calls 20] [--rounds 3]

- plain: Claude Code as installed, ``--allowedTools Bash`` (no hook, no sandbox);
- native sandbox: Claude Code's own sandbox (``"sandbox": {"enabled": true, …}``: bwrap and
  socat, in process), the command auto-allowed because it runs sandboxed;
- bastion: Bastion's hook as ``bastion install claude`` writes it (``--autostart``), with
  its daemon warm (started by the warm-up session's first call, a process of its own),
  ``contain = "all"``: the decision, the containment stage (the run prepared) and the
  rewritten line (a bash that execs bwrap, no Python).

Each setup runs one ``claude -p`` session per round that makes ``--calls`` calls in turn
(the model API answers each ``tool_result`` with the next ``tool_use``); the rounds
interleave the setups so machine noise hits all alike. The first call of each session is
left out (the shell snapshot, the daemon's first policy load). A ``git status`` in a git
workspace of 50 files. Medians and p90 in ms, and each setup's median minus plain's.
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
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

COMMAND = "git status"
NATIVE = {
    "sandbox": {
        "enabled": True,
        "failIfUnavailable": True,
        "autoAllowBashIfSandboxed": True,
        "allowUnsandboxedCommands": False,
        "network": {"allowedDomains": []},
    }
}


class Session:
    """One ``claude -p`` session's script: ``calls`` tool uses, timed."""

    def __init__(self, calls: int, command: Callable[[], str] = lambda: COMMAND) -> None:
        self.calls = calls
        self.command = command
        self.sent: dict[str, float] = {}
        self.received: dict[str, float] = {}
        self.errors: list[str] = []
        self.requests = 0
        self.lock = threading.Lock()

    def answer(self, body: dict[str, Any], arrived: float) -> bytes:
        """The next ``tool_use`` when ``body`` is the main loop's turn (the first prompt, or
        the result of the last call); a short text for anything else (side requests)."""
        with self.lock:
            self.requests += 1
            results = _results(body)
            for use_id, content, is_error in results:
                self.received.setdefault(use_id, arrived)
                if is_error:
                    self.errors.append(content[:300])
            last = f"toolu_bench_{len(self.sent)}"
            messages = body.get("messages") or []
            first = not self.sent and not any(m.get("role") == "assistant" for m in messages)
            follows = bool(self.sent) and any(use_id == last for use_id, _, _ in results)
            if not body.get("tools") or len(self.sent) >= self.calls or not (first or follows):
                return _stream(body, {"type": "text", "text": ""}, {"type": "text_delta", "text": "done"},
                               "end_turn")  # fmt: skip
            use_id = f"toolu_bench_{len(self.sent) + 1}"
            self.sent[use_id] = 0.0  # set once the answer is written
        block = {"type": "tool_use", "id": use_id, "name": "Bash", "input": {}}
        arguments = {"command": self.command(), "description": "status"}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(arguments)}
        return _stream(body, block, delta, "tool_use", use_id)

    def latencies(self) -> list[float]:
        """ms from each tool_use sent to its tool_result received, the first left out."""
        ids = sorted(self.sent, key=lambda k: int(k.rsplit("_", 1)[1]))[1:]
        return [(self.received[k] - self.sent[k]) * 1000 for k in ids if k in self.received]


def _results(body: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """The tool results the agent sends back: in its messages after the model's last turn
    (Claude Code may put a system message after them)."""
    found = []
    for message in reversed(body.get("messages") or []):
        if message.get("role") == "assistant":
            break
        content = message.get("content")
        for block in content if isinstance(content, list) else ():
            if isinstance(block, dict) and block.get("type") == "tool_result":
                inner = block.get("content")
                if isinstance(inner, list):
                    inner = "\n".join(str(b.get("text", "")) for b in inner if isinstance(b, dict))
                found.append((str(block.get("tool_use_id")), str(inner), bool(block.get("is_error"))))
    return found


def _stream(body: dict[str, Any], block: dict[str, Any], delta: dict[str, Any], stop: str,
            tag: str = "") -> bytes:  # fmt: skip
    start = {"type": "message_start", "message": {
        "id": f"msg_{tag or time.time_ns()}", "type": "message", "role": "assistant",
        "model": str(body.get("model", "claude-test")), "content": [], "stop_reason": None,
        "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 1}}}  # fmt: skip
    events = [
        ("message_start", start),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events)


class ModelAPI:
    """The Anthropic Messages API on loopback, playing the current :class:`Session`."""

    def __init__(self) -> None:
        self.session = Session(0)
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                return

            def do_HEAD(self) -> None:
                self._send(b"", "text/plain")

            def do_GET(self) -> None:
                self._send(b'{"data":[]}', "application/json")

            def do_POST(self) -> None:
                arrived = time.perf_counter()
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    body = {}
                if "count_tokens" in self.path:
                    self._send(b'{"input_tokens":10}', "application/json")
                    return
                session = outer.session
                data = session.answer(body, arrived)
                self._send(data, "text/event-stream")
                tag = data.split(b'"id": "msg_', 1)[1].split(b'"', 1)[0].decode()
                if tag in session.sent:
                    session.sent[tag] = time.perf_counter()

            def _send(self, data: bytes, kind: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                self.wfile.flush()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"


def _claude() -> str:
    folder = os.environ.get("BASTION_AGENT_BIN_DIR", "/var/cache/bastion-ci/npm/node_modules/.bin")
    found = shutil.which("claude", path=folder)
    if found is None:
        raise SystemExit(f"claude not found in {folder} (set BASTION_AGENT_BIN_DIR)")
    return found


def _project(root: Path, name: str) -> tuple[Path, dict[str, str]]:
    home = root / name / "home"
    project = home / "proj"
    (project / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    for index in range(50):
        (project / "src" / f"m{index}.py").write_text("x = 1\n")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "BASTION_STATE_DIR": str(root / name / "state"),
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
        "ANTHROPIC_API_KEY": "sk-ant-dummy",
        **({"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}),
    }
    (project / ".claude").mkdir()
    return project, env


Setup = tuple[Path, dict[str, str], Callable[[], str]]


def setups(root: Path, breakdown: bool) -> dict[str, Setup]:
    """name -> (project, environment, the command the model sends)."""
    from bastion.adapters.hooks.install import install

    made: dict[str, Setup] = {}
    plain, env = _project(root, "plain")
    (plain / ".claude" / "settings.json").write_text("{}")
    made["plain"] = (plain, env, lambda: COMMAND)
    native, env = _project(root, "native")
    (native / ".claude" / "settings.json").write_text(json.dumps(NATIVE))
    made["native sandbox"] = (native, env, lambda: COMMAND)
    for name, contain in [("bastion", "all"), *([("hook, contain off", "off")] if breakdown else [])]:
        guarded, env = _project(root, name.split(",")[0] + contain)
        policy = Path(env["HOME"]) / ".config" / "bastion" / "policy.toml"
        policy.parent.mkdir(parents=True)
        policy.write_text(f'[exec]\ncontain = "{contain}"\n')
        install("claude", scope="project", cwd=str(guarded), env=env, out=lambda *_: None)
        made[name] = (guarded, {**env, "BASTION_HOOK_IDLE": "900"}, lambda: COMMAND)
    if breakdown:  # the model itself sends a line prepared here: the line's cost, no hook
        lined, env = _project(root, "line")
        (lined / ".claude" / "settings.json").write_text("{}")
        made["line, no hook"] = (lined, env, _line_maker(lined, env))
    return made


def _line_maker(project: Path, env: dict[str, str]) -> Callable[[], str]:
    from bastion.configuration import load_text
    from bastion.exec.prepared import PreparedRun, prepare
    from bastion.exec.profile import Filesystem, Profile

    config = load_text("", cwd=str(project), env=env)

    def make() -> str:
        run = prepare(config.policy, config.exec, Profile(Filesystem.READ_ONLY), cwd=str(project),
                      environ=env, settle_first=False)  # fmt: skip
        assert isinstance(run, PreparedRun), run
        return run.shell_command(COMMAND, 120)

    return make


def run_session(api: ModelAPI, setup: Setup, calls: int) -> Session:
    project, env, command = setup
    session = Session(calls, command)
    api.session = session
    argv = [_claude(), "-p", "do the task", "--settings", str(project / ".claude" / "settings.json"),
            "--output-format", "json", "--allowedTools", "Bash"]  # fmt: skip
    done = subprocess.run(argv, cwd=project, env={**env, "ANTHROPIC_BASE_URL": api.url},
                          capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)  # fmt: skip
    if done.returncode != 0 or len(session.received) < calls:
        raise SystemExit(f"claude failed ({done.returncode}, {len(session.received)} of {calls} results): "
                         f"{done.stderr[-1500:]} {done.stdout[-800:]}")  # fmt: skip
    return session


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--breakdown", action="store_true", help="also: the hook alone, the line alone")
    options = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bastion-bench-claude-"))
    made = setups(root, options.breakdown)
    api = ModelAPI()
    samples: dict[str, list[float]] = {name: [] for name in made}
    requests: dict[str, int] = dict.fromkeys(made, 0)
    outputs: dict[str, str] = {}
    try:
        for setup in made.values():  # warm-up: caches, the daemons' policies
            run_session(api, setup, 2)
        for _ in range(options.rounds):
            for name, setup in made.items():
                session = run_session(api, setup, options.calls)
                samples[name] += session.latencies()
                requests[name] += session.requests
                if session.errors:
                    outputs[name] = session.errors[-1]
    finally:
        from bastion.exec.prepared import runs_dir
        from bastion.exec.settle import STALE_SECONDS, settle

        for _, env, _ in made.values():
            state = Path(env["BASTION_STATE_DIR"])
            (state / "hooks.sock").unlink(missing_ok=True)  # a daemon sees its socket gone and ends
        ran = len(_executed(Path(made["bastion"][1]["BASTION_STATE_DIR"])))
        for _, env, _ in made.values():
            settle(runs_dir(env["BASTION_STATE_DIR"]), now=time.time() + 2 * STALE_SECONDS)
        api.httpd.shutdown()
        shutil.rmtree(root, ignore_errors=True)
    plain = statistics.median(samples["plain"])
    version = subprocess.run([_claude(), "--version"], capture_output=True, text=True).stdout.strip()
    what = f"{options.rounds} rounds x {options.calls} calls of {COMMAND!r}"
    print(f"claude {version}; {what} (the first call of each session left out)")
    print(f"{'setup':<18}{'n':>5}{'p50':>9}{'p90':>9}{'+ plain':>9}{'API calls':>11}")
    for name, values in samples.items():
        values.sort()
        p50, p90 = statistics.median(values), values[int(len(values) * 0.9)]
        calls = requests[name] / (options.rounds * options.calls)
        print(f"{name:<18}{len(values):>5}{p50:>9.1f}{p90:>9.1f}{p50 - plain:>+9.1f}{calls:>11.2f}")
    for name, text in outputs.items():
        print(f"{name}: a tool_result was an error: {text!r}")
    print(
        f"bastion: {ran} contained runs' exits recorded in the ledger; load average {os.getloadavg()[0]:.1f}"
    )


def _executed(state: Path) -> list[int | None]:
    """The exits of the contained runs the daemon recorded (``executed`` ledger events)."""
    from bastion.configuration import load_text
    from bastion.construct import open_gatekeeper

    env = {"HOME": str(state.parent / "home"), "BASTION_STATE_DIR": str(state)}
    with open_gatekeeper(load_text("", cwd=str(state), env=env), env) as keeper:
        return [r.event.exit_code for r in keeper.ledger.events() if r.event.kind == "executed"]


if __name__ == "__main__":
    sys.exit(main())
