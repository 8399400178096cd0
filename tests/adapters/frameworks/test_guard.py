"""The guard every framework adapter shares: one Gatekeeper, answers bound to a named
approver, a DENY that no answer loosens, Bastion's own queue as the other way to ask."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion.adapters.frameworks.guard import Answer, Asks, Guard, Outcome
from bastion.approval.model import ApprovalRequest, PermissionDecision
from bastion.configuration import Configuration
from bastion.construct import open_gatekeeper
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision
from bastion.runtime import Gatekeeper
from tests.adapters.frameworks.conftest import PUSH, Tools, rows


def run(guard: Guard, tools: Tools, name: str, answer: Answer | None = None, **args: str) -> Outcome:
    action = getattr(tools, name)

    async def go() -> str:
        return str(action(**args))

    return asyncio.run(guard.run(guard.call(name, args), go, answer))


@pytest.mark.parametrize("approver", ["", "   "])
def test_an_answer_needs_a_named_approver(approver: str) -> None:
    with pytest.raises(ValueError, match="needs an approver"):
        Answer(True, approver)


def test_a_person_s_approval_never_loosens_a_deny(keeper: Gatekeeper, tools: Tools) -> None:
    guard = Guard(keeper, agent="test")
    outcome = run(guard, tools, "write", Answer(True, "alice"), path=str(tools.secret), content="x")
    assert (outcome.ran, outcome.evaluation.decision, tools.ran) == (False, Decision.DENY, [])
    assert [r[:5] for r in rows(keeper)] == [("decided", "write", "deny", "policy", None)]


def test_an_ask_is_for_the_framework_to_put_to_a_person_and_nothing_is_recorded_yet(
    keeper: Gatekeeper, tools: Tools
) -> None:
    guard = Guard(keeper, agent="test")
    call = guard.call("shell", {"command": PUSH})
    assert (guard.needs_person(call), guard.question(call)["summary"], rows(keeper)) == (
        True,
        f"shell: {PUSH}",
        [],
    )


def test_with_asks_bastion_an_ask_parks_in_the_queue_and_its_answer_decides(
    policy: Policy, env: dict[str, str], tools: Tools
) -> None:
    asked: list[str] = []

    def on_permission(request: ApprovalRequest) -> PermissionDecision:
        asked.append(request.summary)
        return PermissionDecision("once")

    with open_gatekeeper(Configuration(policy), env, on_permission=on_permission) as keeper:
        guard = Guard(keeper, agent="test", asks=Asks.BASTION)
        assert guard.needs_person(guard.call("shell", {"command": PUSH})) is False
        outcome = run(guard, tools, "shell", command=PUSH)
        assert (outcome.ran, outcome.value, asked) == (True, "pushed", [f"shell: {PUSH}"])
        assert [r[:5] for r in rows(keeper)] == [
            ("requested", "shell", "ask", "policy", None),
            ("resolved", "shell", "allow", "callback", "callback"),
            ("executed", "shell", "allow", "callback", None),
        ]


def test_a_non_interactive_guard_refuses_an_ask_without_asking_anyone(
    keeper: Gatekeeper, tools: Tools
) -> None:
    guard = Guard(keeper, agent="test", interactive=False)
    assert guard.needs_person(guard.call("shell", {"command": PUSH})) is False
    outcome = run(guard, tools, "shell", command=PUSH)
    assert (outcome.ran, outcome.evaluation.decision, tools.ran) == (False, Decision.DENY, [])
    assert outcome.text.startswith(f"'{PUSH}' is not a recognised reader")


def test_a_tool_that_raises_is_recorded_as_failed_and_the_error_reaches_the_framework(
    keeper: Gatekeeper, tools: Tools
) -> None:
    guard = Guard(keeper, agent="test")
    with pytest.raises(FileNotFoundError):
        run(guard, tools, "read", path="missing.txt")
    assert [(r[0], r[6]) for r in rows(keeper)] == [("decided", None), ("executed", 1)]


def test_a_rejection_stands_even_when_the_call_no_longer_asks(keeper: Gatekeeper) -> None:
    guard = Guard(keeper, agent="test")
    text = asyncio.run(guard.reject(guard.call("read", {"path": "README.md"}), Answer(False, "alice", "no")))
    assert text == "[policy-denied] rejected by alice: no"


def test_importing_bastion_and_the_shared_guard_needs_no_framework(tmp_path: Path) -> None:
    code = (
        "import sys, bastion, bastion.adapters.frameworks, bastion.adapters.frameworks.guard; "
        "print([m for m in ('agents', 'langchain_core', 'langgraph', 'pydantic_ai') if m in sys.modules])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert out.stdout == "[]\n"


def test_a_guard_works_in_the_policy_s_workspace_unless_told_otherwise(
    keeper: Gatekeeper, workspace: Path
) -> None:
    assert Guard(keeper, agent="test").call("read", {"path": "a"}).cwd == str(workspace)
    assert Guard(keeper, agent="test", cwd="/srv").call("read", {"path": "a"}).cwd == "/srv"


def test_a_disabled_family_is_not_offered_but_a_tool_of_no_known_family_stays_listed(
    no_shell: Gatekeeper,
) -> None:
    guard = Guard(no_shell, agent="test", families={"deploy": "shell"})
    assert [guard.offered(n) for n in ("read", "shell", "Bash", "deploy", "frobnicate")] == [
        True,
        False,
        False,
        False,
        True,
    ]


@pytest.mark.parametrize(
    ("policy_text", "offered"),
    [
        ('mode = "read-only"\n', [True, False, False, False, True]),
        ('enabled = ["read", "exec"]\n', [True, False, True, True, True]),
        ('enabled = ["read"]\n', [True, False, False, False, True]),
    ],
)
def test_the_guards_schema_follows_the_mode_and_enabled_like_bastion_tools(
    make_policy: Callable[..., Policy], env: dict[str, str], policy_text: str, offered: list[bool]
) -> None:
    with open_gatekeeper(Configuration(make_policy(policy_text)), env) as keeper:
        guard = Guard(keeper, agent="test", families={"deploy": "shell"})
        names = ("read", "write", "Bash", "deploy", "frobnicate")
        assert [guard.offered(n) for n in names] == offered


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("read", {"path": "../.ssh/id_rsa"}),
        ("read", {"path": "~/.ssh/id_rsa"}),
        ("read", {"path": "link-to-key"}),
        ("read_file", {"absolute_path": "../.SSH/id_rsa"}),
        ("Read", {"file_path": "../.ssh/id_rsa"}),
        ("read", {}),
        ("read", {"path": ["README.md", "../.ssh/id_rsa"]}),
        ("shell", {"command": "cat ~/.ssh/id_rsa"}),
        ("Bash", {"command": "cat README.md; cat ../.ssh/id_rsa"}),
        ("shell", {}),
    ],
)
def test_a_call_that_reaches_a_credential_or_cannot_be_read_never_runs_whatever_a_person_answers(
    keeper: Gatekeeper, workspace: Path, home: Path, tool: str, args: dict[str, object]
) -> None:
    (workspace / "link-to-key").symlink_to(home / ".ssh" / "id_rsa")
    ran: list[str] = []

    async def action() -> str:
        ran.append(tool)
        return "leaked"

    guard = Guard(keeper, agent="test")
    outcome = asyncio.run(guard.run(guard.call(tool, args), action, Answer(True, "alice")))
    assert (outcome.ran, outcome.evaluation.decision, ran) == (False, Decision.DENY, [])
    assert [r[2] for r in rows(keeper)][-1] == "deny"
