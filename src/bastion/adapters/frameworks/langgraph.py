"""The LangChain / LangGraph guard (``pip install 'bastion[langgraph]'``): ``BaseTool``s whose
every call Bastion decides.

``guard_tools(guard, tools)`` wraps each tool in a :class:`GuardedTool` with the same name,
description and argument schema. A call the Gatekeeper allows runs the original tool; a
refusal is raised as a ``ToolException``, which the tool turns into an error ``ToolMessage``
carrying the reason (marker first), so the model reads why and the tool never ran. A call
that asks calls LangGraph's ``interrupt()`` with the question (inside a graph with a
checkpointer, e.g. in a ``ToolNode``); resume it with ``Command(resume={"approve": True,
"approver": "alice"})`` (or ``False`` plus ``"feedback"``): the node runs again, the call is
decided again and the answer resolves it, recorded with the approver. A bare ``True`` or
``False`` counts as the guard's approver; anything else is a rejection.

LangChain and LangGraph are imported here only: ``import bastion`` never needs them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForToolRun, CallbackManagerForToolRun
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, ToolException
from langgraph.types import interrupt
from pydantic import ConfigDict, SkipValidation

from bastion.adapters.frameworks.guard import Answer, Guard, Outcome
from bastion.call.model import ToolCall
from bastion.errors import BastionError


def answer_of(value: object, approver: str) -> Answer:
    """The resume value as a person's answer; anything but an explicit approval rejects."""
    if isinstance(value, Answer):
        return value
    if isinstance(value, bool):
        return Answer(value, approver)
    if isinstance(value, Mapping):
        who = value.get("approver")
        feedback = value.get("feedback")
        return Answer(
            value.get("approve") is True,
            who if isinstance(who, str) and who.strip() else approver,
            feedback if isinstance(feedback, str) else None,
        )
    return Answer(False, approver, f"the resume value {type(value).__name__} is not an answer")


class GuardedTool(BaseTool):
    """``inner`` behind Bastion's gate (one Gatekeeper for every tool of the graph)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    inner: SkipValidation[BaseTool]
    guard: SkipValidation[Guard]
    family: str | None = None
    handle_tool_error: bool = True

    def _call(self, kwargs: Mapping[str, Any]) -> ToolCall:
        return self.guard.call(self.family or self.name, kwargs)

    def _answer(self, call: ToolCall) -> Answer | None:
        """Pauses the graph the first time; on resume, the person's answer."""
        if not self.guard.needs_person(call):
            return None
        return answer_of(interrupt(self.guard.question(call)), self.guard.approver)

    @staticmethod
    def _result(outcome: Outcome) -> Any:
        if not outcome.ran:
            raise ToolException(outcome.text)
        return outcome.value

    def _run(
        self,
        *args: Any,
        config: RunnableConfig,
        run_manager: CallbackManagerForToolRun | None = None,
        **kwargs: Any,
    ) -> Any:
        try:
            call = self._call(kwargs)
        except BastionError as exc:
            raise ToolException(f"[policy-denied] the call cannot be decided: {exc}") from exc
        answer = self._answer(call)
        return self._result(self.guard.run_sync(call, lambda: self.inner.invoke(kwargs, config), answer))

    async def _arun(
        self,
        *args: Any,
        config: RunnableConfig,
        run_manager: AsyncCallbackManagerForToolRun | None = None,
        **kwargs: Any,
    ) -> Any:
        try:
            call = self._call(kwargs)
        except BastionError as exc:
            raise ToolException(f"[policy-denied] the call cannot be decided: {exc}") from exc
        answer = self._answer(call)

        async def action() -> Any:
            return await self.inner.ainvoke(kwargs, config)

        return self._result(await self.guard.run(call, action, answer))


def guard_tool(guard: Guard, tool: BaseTool, *, family: str | None = None) -> GuardedTool:
    """``tool`` behind the gate; ``family`` names its Bastion family when its name is not one."""
    return GuardedTool(
        name=tool.name,
        description=tool.description,
        args_schema=tool.args_schema,
        return_direct=tool.return_direct,
        inner=tool,
        guard=guard,
        family=family,
    )


def guard_tools(guard: Guard, tools: Sequence[BaseTool]) -> list[GuardedTool]:
    """The tools the policy offers, each behind the gate (a disabled family is left out)."""
    return [guard_tool(guard, tool) for tool in tools if guard.offered(tool.name)]
