"""``tools/call`` → a ``ToolCall`` of family ``mcp`` → the Gatekeeper → allowed or refused.

An ASK reaches a person by the best channel the agent's client has:

* handshake-era clients (``initialize``; protocol ≤ 2025-11-25) that declare elicitation get
  an ``elicitation/create`` form — approve once, always, or deny with feedback — while the
  call is also parked in Bastion's queue, so the CLI or web page may answer first;
* 2026-07-28 clients that declare elicitation get an ``InputRequiredResult`` carrying the
  same form; their retry carries the answer, bound to the exact call by a one-time token;
* any other client: the call parks in the queue and waits up to the policy's TTL.

Nobody answering is a denial. Every decision and resolution is written to the ledger by
the Gatekeeper; a refusal comes back as an MCP tool error (``isError: true``) whose text
starts with the marker, then the reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import sys
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TextIO

import mcp_types as types

from bastion.approval import hints
from bastion.approval.model import ApprovalRequest, PermissionDecision, grantable
from bastion.approval.queue import AnswerError
from bastion.audit.redact import summarize
from bastion.call.model import ToolCall
from bastion.policy.decision import Decision, Evaluation
from bastion.policy.mcp_infer import infer_schema
from bastion.policy.remedy import how_to_allow
from bastion.runtime import Gatekeeper

#: The key of Bastion's question in an ``InputRequiredResult``.
APPROVAL_KEY = "bastion.approval"

Elicit = Callable[[str, dict[str, Any]], Awaitable[types.ElicitResult]]


@dataclass(frozen=True, slots=True)
class Channel:
    """How one call can reach a person through the agent's client."""

    elicit: Elicit | None = None  # handshake era: a server-to-client request
    input_required: bool = False  # 2026-07-28: an InputRequiredResult round trip
    request_state: str | None = None
    input_responses: Mapping[str, Any] | None = None


def approval_schema(grantable: bool) -> dict[str, Any]:
    choices = ["once", "always", "deny"] if grantable else ["once", "deny"]
    return {
        "type": "object",
        "properties": {
            "decision": {
                "type": "string",
                "title": "Decision",
                "description": "once: allow this call; always: allow this exact call from now on; "
                "deny: refuse it",
                "enum": choices,
            },
            "feedback": {"type": "string", "title": "Feedback for the agent (when denying)"},
        },
        "required": ["decision"],
    }


def question(call: ToolCall, evaluation: Evaluation) -> str:
    return (
        f"Bastion: allow this MCP tool call?\n{summarize(call)[:1000]}\n"
        f"Why you are asked: {evaluation.message[:500]}"
    )


def answer_of(result: types.ElicitResult | None) -> PermissionDecision:
    """A person's elicitation answer; anything but an explicit approval is a denial."""
    if result is None:
        return PermissionDecision("reject", feedback="no answer came back from the client")
    if result.action != "accept":
        how = "declined" if result.action == "decline" else "dismissed"
        return PermissionDecision("reject", feedback=f"{how} in the client")
    content = result.content or {}
    decision = content.get("decision")
    if decision in ("once", "always"):
        return PermissionDecision("once" if decision == "once" else "always")
    feedback = content.get("feedback")
    if decision == "deny":
        return PermissionDecision("reject", feedback=str(feedback) if feedback else None)
    return PermissionDecision("reject", feedback="the approval form came back without a decision")


#: The approver of an answer a person gave in the MCP client's approval form.
ELICITATION = "mcp-elicitation"


def apply_answer(keeper: Gatekeeper, request: ApprovalRequest, choice: PermissionDecision) -> None:
    """Answer a parked request as a person; a request answered elsewhere first stays so."""
    with contextlib.suppress(AnswerError):
        keeper.queue.answer(
            request.id,
            approve=choice.kind != "reject",
            always=choice.kind == "always" and request.grantable and grantable(request.evaluation),
            feedback=choice.feedback,
            resolver="person",
            approver=ELICITATION,
        )


def refusal(server: str, tool: str, evaluation: Evaluation) -> types.CallToolResult:
    """The MCP tool error for a call that will not run: marker, reason, the tool, and (a
    denial) how to allow it."""
    text = f"{evaluation.message} (MCP tool {server}/{tool})"
    if evaluation.decision is Decision.ASK:
        text = f"needs approval and was not approved: {text}"
    remedy = how_to_allow(evaluation)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=f"{text}. {remedy}" if remedy else text)],
        is_error=True,
    )


@dataclass(frozen=True, slots=True)
class _Pending:
    call_key: str
    expires: float


