"""The OpenAI Agents SDK guard (``pip install 'bastion[openai-agents]'``): function tools
whose every call Bastion decides.

``AgentsGuard.tool(tool)`` returns a copy of a ``FunctionTool`` with three things replaced:
``is_enabled`` is false when the policy disables the tool's family (absent from the schema);
``needs_approval`` asks the Gatekeeper whether the call would ask (nothing written), so an
ASK becomes one of the SDK's own run interruptions; ``on_invoke_tool`` decides the call for
real (recorded) and runs the original tool only on ALLOW. A refusal is returned to the model
as the tool's result (marker first, then the reason), so the tool never runs.

Answer an interruption with ``guard.approve(state, item, approver=...)`` or ``await
guard.reject(state, item, approver=..., feedback=...)``, then run again with the state: the
approval is recorded when the resumed run invokes the tool, the rejection at once, and they
call ``RunState.approve`` / ``RunState.reject``. An approval made
with ``RunState.approve`` alone still counts, with the guard's approver name, except for a
call no standing grant may cover (a hardline class, raised privilege): the SDK's approval
may be ``always_approve`` for the whole tool, so such a call is refused unless answered with
``guard.approve`` for that very call. Those answers live in this ``AgentsGuard``: a state
resumed by another process counts as a plain ``RunState.approve``.

The SDK is imported here only: ``import bastion`` never needs it.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
from typing import Any

from agents import AgentBase, FunctionTool, RunContextWrapper, RunState, ToolApprovalItem
from agents.tool_context import ToolContext

from bastion.adapters.frameworks.guard import Answer, Asks, Guard
from bastion.approval.model import grantable
from bastion.call.model import ToolCall
from bastion.errors import BastionError

#: Why an approval given with ``RunState.approve`` alone does not answer a hardline call.
SDK_WIDE = (
    "approved with RunState.approve alone, which may cover every call of the tool; a call no "
    "standing grant may cover (a hardline class, raised privilege) needs AgentsGuard.approve"
)


def _arguments(raw: str | None) -> dict[str, Any]:
    """The model's JSON arguments; anything but a JSON object is refused by the caller."""
    value = json.loads(raw or "{}")
    if not isinstance(value, dict):
        raise ValueError("tool arguments must be a JSON object")
    return value


class AgentsGuard:
    """Bastion's gate in front of OpenAI Agents SDK function tools."""

    def __init__(self, guard: Guard) -> None:
        self.guard = guard
        self._answers: dict[str, Answer] = {}  # call_id → the person's answer, until invoked
        self._families: dict[str, str] = {}

    def tool(self, tool: FunctionTool, *, family: str | None = None) -> FunctionTool:
        """``tool`` guarded; ``family`` names its Bastion family when its name is not one."""
        name = tool.name
        if family is not None:
            self._families[name] = family
        inner = tool.on_invoke_tool

        async def needs_approval(ctx: RunContextWrapper[Any], params: dict[str, Any], call_id: str) -> bool:
            try:
                return self.guard.needs_person(self._call(name, params))
            except (BastionError, ValueError):
                return False  # refused with its reason when invoked

        async def invoke(ctx: ToolContext[Any], raw: str) -> Any:
            answer = self._answers.pop(ctx.tool_call_id, None)
            try:
                call = self._call(name, _arguments(raw))
            except (BastionError, ValueError) as exc:
                return f"[policy-denied] the call cannot be decided: {exc}"
            if (
                answer is None
                and self.guard.asks is Asks.FRAMEWORK
                and ctx.is_tool_approved(name, ctx.tool_call_id) is True
            ):
                # Approved in the SDK directly, perhaps for every call of the tool
                # (always_approve): never what no standing grant may cover.
                if not grantable(self.guard.keeper.decide(call)):
                    return await self.guard.reject(call, Answer(False, self.guard.approver, SDK_WIDE))
                answer = Answer(True, self.guard.approver)
            outcome = await self.guard.run(call, lambda: inner(ctx, raw), answer)
            return outcome.value if outcome.ran else outcome.text

        enabled = tool.is_enabled

        async def is_enabled(ctx: RunContextWrapper[Any], agent: AgentBase) -> bool:
            if not self.guard.offered(self._families.get(name, name)):
                return False  # the policy disables the family: absent from the schema
            value = enabled(ctx, agent) if callable(enabled) else enabled
            return bool(await value) if inspect.isawaitable(value) else bool(value)

        return dataclasses.replace(
            tool, on_invoke_tool=invoke, needs_approval=needs_approval, is_enabled=is_enabled
        )

    def _call(self, name: str, args: dict[str, Any]) -> ToolCall:
        return self.guard.call(self._families.get(name, name), args)

    # -- answering an interruption ---------------------------------------------------------
    def approve(self, state: RunState[Any, Any], item: ToolApprovalItem, *, approver: str) -> None:
        """Approve ``item`` as ``approver``: recorded when the resumed run invokes the tool."""
        answer = Answer(True, approver)
        if item.call_id:
            self._answers[item.call_id] = answer
        state.approve(item)

    async def reject(
        self, state: RunState[Any, Any], item: ToolApprovalItem, *, approver: str, feedback: str | None = None
    ) -> str:
        """Reject ``item`` as ``approver``: recorded now; the model gets Bastion's denial."""
        answer = Answer(False, approver, feedback)
        name = item.tool_name or item.name or ""
        try:
            message = await self.guard.reject(self._call(name, _arguments(item.arguments)), answer)
        except (BastionError, ValueError) as exc:
            message = f"[policy-denied] rejected by {approver}: {exc}"
        state.reject(item, rejection_message=message)
        return message
