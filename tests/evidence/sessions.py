"""Scripted multi-call sessions with the real agent CLIs (Claude Code, Codex), offline.

A loopback model plays a list of tool calls, one per turn: each time the agent sends a
tool result back, the next call is asked for; after the last one the turn ends with
"done". Bastion is installed as the agent's hook (``bastion install AGENT``), so every
call is decided live and written to Bastion's ledger, while the agent writes its own
transcript (Claude Code: ``~/.claude/projects/…/SESSION.jsonl``; Codex:
``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-….jsonl``). ``bastion replay`` must reach the
same decisions from that transcript. Used by tests/evidence/test_replay_agents.py and by
tests/evidence/make_fixtures.py (which checks in the ≥30-call sessions).
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bastion.adapters.hooks.install import install
from tests.adapters.hooks.conftest import Sandbox, agent_cli
from tests.adapters.hooks.fake_models import _sse

AGENT_TIMEOUT = 600


@dataclass
class Session:
    """The calls to ask for, in order, and what the agent sent back for each."""

    calls: list[tuple[str, dict[str, Any]]]
    asked: int = 0
    results: list[str] = field(default_factory=list)
    tools_seen: list[str] = field(default_factory=list)

    def next_call(self) -> tuple[str, dict[str, Any]] | None:
        if self.asked >= len(self.calls):
            return None
        self.asked += 1
        return self.calls[self.asked - 1]


def _anthropic(session: Session, body: dict[str, Any]) -> bytes:
    start = {
        "type": "message_start",
        "message": {
            "id": f"msg_{session.asked}",
            "type": "message",
            "role": "assistant",
            "model": str(body.get("model", "claude-test")),
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1},
        },
    }
    if body.get("tools") and not session.tools_seen:
        session.tools_seen = [str(t.get("name")) for t in body["tools"] if isinstance(t, dict)]
    call = session.next_call() if body.get("tools") else None
    if call is None:
        block: dict[str, Any] = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": "done"}
        stop = "end_turn"
    else:
        block = {"type": "tool_use", "id": f"toolu_bastion_{session.asked:03d}", "name": call[0], "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(call[1])}
        stop = "tool_use"
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


def _responses(session: Session, body: dict[str, Any]) -> bytes:
    rid = f"resp_{session.asked}"
    if not session.tools_seen:
        session.tools_seen = [
            str(t.get("name") or t.get("type")) for t in body.get("tools") or [] if isinstance(t, dict)
        ]
    call = session.next_call()
    if call is None:
        item: dict[str, Any] = {
            "type": "message",
            "id": f"msg_{rid}",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "done", "annotations": []}],
        }
    else:
        item = {
            "type": "function_call",
            "id": f"fc_{rid}",
            "call_id": f"call_bastion_{session.asked:03d}",
            "name": call[0],
            "arguments": json.dumps(call[1]),
            "status": "completed",
        }
    response = {
        "id": rid,
        "object": "response",
        "created_at": 0,
        "model": str(body.get("model", "gpt")),
        "status": "completed",
        "output": [item],
        "usage": {
            "input_tokens": 10,
            "output_tokens": 5,
            "total_tokens": 15,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        },
    }
    created = {**response, "status": "in_progress", "output": []}
    return _sse(
        [
            ("response.created", {"type": "response.created", "response": created}),
            (
                "response.output_item.added",
                {"type": "response.output_item.added", "output_index": 0, "item": item},
            ),
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": 0, "item": item},
            ),
            ("response.completed", {"type": "response.completed", "response": response}),
        ]
    )


class SessionModel:
    """``with SessionModel(session) as model: model.url`` — Anthropic and OpenAI Responses."""

    def __init__(self, session: Session) -> None:
        outer = session

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                return

            def do_GET(self) -> None:
                self._send(200, b'{"object":"list","data":[],"models":[]}', "application/json")

            def do_HEAD(self) -> None:
                self._send(200, b"", "text/plain")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) if length else b"{}")
                except ValueError:
                    body = {}
                path = self.path.split("?")[0]
                if "count_tokens" in path:
                    self._send(200, b'{"input_tokens":10}', "application/json")
                elif path.endswith("/messages"):
                    self._send(200, _anthropic(outer, body), "text/event-stream")
                elif path.endswith("/responses"):
                    self._send(200, _responses(outer, body), "text/event-stream")
                else:
                    self._send(404, b'{"error":"not found"}', "application/json")

            def _send(self, status: int, data: bytes, kind: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> SessionModel:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _quiet(*_: Any) -> None:
    return None


def _env(sandbox: Sandbox, **extra: str) -> dict[str, str]:
    """The sandbox's environment; PYTHONPATH passes through so the hook runs this tree's code."""
    passed = {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}
    return sandbox.env(**passed, **extra)


def run_claude_session(sandbox: Sandbox, session: Session, *, mcp_config: Path | None = None) -> Path:
    """Run Claude Code with Bastion as its hook; the transcript it wrote."""
    install("claude", scope="project", cwd=str(sandbox.project), env=sandbox.env(), out=_quiet)
    settings = sandbox.project / ".claude" / "settings.json"
    tools = sorted({name for name, _ in session.calls})
    argv = [
        agent_cli("claude"),
        "-p",
        "do the task",
        "--settings",
        str(settings),
        "--output-format",
        "json",
        "--allowedTools",
        ",".join(tools),
    ]
    if mcp_config is not None:
        argv += ["--mcp-config", str(mcp_config), "--strict-mcp-config"]
    with SessionModel(session) as model:
        done = subprocess.run(
            argv,
            cwd=sandbox.project,
            capture_output=True,
            text=True,
            timeout=AGENT_TIMEOUT,
            stdin=subprocess.DEVNULL,
            env=_env(
                sandbox,
                ANTHROPIC_BASE_URL=model.url,
                ANTHROPIC_API_KEY="sk-ant-dummy",
                CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
                DISABLE_AUTOUPDATER="1",
            ),
        )
    assert done.returncode == 0, done.stderr[-2000:]
    found = sorted((sandbox.home / ".claude" / "projects").glob("*/*.jsonl"))
    assert len(found) == 1, found
    return found[0]


def run_codex_session(sandbox: Sandbox, session: Session) -> Path:
    """Run Codex with Bastion as its hook; the rollout it wrote."""
    codex_home = sandbox.root / "codex-home"
    codex_home.mkdir(parents=True, exist_ok=True)
    install(
        "codex",
        scope="user",
        cwd=str(sandbox.project),
        env=sandbox.env(CODEX_HOME=str(codex_home)),
        out=_quiet,
    )
    with SessionModel(session) as model:
        (codex_home / "config.toml").write_text(
            (codex_home / "config.toml").read_text() if (codex_home / "config.toml").exists() else ""
        )
        config = (codex_home / "config.toml").read_text()
        (codex_home / "config.toml").write_text(
            'model = "gpt-5-codex"\nmodel_provider = "fake"\n\n'
            + config
            + f'\n[model_providers.fake]\nname = "fake"\nbase_url = "{model.url}/v1"\n'
            'wire_api = "responses"\nenv_key = "FAKE_OPENAI_KEY"\n'
        )
        done = subprocess.run(
            [
                agent_cli("codex"),
                "exec",
                "--dangerously-bypass-hook-trust",
                "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox",
                "-C",
                str(sandbox.project),
                "do the task",
            ],
            capture_output=True,
            text=True,
            timeout=AGENT_TIMEOUT,
            stdin=subprocess.DEVNULL,
            env=_env(sandbox, CODEX_HOME=str(codex_home), FAKE_OPENAI_KEY="sk-dummy"),
        )
    assert done.returncode == 0, done.stderr[-2000:]
    found = sorted((codex_home / "sessions").rglob("rollout-*.jsonl"))
    assert len(found) == 1, found
    return found[0]
