"""The wrapped MCP server: a stdio child (or a streamable-HTTP URL), connected lazily.

The SDK's stdio client passes only a handful of environment variables to the child; the
proxy passes its whole environment (the variables in the agent's MCP configuration are
meant for the server it wraps). The SDK starts the child in its own session, so a signal
sent to the proxy's process group never reaches it: the proxy reaps it by leaving the
client's context (close stdin, wait, then terminate its process group), also on SIGTERM,
SIGINT and SIGHUP (``proxy.run_proxy``). A child that dies is reported to the agent on the
call it broke, and started again on the next call.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

import anyio
import anyio.abc
import mcp_types as types
from mcp import Client, StdioServerParameters, stdio_client
from mcp.client.session import IncomingMessage, MessageHandlerFnT
from mcp.shared.exceptions import MCPError

from bastion.errors import BastionError

CLIENT_INFO = types.Implementation(name="bastion-mcp-proxy", version="0.1.0")
#: How many pages of ``tools/list`` the proxy follows (a server that pages forever is cut).
MAX_PAGES = 100


class UpstreamError(BastionError):
    """The wrapped server is not there: it failed to start, exited or closed the connection."""


@dataclass(frozen=True, slots=True)
class UpstreamSpec:
    """How to reach the wrapped server: a command, or a streamable-HTTP URL."""

    command: tuple[str, ...] = ()
    url: str | None = None
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    cwd: str | None = None

    def __post_init__(self) -> None:
        if bool(self.command) == bool(self.url):
            raise ValueError("give the wrapped server as a command or as a URL (exactly one)")

    @property
    def label(self) -> str:
        return self.url or shlex.join(self.command)

    @property
    def program(self) -> str | None:
        return self.command[0] if self.command else None

    def connect(self, *, message_handler: MessageHandlerFnT, timeout: float, errlog: TextIO) -> Client:
        target: Any
        if self.url:
            target = self.url
        else:
            params = StdioServerParameters(
                command=self.command[0], args=list(self.command[1:]), env=dict(self.env), cwd=self.cwd
            )
            target = stdio_client(params, errlog=errlog)
        return Client(
            target,
            mode="legacy",
            cache=None,
            read_timeout_seconds=timeout,
            message_handler=message_handler,
            client_info=CLIENT_INFO,
        )


class Upstream:
    """One live connection at a time; callers get :class:`UpstreamError`, never a hang."""

    def __init__(
        self,
        spec: UpstreamSpec,
        *,
        on_tools_changed: Callable[[], Awaitable[None]],
        timeout: float = 60.0,
        errlog: TextIO | None = None,
    ) -> None:
        self.spec = spec
        self.timeout = timeout
        self.errlog = errlog or sys.stderr
        self._on_tools_changed = on_tools_changed
        self._tg: anyio.abc.TaskGroup | None = None
        self._client: Client | None = None
        self._stop: anyio.Event | None = None
        self._lock = anyio.Lock()

    def bind(self, tg: anyio.abc.TaskGroup) -> None:
        """Connections run as tasks of ``tg``; leaving it closes (and reaps) them."""
        self._tg = tg

    async def _on_message(self, message: IncomingMessage) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            await self._on_tools_changed()
        elif isinstance(message, Exception):
            self.errlog.write(
                f"bastion: the MCP server {self.spec.label!r} sent something that is not MCP: {message}\n"
            )

    async def client(self) -> Client:
        live = self._client
        if live is not None:  # no lock when connected: taking one yields to the loop once per call
            return live
        async with self._lock:
            if self._client is not None:
                return self._client
            if self._tg is None:
                raise UpstreamError("the proxy is not running")
            stop = anyio.Event()
            outcome = await self._tg.start(self._serve, stop)
            if isinstance(outcome, BaseException):
                why = _describe(outcome, self.spec.program)
                raise UpstreamError(f"cannot start the MCP server {self.spec.label!r}: {why}") from outcome
            client: Client = outcome
            self._client, self._stop = client, stop
            return client

    async def _serve(self, stop: anyio.Event, *, task_status: anyio.abc.TaskStatus[Any]) -> None:
        started = False
        client = self.spec.connect(message_handler=self._on_message, timeout=self.timeout, errlog=self.errlog)
        try:
            async with client:
                task_status.started(client)
                started = True
                await stop.wait()
        except Exception as exc:  # a dead child must not take the proxy down with it
            if not started:
                task_status.started(exc)
            else:
                why = _describe(exc, self.spec.program)
                self.errlog.write(f"bastion: the MCP server {self.spec.label!r} connection ended: {why}\n")
        finally:
            if self._client is client:
                self._client = None

    def _lost(self, client: Client) -> None:
        if self._client is client and self._stop is not None:
            self._stop.set()
            self._client = None

    async def list_tools(self) -> list[types.Tool]:
        client = await self.client()
        tools: list[types.Tool] = []
        cursor: str | None = None
        try:
            for _ in range(MAX_PAGES):
                page = await client.list_tools(cursor=cursor, cache_mode="bypass")
                tools.extend(page.tools)
                cursor = page.next_cursor
                if not cursor:
                    break
        except MCPError as exc:
            raise self._error(client, exc, "listing its tools") from exc
        return tools

    async def call_tool(
        self, name: str, arguments: Mapping[str, Any] | None, timeout: float | None = None
    ) -> types.CallToolResult:
        client = await self.client()
        try:
            return await client.session.call_tool(
                name, dict(arguments or {}), read_timeout_seconds=timeout or self.timeout
            )
        except MCPError as exc:
            raise self._error(client, exc, f"running {name}") from exc
        except (RuntimeError, ValueError) as exc:  # a result that does not fit its output schema
            raise UpstreamError(
                f"the MCP server {self.spec.label!r} returned an invalid result for {name}: {exc}"
            ) from exc

    def _error(self, client: Client, exc: MCPError, doing: str) -> UpstreamError:
        if exc.code == types.CONNECTION_CLOSED:
            self._lost(client)
            return UpstreamError(
                f"the MCP server {self.spec.label!r} exited or closed its connection "
                f"while {doing}; the call may not have completed. It is started "
                "again on the next call."
            )
        if exc.code == types.REQUEST_TIMEOUT:
            return UpstreamError(f"the MCP server {self.spec.label!r} did not answer in time while {doing}")
        return UpstreamError(
            f"the MCP server {self.spec.label!r} answered with an error while {doing}: "
            f"{exc.message} (code {exc.code})"
        )

    async def aclose(self) -> None:
        if self._stop is not None:
            self._stop.set()


def _describe(exc: BaseException, program: str | None = None) -> str:
    """``program``: the command's first word (uvloop's FileNotFoundError names no file)."""
    if isinstance(exc, FileNotFoundError):
        return f"command not found: {exc.filename or program or exc}"
    if isinstance(exc, MCPError):
        return f"{exc.message} (code {exc.code}); it may have exited at start: see its stderr"
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_describe(e, program) for e in exc.exceptions)
    return f"{type(exc).__name__}: {exc}"


_LAUNCHERS = frozenset(
    {
        "npx",
        "node",
        "uvx",
        "uv",
        "python",
        "python3",
        "pipx",
        "bunx",
        "bun",
        "deno",
        "docker",
        "podman",
        "sh",
        "bash",
    }
)


def default_name(spec: UpstreamSpec) -> str:
    """A server name for pins and policy when ``--name`` is not given: the URL's host, or the
    command's program — the package run by a launcher (``npx -y @scope/server-x`` → ``server-x``)."""
    if spec.url:
        from urllib.parse import urlsplit

        return urlsplit(spec.url).hostname or "remote"
    words = [os.path.basename(w) for w in spec.command]
    if words[0] in _LAUNCHERS or words[0].startswith("python"):
        rest = [w for w in spec.command[1:] if not w.startswith("-") and w not in ("run", "exec", "x")]
        if rest:
            return rest[0].rstrip("/").rsplit("/", 1)[-1].split("@", 1)[0] or words[0]
    return words[0]
