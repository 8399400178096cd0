"""``bastion mcp proxy``: an MCP server to the agent, an MCP client to the server it wraps.

``tools/list`` is the wrapped server's list, minus the tools the policy disables (a deny
rule for ``SERVER/TOOL`` without an argument condition) and the tools whose definition
changed since they were pinned; descriptions are marked untrusted. The list is fetched
again, re-pinned and re-filtered when the server sends ``notifications/tools/list_changed``
(and the agent is told). ``tools/call`` goes through :class:`McpCalls`; an allowed call is
forwarded and its result marked, masked and capped; its execution is recorded once the
answer is sent, before the next call is decided (:mod:`bastion.adapters.mcp.later`).

Only tools are proxied: the wrapped server's resources, prompts and instructions never
reach the agent through Bastion.
"""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

import anyio
import anyio.abc
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from bastion.adapters.mcp.calls import Channel, McpCalls, refusal
from bastion.adapters.mcp.later import AfterAnswer
from bastion.adapters.mcp.untrusted import (
    DEFAULT_MAX_RESULT_BYTES,
    SecretMask,
    instructions,
    mark_description,
    mark_result,
)
from bastion.adapters.mcp.upstream import Upstream, UpstreamError, UpstreamSpec
from bastion.adapters.mcp.wire import PipeLines, PipeWriter, agent_wire
from bastion.call.effects import Effect
from bastion.call.model import ToolCall
from bastion.construct import broken
from bastion.lifecycle import PolicyWatch
from bastion.policy.compiled import Policy
from bastion.policy.decision import MARKER_BLOCKED, Decision, Evaluation, Reason, deny_for_error
from bastion.policy.mcp_args import hiding_rule
from bastion.policy.mcp_infer import describe_inferred
from bastion.runtime import Gatekeeper
from bastion.state.pins import PinStore, Review, ToolVersion, check_offer

Context = ServerRequestContext[Any, Any]


@dataclass(frozen=True, slots=True)
class ProxyOptions:
    name: str
    upstream: UpstreamSpec
    policy_path: str | None = None
    cwd: str = "."
    env: Mapping[str, str] = field(default_factory=dict)
    max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES
    call_timeout: float = 600.0


@dataclass(frozen=True, slots=True)
class Offer:
    """What the wrapped server offers now, and how its pins judge it."""

    tools: Mapping[str, types.Tool]
    review: Review
    #: Each tool's annotations as wire JSON (what a call's record carries), dumped once.
    annotations: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


def blocked_evaluation(message: str, tool: str) -> Evaluation:
    reason = Reason(Decision.DENY, "mcp.pin-changed", "mcp pins", tool, message)
    return Evaluation(Decision.DENY, (reason,), (Effect.MCP,), marker=MARKER_BLOCKED)


def upstream_failure(server: str, tool: str, error: UpstreamError) -> types.CallToolResult:
    text = f"[bastion] {error} (MCP tool {server}/{tool})"
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)


