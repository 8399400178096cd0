"""The PydanticAI guard (``pip install 'bastion[pydantic-ai]'``): a toolset whose every call
Bastion decides.

``BastionToolset(toolset, guard)`` wraps any toolset (a ``FunctionToolset``, an MCP server…).
A call the Gatekeeper allows runs the wrapped tool; a refusal is returned to the model as the
tool's result (marker first, then the reason), so the tool never runs. A call that asks
raises ``ApprovalRequired``: the run ends with ``DeferredToolRequests`` (give the agent
``output_type=[str, DeferredToolRequests]``). Answer with ``await toolset.results(requests,
approvals={call_id: True | False}, approver="alice")``, which records rejections at once and
returns the ``DeferredToolResults`` to run the agent again with; an approved call is decided
again when it runs and recorded with its approver (``metadata[call_id]["approver"]``).

PydanticAI is imported here only: ``import bastion`` never needs it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic_ai import ApprovalRequired, RunContext
from pydantic_ai.tools import DeferredToolRequests, DeferredToolResults, ToolApproved, ToolDenied
from pydantic_ai.toolsets import AbstractToolset, ToolsetTool, WrapperToolset

from bastion.adapters.frameworks.guard import Answer, Guard
from bastion.errors import BastionError


@dataclass
class BastionToolset(WrapperToolset[Any]):
    """``wrapped`` behind Bastion's gate."""

    guard: Guard = field(kw_only=True)

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        tools = await self.wrapped.get_tools(ctx)
        return {name: tool for name, tool in tools.items() if self.guard.offered(name)}

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> Any:
        try:
            call = self.guard.call(name, tool_args)
        except BastionError as exc:
            return f"[policy-denied] the call cannot be decided: {exc}"
        answer = None
        if ctx.tool_call_approved:
            metadata = ctx.tool_call_metadata if isinstance(ctx.tool_call_metadata, Mapping) else {}
            who = metadata.get("approver")
            answer = Answer(True, who if isinstance(who, str) and who.strip() else self.guard.approver)
        elif self.guard.needs_person(call):
            raise ApprovalRequired(metadata=self.guard.question(call))

        async def action() -> Any:
            return await self.wrapped.call_tool(name, tool_args, ctx, tool)

        outcome = await self.guard.run(call, action, answer)
        return outcome.value if outcome.ran else outcome.text

    async def results(
        self,
        requests: DeferredToolRequests,
        *,
        approvals: Mapping[str, bool],
        approver: str,
        feedback: str | None = None,
    ) -> DeferredToolResults:
        """The person's answers as ``DeferredToolResults``; rejections are recorded now, with
        Bastion's denial as what the model reads."""
        answers: dict[str, ToolApproved | ToolDenied | bool] = {}
        metadata: dict[str, dict[str, Any]] = {}
        for part in requests.approvals:
            approve = approvals.get(part.tool_call_id)
            if approve is None:
                continue
            if approve:
                answers[part.tool_call_id] = ToolApproved()
                metadata[part.tool_call_id] = {"approver": Answer(True, approver).approver}
                continue
            try:
                call = self.guard.call(part.tool_name, part.args_as_dict())
                message = await self.guard.reject(call, Answer(False, approver, feedback))
            except (BastionError, ValueError) as exc:
                message = f"[policy-denied] rejected by {approver}: {exc}"
            answers[part.tool_call_id] = ToolDenied(message)
        return DeferredToolResults(
            approvals=dict(answers), metadata=metadata, answered_by=dict.fromkeys(answers, approver)
        )


def guard_toolset(guard: Guard, toolset: AbstractToolset[Any]) -> BastionToolset:
    return BastionToolset(toolset, guard=guard)
