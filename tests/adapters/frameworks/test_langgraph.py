"""The LangChain / LangGraph guard against the real packages: a StateGraph with a ToolNode
and a checkpointer, driven by LangChain's GenericFakeChatModel (one tool call per turn)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.types import Command

from bastion.adapters.frameworks.guard import Answer, Guard
from bastion.adapters.frameworks.langgraph import answer_of, guard_tools
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

THREAD: RunnableConfig = {"configurable": {"thread_id": "t1"}}


def asks(tools: Tools) -> Iterator[BaseMessage]:
    calls = [
        ("read", {"path": "README.md"}),
        ("write", {"path": str(tools.secret), "content": "ssh-ed25519 AAAA"}),
        ("shell", {"command": PUSH}),
    ]
    for n, (name, args) in enumerate(calls):
        yield AIMessage(
            content="", tool_calls=[{"name": name, "args": args, "id": f"c{n}", "type": "tool_call"}]
        )
    yield AIMessage(content="done")


def graph(keeper: Gatekeeper, tools: Tools) -> CompiledStateGraph[Any, Any, Any, Any]:
    model = GenericFakeChatModel(messages=asks(tools))
    wrapped = guard_tools(
        Guard(keeper, agent="langgraph"), [tool(tools.read), tool(tools.write), tool(tools.shell)]
    )

    def agent(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [model.invoke(state["messages"])]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_node("tools", ToolNode(wrapped))
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", tools_condition)
    builder.add_edge("tools", "agent")
    return builder.compile(checkpointer=InMemorySaver())


def tool_messages(out: dict[str, Any]) -> list[tuple[str, str]]:
    return [(m.status, str(m.content)) for m in out["messages"] if isinstance(m, ToolMessage)]


@pytest.fixture
def interrupted(
    keeper: Gatekeeper, tools: Tools
) -> tuple[CompiledStateGraph[Any, Any, Any, Any], dict[str, Any]]:
    app = graph(keeper, tools)
    return app, app.invoke({"messages": [("user", "push it")]}, THREAD)


def test_an_allowed_read_runs_a_denied_write_never_runs_and_an_asked_call_interrupts_the_graph(
    keeper: Gatekeeper, tools: Tools, interrupted: tuple[Any, dict[str, Any]]
) -> None:
    _, out = interrupted
    [pause] = out["__interrupt__"]
    assert pause.value == {
        "bastion": "approval",
        "tool": "shell",
        "summary": f"shell: {PUSH}",
        "reason": f"'{PUSH}' is not a recognised reader (effects: network, write): no rule allows it; a person decides",
    }
    assert tool_messages(out) == [
        ("success", "# hi\n"),
        (
            "error",
            f"[policy-denied] {tools.secret} is a credential location: never write by an agent"
            + HARDLINE_CREDENTIALS,
        ),
    ]
    assert (tools.ran, tools.secret.exists(), tools.shell_log.exists()) == (
        [("read", "README.md")],
        False,
        False,
    )
    assert rows(keeper) == READ_AND_WRITE


def test_resuming_with_an_approval_runs_the_call_and_names_the_approver(
    keeper: Gatekeeper, tools: Tools, interrupted: tuple[Any, dict[str, Any]]
) -> None:
    app, _ = interrupted
    out = app.invoke(Command(resume={"approve": True, "approver": "alice"}), THREAD)
    assert (tool_messages(out)[-1], out["messages"][-1].content) == (("success", "pushed"), "done")
    assert tools.shell_log.read_text() == PUSH + "\n"
    assert rows(keeper) == READ_AND_WRITE + SHELL_APPROVED


def test_resuming_with_a_rejection_never_runs_and_the_model_reads_the_feedback(
    keeper: Gatekeeper, tools: Tools, interrupted: tuple[Any, dict[str, Any]]
) -> None:
    app, _ = interrupted
    out = app.invoke(Command(resume={"approve": False, "approver": "alice", "feedback": "not today"}), THREAD)
    assert tool_messages(out)[-1] == (
        "error",
        "[policy-denied] denied by a person: not today" + PERSON_DENIED,
    )
    assert (tools.ran, tools.shell_log.exists()) == ([("read", "README.md")], False)
    assert rows(keeper) == READ_AND_WRITE + shell_rejected()


def test_the_async_graph_is_guarded_the_same_way(keeper: Gatekeeper, tools: Tools) -> None:
    app = graph(keeper, tools)

    async def scenario() -> dict[str, Any]:
        await app.ainvoke({"messages": [("user", "push it")]}, THREAD)
        return await app.ainvoke(Command(resume={"approve": True, "approver": "alice"}), THREAD)

    out = asyncio.run(scenario())
    assert tool_messages(out)[-1] == ("success", "pushed")
    assert rows(keeper) == READ_AND_WRITE + SHELL_APPROVED


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (True, Answer(True, "langgraph")),
        ({"approve": True}, Answer(True, "langgraph")),
        ({"approve": "yes", "approver": "bob"}, Answer(False, "bob")),
        ({"approve": True, "approver": "  "}, Answer(True, "langgraph")),
        ("approve", Answer(False, "langgraph", "the resume value str is not an answer")),
        (None, Answer(False, "langgraph", "the resume value NoneType is not an answer")),
    ],
)
def test_a_resume_value_is_an_approval_only_when_it_says_so_exactly(value: object, expected: Answer) -> None:
    assert answer_of(value, "langgraph") == expected


def test_a_tool_outside_the_alias_table_is_denied_unless_its_family_is_named(
    keeper: Gatekeeper, tools: Tools
) -> None:
    def push(command: str) -> str:
        """Push."""
        return tools.shell(command)

    unnamed = guard_tools(Guard(keeper, agent="langgraph"), [tool(push)])[0]
    named = guard_tools(Guard(keeper, agent="langgraph", families={"push": "shell"}), [tool(push)])[0]

    def call(guarded: Any) -> Any:
        return guarded.invoke(
            {"name": "push", "args": {"command": "git status"}, "id": "x", "type": "tool_call"}
        )

    assert (call(unnamed).status, call(named).content, tools.ran) == (
        "error",
        "pushed",
        [("shell", "git status")],
    )
    assert [(r[0], r[1], r[2]) for r in rows(keeper)] == [
        ("decided", "push", "deny"),
        ("decided", "shell", "allow"),
        ("executed", "shell", "allow"),
    ]


def test_a_tool_whose_family_the_policy_disables_is_left_out(no_shell: Gatekeeper, tools: Tools) -> None:
    wrapped = guard_tools(Guard(no_shell, agent="langgraph"), [tool(tools.read), tool(tools.shell)])
    assert [t.name for t in wrapped] == ["read"]