class McpCalls:
    """Turns one server's tool calls into decisions (one instance per proxy)."""

    def __init__(
        self,
        server: str,
        *,
        cwd: str,
        session: str | None = None,
        log: TextIO | None = None,
        pending_limit: int = 256,
    ) -> None:
        self.server = server
        self.cwd = cwd
        self.session = session or f"mcp-{secrets.token_hex(6)}"
        self.log = log or sys.stderr
        self._pending: OrderedDict[str, _Pending] = OrderedDict()
        self._pending_limit = pending_limit
        #: tool -> (its inputSchema, what it infers): walked once per schema, not per call.
        self._inferred: dict[str, tuple[Mapping[str, Any], tuple[tuple[str, ...], tuple[str, ...]]]] = {}

    def tool_call(
        self,
        tool: str,
        arguments: Mapping[str, Any] | None,
        annotations: Mapping[str, Any] | None,
        *,
        agent: str | None = None,
        schema: Mapping[str, Any] | None = None,
    ) -> ToolCall:
        args: dict[str, Any] = {
            "server": self.server,
            "tool": tool,
            "arguments": dict(arguments or {}),
            "annotations": dict(annotations or {}),
        }
        paths, urls = self._infer(tool, schema)
        if paths or urls:  # the engine checks these through the path/network policy
            args["inferred"] = {"paths": list(paths), "urls": list(urls)}
        return ToolCall(
            tool="mcp", args=args, cwd=self.cwd, session=self.session, agent=agent, interactive=True
        )

    def _infer(self, tool: str, schema: Mapping[str, Any] | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """``infer_schema``, remembered per tool while its schema stays the same object (a
        refreshed offer brings new objects; nobody edits one in place)."""
        if schema is None:
            return (), ()
        known = self._inferred.get(tool)
        if known is not None and known[0] is schema:
            return known[1]
        inferred = infer_schema(schema)
        self._inferred[tool] = (schema, inferred)
        return inferred

    async def decide(
        self, keeper: Gatekeeper, call: ToolCall, channel: Channel
    ) -> Evaluation | types.InputRequiredResult:
        """The final Evaluation, or (2026-07-28 clients) the question to ask first."""
        if channel.input_required:
            return await self._decide_modern(keeper, call, channel)
        if channel.elicit is not None:
            return await self._decide_eliciting(keeper, call, channel.elicit)
        return await keeper.request(call, on_parked=self._announce)

    def _announce(self, request: ApprovalRequest) -> None:
        wait = max(0, round(request.expires - request.created))
        self.log.write(
            f"bastion: {request.summary} waits for approval ({wait}s): {hints.approve(request.id)}\n"
        )
        self.log.flush()

    async def _decide_eliciting(self, keeper: Gatekeeper, call: ToolCall, elicit: Elicit) -> Evaluation:
        tasks: list[asyncio.Task[None]] = []

        async def ask(request: ApprovalRequest) -> None:
            try:
                result = await elicit(question(call, request.evaluation), approval_schema(request.grantable))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the client cannot ask: the call waits in the queue
                self.log.write(
                    f"bastion: elicitation failed ({type(exc).__name__}: {exc}); "
                    "the call waits in the approval queue\n"
                )
                self._announce(request)
                return
            apply_answer(keeper, request, answer_of(result))

        def parked(request: ApprovalRequest) -> None:
            tasks.append(asyncio.ensure_future(ask(request)))

        try:
            return await keeper.request(call, on_parked=parked)
        finally:
            for task in tasks:
                task.cancel()

    async def _decide_modern(
        self, keeper: Gatekeeper, call: ToolCall, channel: Channel
    ) -> Evaluation | types.InputRequiredResult:
        key = keeper.hasher.digest(call)
        choice = self._take(channel, key, keeper.clock.now())
        if choice is not None:
            return await keeper.request(call, on_parked=lambda r: apply_answer(keeper, r, choice))
        evaluation = keeper.decide(call)
        if evaluation.decision is not Decision.ASK:
            return await keeper.request(call)
        token = secrets.token_urlsafe(24)
        self._pending[token] = _Pending(key, keeper.clock.now() + keeper.policy.ttl_seconds)
        while len(self._pending) > self._pending_limit:
            self._pending.popitem(last=False)
        form = types.ElicitRequest(
            params=types.ElicitRequestFormParams(
                message=question(call, evaluation), requested_schema=approval_schema(grantable(evaluation))
            )
        )
        return types.InputRequiredResult(input_requests={APPROVAL_KEY: form}, request_state=token)

    def _take(self, channel: Channel, key: str, now: float) -> PermissionDecision | None:
        """The person's answer carried by a retry, if it belongs to this exact call."""
        if channel.request_state is None:
            return None
        pending = self._pending.pop(channel.request_state, None)
        if pending is None or pending.call_key != key or pending.expires < now:
            return None  # unknown, used, expired or for another call: ask again
        raw = (channel.input_responses or {}).get(APPROVAL_KEY)
        try:
            result = raw if isinstance(raw, types.ElicitResult) else types.ElicitResult.model_validate(raw)
        except ValueError:
            result = None
        return answer_of(result)