class McpProxy:
    def __init__(
        self, options: ProxyOptions, *, watch: PolicyWatch, pins: PinStore, log: TextIO | None = None
    ) -> None:
        self.options = options
        self.name = options.name
        self.watch = watch
        self.pins = pins
        self.log = log or sys.stderr
        self.calls = McpCalls(self.name, cwd=options.cwd, log=self.log)
        self.upstream = Upstream(options.upstream, on_tools_changed=self.upstream_changed, errlog=self.log)
        self._offer: Offer | None = None
        self._policy: Policy = watch.base.policy
        self._masks: dict[str, SecretMask] = {}
        self._session: ServerSession | None = None
        self._warned: set[tuple[str, str]] = set()
        self._inferred_shown: list[str] = []
        self.after = AfterAnswer(self.log)

    def bind(self, tg: anyio.abc.TaskGroup) -> None:
        """Run upstream connections as tasks of ``tg`` (leaving it reaps them)."""
        self.upstream.bind(tg)

    def server(self) -> Server[Any]:
        return Server(
            f"bastion:{self.name}",
            version="0.1.0",
            instructions=instructions(self.name),
            on_list_tools=self.list_tools,
            on_call_tool=self.call_tool,
        )

    # -- the offer -------------------------------------------------------------------------
    async def refresh(self) -> Offer:
        tools = await self.upstream.list_tools()
        offered = {t.name: t for t in tools}
        versions = {
            n: ToolVersion.of(t.model_dump(by_alias=True, mode="json", exclude_none=True))
            for n, t in offered.items()
        }
        review = check_offer(self.pins, self.name, versions)
        for item in review.blocked:
            key = (item.tool, versions[item.tool].digest)
            if key not in self._warned:
                self._warned.add(key)
                self.log.write(f"bastion: {item.message(self.name)}\n")
        annotations = {
            n: t.annotations.model_dump(by_alias=True, mode="json", exclude_none=True)
            for n, t in offered.items()
            if t.annotations
        }
        self._offer = Offer(offered, review, annotations)
        inferred = describe_inferred(self.name, {n: t.input_schema for n, t in offered.items()})
        if inferred != self._inferred_shown:  # say once what is checked without configuration
            self._inferred_shown = inferred
            for line in inferred:
                self.log.write(f"bastion: {line} (inferred from the inputSchema)\n")
        return self._offer

    async def upstream_changed(self) -> None:
        try:
            await self.refresh()
        except UpstreamError as exc:
            self.log.write(f"bastion: {exc}\n")
            self._offer = None
        session = self._session
        if session is not None:
            try:
                await session.send_tool_list_changed()
            except Exception as exc:  # the agent went away: nothing to tell
                self.log.write(f"bastion: could not tell the agent its tools changed: {exc}\n")

    def _current_policy(self) -> Gatekeeper:
        state = self.watch.current()
        if broken(state) is None:
            self._policy = state.policy
        return state

    def _remember(self, ctx: Context) -> None:
        if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            self._session = ctx.session

    # -- tools/list ------------------------------------------------------------------------
    async def list_tools(
        self, ctx: Context, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        self._remember(ctx)
        self._current_policy()
        try:
            offer = await self.refresh()
        except UpstreamError as exc:
            raise MCPError(types.INTERNAL_ERROR, str(exc)) from exc
        visible = [
            tool.model_copy(update={"description": mark_description(self.name, tool.description)})
            for name, tool in offer.tools.items()
            if name in offer.review.trusted and hiding_rule(self._policy, self.name, name) is None
        ]
        return types.ListToolsResult(tools=visible)

    # -- tools/call ------------------------------------------------------------------------
    async def call_tool(
        self, ctx: Context, params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        self.after.run_due()  # the previous calls' records first: the ledger keeps the order
        self._remember(ctx)
        name = params.name
        state = self._current_policy()
        client = ctx.session.client_params
        agent = client.client_info.name if client is not None and client.client_info else None
        if broken(state) is not None:  # the gatekeeper denies and records it
            call = self.calls.tool_call(name, params.arguments, {}, agent=agent)
            return refusal(self.name, name, await state.request(call))
        try:
            offer = self._offer if self._offer and name in self._offer.tools else await self.refresh()
        except UpstreamError as exc:
            return upstream_failure(self.name, name, exc)
        tool = offer.tools.get(name)
        if tool is None:  # the proxy's own refusals are recorded like any decision
            call = self.calls.tool_call(name, params.arguments, {}, agent=agent)
            return refusal(
                self.name,
                name,
                state.refuse(
                    call,
                    deny_for_error(
                        f"the MCP server {self.name!r} offers no tool {name!r}", rule="mcp.unknown-tool"
                    ),
                ),
            )
        call = self.calls.tool_call(
            name, params.arguments, offer.annotations.get(name), agent=agent, schema=tool.input_schema
        )
        blocked = offer.review.blocked_tool(name)
        if blocked is not None:
            return refusal(
                self.name, name, state.refuse(call, blocked_evaluation(blocked.message(self.name), name))
            )
        outcome = await self.calls.decide(state, call, self._channel(ctx, params))
        if isinstance(outcome, types.InputRequiredResult):
            return outcome
        if outcome.decision is not Decision.ALLOW:
            return refusal(self.name, name, outcome)
        return await self._forward(state, call, outcome, name, params.arguments)

    def _channel(self, ctx: Context, params: types.CallToolRequestParams) -> Channel:
        caps = ctx.session.client_capabilities
        if caps is None or caps.elicitation is None:
            return Channel()
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return Channel(
                input_required=True,
                request_state=params.request_state,
                input_responses=params.input_responses,
            )
        if not ctx.session.can_send_request:
            return Channel()
        session, request_id = ctx.session, ctx.request_id

        async def elicit(message: str, schema: dict[str, Any]) -> types.ElicitResult:
            return await session.elicit_form(message, schema, related_request_id=request_id)

        return Channel(elicit=elicit)

    async def _forward(
        self,
        keeper: Gatekeeper,
        call: ToolCall,
        evaluation: Evaluation,
        name: str,
        arguments: Mapping[str, Any] | None,
    ) -> types.CallToolResult:
        start = time.monotonic()
        try:
            result = await self.upstream.call_tool(name, arguments, timeout=self.options.call_timeout)
        except UpstreamError as exc:
            self._record_later(keeper, call, evaluation, 1, time.monotonic() - start)
            return upstream_failure(self.name, name, exc)
        self._record_later(keeper, call, evaluation, 1 if result.is_error else 0, time.monotonic() - start)
        mask = self._masks.setdefault(
            keeper.policy.credentials_dir, SecretMask(keeper.policy.credentials_dir)
        )
        marked = mark_result(
            result.model_dump(by_alias=True, mode="json", exclude_none=True),
            source=f"mcp:{self.name}/{name}",
            mask=mask,
            max_bytes=self.options.max_result_bytes,
        )
        return types.CallToolResult.model_validate(marked)

    def _record_later(
        self, keeper: Gatekeeper, call: ToolCall, evaluation: Evaluation, exit_code: int, duration: float
    ) -> None:
        """The executed record, written once the answer is sent (see the module docstring)."""
        self.after.add(
            f"the outcome of a call to MCP tool {self.name}/{call.args['tool']}",
            lambda: keeper.record_execution(call, evaluation, exit_code, duration),
        )


async def run_proxy(
    options: ProxyOptions, *, watch: PolicyWatch | None = None, pins: PinStore | None = None
) -> None:
    """Serve the agent on stdin/stdout until it hangs up or a signal arrives; then stop
    (and reap) the wrapped server before returning."""
    watch = watch or PolicyWatch(options.policy_path, cwd=options.cwd, env=options.env)
    if pins is None:
        from bastion.state import open_stores, state_url_for

        policy = watch.base.policy
        pins = open_stores(state_url_for(watch.base_configuration.state, options.env), policy.state_dir).pins
    proxy = McpProxy(options, watch=watch, pins=pins)
    server = proxy.server()
    try:
        async with anyio.create_task_group() as tg:
            proxy.bind(tg)
            serving = anyio.CancelScope()
            listening = anyio.CancelScope()

            async def on_signals() -> None:
                with (
                    listening,
                    anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGHUP) as received,
                ):
                    async for _ in received:
                        serving.cancel()
                        return

            tg.start_soon(on_signals)
            lines, out = await PipeLines.open(), await PipeWriter.open()
            try:
                with serving:
                    async with agent_wire(lines, out, proxy.log) as (read_stream, write_stream):
                        await server.run(
                            read_stream,
                            write_stream,
                            server.create_initialization_options(NotificationOptions(tools_changed=True)),
                        )
            finally:
                if lines is not None:
                    lines.close()
                if out is not None:
                    await out.aclose()
            listening.cancel()
            await proxy.upstream.aclose()
    finally:
        proxy.after.run_due()  # what the last calls left, before the ledger closes
        pins.close()
        watch.close()
