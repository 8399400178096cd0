"""End to end with the real Claude Code, offline: the model (served on loopback) starts a
subagent with the Agent tool, the subagent runs ``ls``; Bastion's hook decides the
subagent's call in a child session of the agent's session, linked to it in the ledger."""

from __future__ import annotations

import json
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from bastion.adapters.hooks.install import install
from bastion.configuration import load_configuration
from bastion.construct import open_gatekeeper
from tests.adapters.hooks.conftest import Sandbox, agent_cli
from tests.adapters.hooks.fake_models import _sse

MARKER = "BASTION-SUBAGENT-TASK"


def _text(body: dict[str, Any]) -> str:
    return json.dumps(body.get("messages") or [])


def _answer(body: dict[str, Any], seen: list[str]) -> bytes:
    """The main agent: start a subagent; the subagent (its prompt holds MARKER): run ls;
    any tool result, or a request without tools: end the turn."""
    messages = body.get("messages") or []
    last = messages[-1].get("content") if messages else None
    tools = {t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)}
    done = isinstance(last, list) and any(
        isinstance(b, dict) and b.get("type") == "tool_result" for b in last
    )
    if done or not tools:
        block: dict[str, Any] = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": "done"}
        stop = "end_turn"
    else:
        if MARKER in _text(body) and "Bash" in tools:
            name, arguments = "Bash", {"command": "ls", "description": "list files"}
        else:
            name = "Agent" if "Agent" in tools else "Task"
            arguments = {
                "description": "list files",
                "prompt": f"{MARKER}: list the files",
                "subagent_type": "general-purpose",
            }
        seen.append(name)
        block = {"type": "tool_use", "id": f"toolu_{len(seen)}", "name": name, "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(arguments)}
        stop = "tool_use"
    start = {
        "type": "message_start",
        "message": {
            "id": f"msg_{len(seen)}",
            "type": "message",
            "role": "assistant",
            "model": str(body.get("model", "m")),
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1},
        },
    }
    return _sse(
        [
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
    )


class ModelServer:
    def __init__(self) -> None:
        self.seen: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path.split("?")[0].endswith("/messages"):
                    data, kind = _answer(json.loads(raw or b"{}"), outer.seen), "text/event-stream"
                else:
                    data, kind = b'{"input_tokens": 10}', "application/json"
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> ModelServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(10)


def test_a_real_claude_subagents_call_is_decided_in_a_linked_child_session(sandbox: Sandbox) -> None:
    claude = agent_cli("claude")
    install("claude", scope="project", cwd=str(sandbox.project), env=sandbox.env(), out=lambda *_: None)
    settings = sandbox.project / ".claude" / "settings.json"
    with ModelServer() as server:
        done = subprocess.run(
            [
                claude,
                "-p",
                "do the task",
                "--settings",
                str(settings),
                "--output-format",
                "json",
                "--allowedTools",
                "Agent",
                "Task",
                "Bash",
            ],
            cwd=sandbox.project,
            capture_output=True,
            text=True,
            timeout=180,
            env=sandbox.env(
                ANTHROPIC_BASE_URL=f"http://127.0.0.1:{server.httpd.server_address[1]}",
                ANTHROPIC_API_KEY="sk-ant-dummy",
                CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
                DISABLE_AUTOUPDATER="1",
                BASTION_HOOK_AUTOSTART="0",
            ),
        )
    assert done.returncode == 0, done.stderr
    session = json.loads(done.stdout)["session_id"]
    assert server.seen[0] in ("Agent", "Task") and "Bash" in server.seen
    env = sandbox.env()
    _settle_as_the_next_call_would(sandbox, env)
    with open_gatekeeper(load_configuration(cwd=str(sandbox.project), env=env), env) as keeper:
        records = [
            (r.event.kind, r.event.tool, r.event.summary, r.event.parent, r.event.session)
            for r in keeper.ledger.events()
        ]
    decided = [r for r in records if r[0] == "decided"]
    assert decided and {(kind, tool, summary, parent) for kind, tool, summary, parent, _ in decided} == {
        ("decided", "shell", "shell: ls", session)
    }
    assert all(
        child.startswith(f"{session}/agent/") and child != f"{session}/agent/" for *_, child in decided
    )
    # The contained run (the prepared line the hook rewrote `ls` to) has its exit recorded.
    assert {r[:3] for r in records if r[0] != "decided"} == {("executed", "shell", "shell: ls")}


def _settle_as_the_next_call_would(sandbox: Sandbox, env: dict[str, str]) -> None:
    """A run's exit is recorded after it ends, by the daemon or the next hook call; this
    session made no later call, so the test settles it (once its sandbox has torn down)."""
    import time

    from bastion.construct import HOOK_OPTIONS
    from bastion.runtime.contain import settle_runs

    config = load_configuration(cwd=str(sandbox.project), env=env)
    deadline = time.monotonic() + 30
    with open_gatekeeper(config, env, options=HOOK_OPTIONS) as keeper:
        while not settle_runs(keeper) and time.monotonic() < deadline:
            time.sleep(0.05)
