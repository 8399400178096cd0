"""The PydanticAI guard against the real package: an Agent over a FunctionModel (one tool call
per turn), the guarded toolset wrapping a FunctionToolset, asks as deferred tool calls."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.run import AgentRunResult
from pydantic_ai.tools import DeferredToolRequests, DeferredToolResults
from pydantic_ai.toolsets import FunctionToolset

from bastion.adapters.frameworks.guard import Guard
from bastion.adapters.frameworks.pydantic_ai import BastionToolset, guard_toolset
from bastion.runtime import Gatekeeper
from tests.adapters.frameworks.conftest import (
    HARDLINE_CREDENTIALS,
    PERSON_DENIED,
    PUSH,
    READ_AND_WRITE,
    SHELL_APPROVED,
    Tools,
    rows,
    shell_rejected,
)

Run = AgentRunResult[str | DeferredToolRequests]


def model(tools: Tools) -> FunctionModel:
    script = [
        ToolCallPart("read", {"path": "README.md"}, tool_call_id="c1"),
        ToolCallPart("write", {"path": str(tools.secret), "content": "ssh-ed25519 AAAA"}, tool_call_id="c2"),
        ToolCallPart("shell", {"command": PUSH}, tool_call_id="c3"),
    ]

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=[script.pop(0)] if script else [TextPart("done")])

    return FunctionModel(respond)


def build(keeper: Gatekeeper, tools: Tools) -> tuple[BastionToolset, Agent[None, str | DeferredToolRequests]]:
    toolset = guard_toolset(
        Guard(keeper, agent="pydantic-ai"), FunctionToolset([tools.read, tools.write, tools.shell])
    )
    agent: Agent[None, str | DeferredToolRequests] = Agent(
        model(tools), toolsets=[toolset], output_type=[str, DeferredToolRequests]
    )
    return toolset, agent


def returns(result: Run) -> list[str]:
    return [
        str(part.content)
        for message in result.all_messages()
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]


@pytest.fixture
def deferred(keeper: Gatekeeper, tools: Tools) -> tuple[BastionToolset, Agent[None, Any], Run]:
    toolset, agent = build(keeper, tools)
    return toolset, agent, asyncio.run(agent.run("push it"))


def resume(agent: Agent[None, Any], first: Run, results: DeferredToolResults) -> Run:
    return asyncio.run(agent.run(message_history=first.all_messages(), deferred_tool_results=results))


def test_an_allowed_read_runs_a_denied_write_never_runs_and_an_asked_call_is_deferred(
    keeper: Gatekeeper, tools: Tools, deferred: tuple[Any, Any, Run]
) -> None:
    _, _, result = deferred
    assert isinstance(result.output, DeferredToolRequests)
    [asked] = result.output.approvals
    assert (asked.tool_name, asked.args, result.output.metadata["c3"]["summary"]) == (
        "shell",
        {"command": PUSH},
        f"shell: {PUSH}",
    )
    assert returns(result) == [
        "# hi\n",
        f"[policy-denied] {tools.secret} is a credential location: never write by an agent"
        + HARDLINE_CREDENTIALS,
    ]
    assert (tools.ran, tools.secret.exists(), tools.shell_log.exists()) == (
        [("read", "README.md")],
        False,
        False,
    )
    assert rows(keeper) == READ_AND_WRITE


def test_an_approved_deferred_call_runs_on_the_next_run_and_names_the_approver(
    keeper: Gatekeeper, tools: Tools, deferred: tuple[BastionToolset, Any, Run]
) -> None:
    toolset, agent, first = deferred
    assert isinstance(first.output, DeferredToolRequests)
    results = asyncio.run(toolset.results(first.output, approvals={"c3": True}, approver="alice"))
    second = resume(agent, first, results)
    assert (second.output, returns(second)[-1], tools.shell_log.read_text()) == (
        "done",
        "pushed",
        PUSH + "\n",
    )
    assert rows(keeper) == READ_AND_WRITE + SHELL_APPROVED


def test_an_approval_without_a_name_counts_as_the_guard_s_approver(
    keeper: Gatekeeper, tools: Tools, deferred: tuple[BastionToolset, Any, Run]
) -> None:
    _, agent, first = deferred
    resume(agent, first, DeferredToolResults(approvals={"c3": True}))
    assert tools.ran[-1] == ("shell", PUSH)
    assert rows(keeper)[-2][3:5] == ("person", "pydantic-ai")


def test_a_rejected_deferred_call_never_runs_and_the_model_reads_the_feedback(
    keeper: Gatekeeper, tools: Tools, deferred: tuple[BastionToolset, Any, Run]
) -> None:
    toolset, agent, first = deferred
    assert isinstance(first.output, DeferredToolRequests)
    results = asyncio.run(
        toolset.results(first.output, approvals={"c3": False}, approver="alice", feedback="not today")
    )
    second = resume(agent, first, results)
    assert (returns(second)[-1], second.output) == (
        "[policy-denied] denied by a person: not today" + PERSON_DENIED,
        "done",
    )
    assert (tools.ran, tools.shell_log.exists()) == ([("read", "README.md")], False)
    assert rows(keeper) == READ_AND_WRITE + shell_rejected()


def test_a_tool_whose_family_the_policy_disables_is_absent_from_what_the_model_sees(
    no_shell: Gatekeeper, tools: Tools
) -> None:
    seen: list[list[str]] = []

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append([t.name for t in info.function_tools])
        return ModelResponse(parts=[TextPart("done")])

    toolset = guard_toolset(Guard(no_shell, agent="pydantic-ai"), FunctionToolset([tools.read, tools.shell]))
    asyncio.run(Agent(FunctionModel(respond), toolsets=[toolset]).run("go"))
    assert seen == [["read"]]
