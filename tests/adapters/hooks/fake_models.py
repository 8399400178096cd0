"""Model APIs served on loopback for the real agent CLIs: the Anthropic Messages API (for
Claude Code, streamed SSE), the OpenAI Responses API (for Codex, streamed SSE) and the
Gemini API (for Gemini CLI: ``:generateContent`` for its JSON side questions, streamed
``:streamGenerateContent?alt=sse`` for the turns) and the OpenAI Chat Completions API (for
Qwen Code and GitHub Copilot CLI's BYOK provider, streamed SSE; a non-streamed call is a
JSON side question).

Each server plays one script: the first model turn is a tool call of the test's choosing;
when the agent sends the tool's result back, the turn ends with a short text and the
result is recorded for the test to assert on.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Script:
    tool: str
    arguments: dict[str, Any]
    results: list[dict[str, Any]] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    calls_made: int = 0


def _sse(events: list[tuple[str, dict[str, Any]]]) -> bytes:
    return b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events)


def _anthropic_tool_result(body: dict[str, Any]) -> dict[str, Any] | None:
    # Claude Code may append a system notice after the result (a background task that
    # already finished): the result is in the last message that is not one.
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict) and m.get("role") != "system"]
    if not messages or messages[-1].get("role") != "user":
        return None
    content = messages[-1].get("content")
    if not isinstance(content, list):
        return None
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            inner = block.get("content")
            if isinstance(inner, list):
                inner = "\n".join(str(b.get("text", "")) for b in inner if isinstance(b, dict))
            return {"content": str(inner), "is_error": bool(block.get("is_error"))}
    return None


def anthropic_stream(script: Script, body: dict[str, Any]) -> bytes:
    model = str(body.get("model", "claude-test"))
    start = {
        "type": "message_start",
        "message": {
            "id": f"msg_{len(script.requests)}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1},
        },
    }
    result = _anthropic_tool_result(body)
    if result is not None:
        script.results.append(result)
    if result is not None or not body.get("tools") or script.calls_made:
        block: dict[str, Any] = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": "done"}
        stop = "end_turn"
    else:
        script.calls_made += 1
        block = {"type": "tool_use", "id": "toolu_bastion_test_1", "name": script.tool, "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(script.arguments)}
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


def _responses_tool_output(body: dict[str, Any]) -> dict[str, Any] | None:
    items = body.get("input") or []
    for item in reversed(items if isinstance(items, list) else []):
        if isinstance(item, dict) and item.get("type") in ("function_call_output", "custom_tool_call_output"):
            output = item.get("output")
            if isinstance(output, dict | list):
                output = json.dumps(output)
            return {"content": str(output), "is_error": False}
    return None


def responses_stream(script: Script, body: dict[str, Any]) -> bytes:
    model = str(body.get("model", "gpt-test"))
    rid = f"resp_{len(script.requests)}"
    result = _responses_tool_output(body)
    if result is not None:
        script.results.append(result)
    if result is not None or script.calls_made:
        item: dict[str, Any] = {
            "type": "message",
            "id": f"msg_{rid}",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "done", "annotations": []}],
        }
    else:
        script.calls_made += 1
        item = {
            "type": "function_call",
            "id": f"fc_{rid}",
            "call_id": "call_bastion_test_1",
            "name": script.tool,
            "arguments": json.dumps(script.arguments),
            "status": "completed",
        }
    response = {
        "id": rid,
        "object": "response",
        "created_at": 0,
        "model": model,
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
    return b"".join(
        f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
        for name, data in (
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
        )
    )


def _gemini_tool_response(body: dict[str, Any]) -> dict[str, Any] | None:
    contents = body.get("contents") or []
    if not contents or not isinstance(contents[-1], dict):
        return None
    for part in contents[-1].get("parts") or []:
        response = part.get("functionResponse") if isinstance(part, dict) else None
        if isinstance(response, dict):
            inner = response.get("response")
            inner = inner if isinstance(inner, dict) else {"output": inner}
            is_error = "error" in inner
            return {"content": str(inner.get("error" if is_error else "output", "")), "is_error": is_error}
    return None


def gemini_json_answer(body: dict[str, Any]) -> bytes:
    """Gemini CLI's side questions in JSON mode: the model router ("flash or pro?") and the
    next-speaker check ("the user")."""
    asked = json.dumps(body.get("generationConfig") or {})
    answer: dict[str, Any] = {"reasoning": "a simple task"}
    if "model_choice" in asked:
        answer["model_choice"] = "flash"
    if "complexity_score" in asked:
        answer = {"complexity_reasoning": "a simple task", "complexity_score": 10}
    if "next_speaker" in asked:
        answer["next_speaker"] = "user"
    return json.dumps(_gemini_response([{"text": json.dumps(answer)}])).encode()


def _gemini_response(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "gemini-test",
    }


def gemini_stream(script: Script, body: dict[str, Any]) -> bytes:
    result = _gemini_tool_response(body)
    if result is not None:
        script.results.append(result)
    if result is not None or script.calls_made or not body.get("tools"):
        parts: list[dict[str, Any]] = [{"text": "done"}]
    else:
        script.calls_made += 1
        parts = [{"functionCall": {"name": script.tool, "args": script.arguments}}]
    return f"data: {json.dumps(_gemini_response(parts))}\r\n\r\n".encode()


def _chat_tool_result(body: dict[str, Any]) -> dict[str, Any] | None:
    messages = body.get("messages") or []
    if messages and isinstance(messages[-1], dict) and messages[-1].get("role") == "tool":
        content = messages[-1].get("content")
        if isinstance(content, list):
            content = "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
        return {"content": str(content), "is_error": False}
    return None


def _chat_chunk(model: str, delta: dict[str, Any], finish: str | None) -> str:
    chunk = {
        "id": "chatcmpl-bastion",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(chunk)}\n\n"


def chat_completion(script: Script, body: dict[str, Any]) -> tuple[bytes, str]:
    """Chat Completions: a streamed turn, or a JSON answer for a side question."""
    model = str(body.get("model", "qwen-test"))
    if not body.get("stream"):
        answer = {"reasoning": "a simple task", "next_speaker": "user"}
        message = {"role": "assistant", "content": json.dumps(answer)}
        reply = {
            "id": "chatcmpl-bastion",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }
        return json.dumps(reply).encode(), "application/json"
    result = _chat_tool_result(body)
    if result is not None:
        script.results.append(result)
    if result is not None or script.calls_made or not body.get("tools"):
        events = [_chat_chunk(model, {"role": "assistant", "content": "done"}, None)]
        finish = "stop"
    else:
        script.calls_made += 1
        call = {
            "index": 0,
            "id": "call_bastion_test_1",
            "type": "function",
            "function": {"name": script.tool, "arguments": json.dumps(script.arguments)},
        }
        events = [_chat_chunk(model, {"role": "assistant", "tool_calls": [call]}, None)]
        finish = "tool_calls"
    events.append(_chat_chunk(model, {}, finish))
    return ("".join(events) + "data: [DONE]\n\n").encode(), "text/event-stream"


class FakeModelServer:
    """``with FakeModelServer(script) as server: server.url`` — answers all four APIs."""

    def __init__(self, script: Script) -> None:
        self.script = script
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                return

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, b'{"object":"list","data":[],"models":[]}', "application/json")
                else:
                    self._send(404, b'{"error":"not found"}', "application/json")

            def do_HEAD(self) -> None:
                self._send(200, b"", "text/plain")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {}
                outer.script.requests.append({"path": self.path, "body": body})
                if self.path.split("?")[0].endswith("/messages"):
                    self._send(200, anthropic_stream(outer.script, body), "text/event-stream")
                elif self.path.split("?")[0].endswith("/responses"):
                    self._send(200, responses_stream(outer.script, body), "text/event-stream")
                elif self.path.split("?")[0].endswith("/chat/completions"):
                    self._send(200, *chat_completion(outer.script, body))
                elif self.path.split("?")[0].endswith(":streamGenerateContent"):
                    self._send(200, gemini_stream(outer.script, body), "text/event-stream")
                elif self.path.split("?")[0].endswith(":generateContent"):
                    self._send(200, gemini_json_answer(body), "application/json")
                elif self.path.split("?")[0].endswith(":countTokens"):
                    self._send(200, b'{"totalTokens":10}', "application/json")
                elif "count_tokens" in self.path:
                    self._send(200, b'{"input_tokens":10}', "application/json")
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

    def __enter__(self) -> FakeModelServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
