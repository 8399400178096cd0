"""Real peers for the MCP gateway tests: the SDK's client drives ``bastion mcp proxy`` (a real
subprocess, over stdio) in front of ``notes_server.py`` or the npm filesystem server."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters

HERE = Path(__file__).parent
NOTES = str(HERE / "notes_server.py")
BIN = Path(sys.executable).parent
BASTION = str(BIN / "bastion")

ElicitAnswer = Callable[[types.ElicitRequestParams], types.ElicitResult]


#: How a denial ends: how to allow it (bastion.policy.remedy), as the model reads it.
PERSON_DENIED = "A person denied it: it runs only if a person approves it when it is asked again."
NOBODY_ANSWERED = (
    "Nobody answered in time: ask again, and approve it on the approvals page or with "
    "`bastion approvals approve` (`bastion approvals list` shows its id)."
)
PINS_CHANGED = "To allow it, review the server's changed tools and trust them (`bastion mcp trust SERVER`)."


@dataclass
class Peer:
    """Where one test's proxy, upstream and state live."""

    root: Path
    env: dict[str, str]
    log: Path
    policy: Path

    def write_policy(self, text: str) -> None:
        self.policy.write_text(text, encoding="utf-8")

    def calls(self) -> list[dict[str, Any]]:
        """What the upstream server received (its start lines left out)."""
        if not self.log.exists():
            return []
        lines = [json.loads(line) for line in self.log.read_text("utf-8").splitlines()]
        return [entry for entry in lines if "started" not in entry]

    def starts(self) -> list[int]:
        if not self.log.exists():
            return []
        lines = [json.loads(line) for line in self.log.read_text("utf-8").splitlines()]
        return [int(entry["started"]) for entry in lines if "started" in entry]

    def proxy_args(self, *upstream: str, name: str = "notes", extra: tuple[str, ...] = ()) -> list[str]:
        command = list(upstream) or [sys.executable, NOTES]
        return ["mcp", "proxy", "--policy", str(self.policy), "--name", name, *extra, "--", *command]

    def params(
        self,
        *upstream: str,
        name: str = "notes",
        extra: tuple[str, ...] = (),
        env: Mapping[str, str] | None = None,
    ) -> StdioServerParameters:
        return StdioServerParameters(
            command=BASTION,
            args=self.proxy_args(*upstream, name=name, extra=extra),
            env={**self.env, **(env or {})},
            cwd=str(self.root / "work"),
        )

    @asynccontextmanager
    async def client(
        self,
        *upstream: str,
        name: str = "notes",
        mode: str = "legacy",
        elicit: ElicitAnswer | None = None,
        extra: tuple[str, ...] = (),
        env: Mapping[str, str] | None = None,
    ) -> AsyncIterator[Client]:
        callback = None
        if elicit is not None:
            answer = elicit

            async def callback(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
                return answer(params)

        params = self.params(*upstream, name=name, extra=extra, env=env)
        async with Client(
            params, mode=mode, elicitation_callback=callback, cache=None, read_timeout_seconds=60
        ) as client:
            yield client


@pytest.fixture
def peer(tmp_path: Path) -> Peer:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("PRIVATE KEY\n")
    (tmp_path / "work").mkdir()
    env = {
        "HOME": str(home),
        "PATH": f"{BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "BASTION_STATE_DIR": str(tmp_path / "state"),
        "UPSTREAM_LOG": str(tmp_path / "upstream.log"),
        "LANG": "C.UTF-8",
        # A worktree run (PYTHONPATH=src) must test its own code, not the installed one.
        **({"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}),
    }
    policy = tmp_path / "policy.toml"
    policy.write_text("", encoding="utf-8")
    return Peer(tmp_path, env, tmp_path / "upstream.log", policy)


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


def payload(result: types.CallToolResult) -> str:
    """The text inside the untrusted-content delimiters of a one-block result."""
    text = text_of(result)
    lines = text.split("\n")
    assert lines[0].startswith("<untrusted-content ") and lines[-1].startswith("</untrusted-content ")
    return "\n".join(lines[1:-1])


def approve(decision: str, feedback: str | None = None) -> ElicitAnswer:
    def answer(params: types.ElicitRequestParams) -> types.ElicitResult:
        content: dict[str, str | int | float | bool | list[str] | None] = {"decision": decision}
        if feedback is not None:
            content["feedback"] = feedback
        return types.ElicitResult(action="accept", content=content)

    return answer
