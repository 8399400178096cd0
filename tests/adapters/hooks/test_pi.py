"""pi's translation module: pi's tool names and inputs as Bastion calls, the answer the
extension reads, and the seed-004 policy forms deciding the same way through pi."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bastion.adapters.hooks.decide import LocalDecider, Options
from bastion.adapters.hooks.pi import PROTOCOL, _listed_commands, translate
from bastion.adapters.hooks.protocol import PRE_TOOL_USE, HookRequest, Verdict
from bastion.adapters.hooks.translate import Context
from bastion.errors import CallError
from bastion.evidence.imports import seeds
from bastion.evidence.imports.detect import loose_json
from tests.adapters.hooks.conftest import Sandbox, run_hook


@pytest.mark.parametrize(
    ("tool", "given", "expected"),
    [
        ("bash", {"command": "ls"}, ("shell", {"command": "ls"})),
        ("bash", {"command": "sleep 1", "timeout": 30}, ("shell", {"command": "sleep 1", "timeout": 30000})),
        ("read", {"path": "a.txt", "offset": 3, "limit": 9}, ("read", {"path": "a.txt"})),
        ("write", {"path": "a.txt", "content": "x"}, ("write", {"path": "a.txt"})),
        ("edit", {"path": "a.txt", "edits": [{"oldText": "a", "newText": "b"}]}, ("edit", {"path": "a.txt"})),
        ("grep", {"pattern": "TODO"}, ("grep", {"pattern": "TODO", "path": "."})),
        (
            "grep",
            {"pattern": "x", "path": "src", "glob": "*.py"},
            ("grep", {"pattern": "x", "path": "src", "glob": "*.py"}),
        ),
        ("find", {"pattern": "*.ts"}, ("glob", {"pattern": "*.ts", "path": "."})),
        ("ls", {}, ("list", {"path": "."})),
        ("ls", {"path": "~/x", "limit": 5}, ("list", {"path": "~/x"})),
    ],
)
def test_each_pi_tool_becomes_its_bastion_family(tool: str, given: dict[str, Any], expected: Any) -> None:
    assert translate(tool, given) == expected


@pytest.mark.parametrize(
    ("given", "path"),
    [
        ("@~/.ssh/id_rsa", "~/.ssh/id_rsa"),
        ("@@x", "@x"),  # pi drops one '@', as its expandPath does
        ("~/.ssh/id\u00a0rsa", "~/.ssh/id rsa"),
        ("a\u202fb\u3000c", "a b c"),
    ],
)
def test_a_path_is_read_as_pi_reads_it(given: str, path: str) -> None:
    assert translate("read", {"path": given}) == ("read", {"path": path})


@pytest.mark.parametrize(
    ("tool", "given", "message"),
    [
        ("read", {}, "pi read: 'path' must be a non-empty string"),
        ("read", {"path": ""}, "pi read: 'path' must be a non-empty string"),
        ("write", {"path": ["a"]}, "pi write: 'path' must be a non-empty string"),
        ("ls", {"path": 3}, "pi ls: 'path' must be a non-empty string"),
        ("grep", {"path": "."}, "pi grep: 'pattern' must be a string"),
        ("bash", {"command": ["rm", "-rf", "/"]}, "pi bash: 'command' must be a string"),
        ("bash", {"command": "ls", "timeout": "9"}, "pi bash: 'timeout' must be a number of seconds"),
        ("bash", {"command": "ls", "timeout": True}, "pi bash: 'timeout' must be a number of seconds"),
        ("bash", "ls", "pi bash: the tool input must be an object"),
    ],
)
def test_a_malformed_input_is_an_error_never_a_call(tool: str, given: Any, message: str) -> None:
    with pytest.raises(CallError) as info:
        translate(tool, given)
    assert str(info.value) == message


@pytest.mark.parametrize("tool", ["Task", "TodoWrite", "read_file", "mcp__files__read", "shell", "exec"])
def test_any_other_tool_name_is_unknown_whatever_another_agent_means_by_it(tool: str) -> None:
    assert translate(tool, {"path": "x"}) == (f"pi:{tool}", {"path": "x"})


def _event(sandbox: Sandbox, tool: str, given: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "toolName": tool,
        "toolCallId": "toolu_1",
        "input": given,
        "cwd": str(sandbox.project),
        "sessionId": "s1",
        "hasUI": False,
        **extra,
    }


def test_the_event_becomes_a_request_with_pis_session_and_call_id(sandbox: Sandbox) -> None:
    request = PROTOCOL.parse(_event(sandbox, "read", {"path": "a"}), {})

    assert request == HookRequest(
        PRE_TOOL_USE,
        "read",
        {"path": "a"},
        Context(agent="pi", cwd=str(sandbox.project), session="s1", interactive=False),
        tool_use_id="toolu_1",
    )


@pytest.mark.parametrize(
    ("has_ui", "env", "interactive"),
    [(True, {}, True), (False, {}, False), (False, {"BASTION_HOOK_INTERACTIVE": "1"}, True)],
)
def test_a_person_is_there_when_pi_has_a_dialog_or_the_person_said_so(
    sandbox: Sandbox, has_ui: bool, env: dict[str, str], interactive: bool
) -> None:
    request = PROTOCOL.parse(_event(sandbox, "read", {"path": "a"}, hasUI=has_ui), env)
    assert request.ctx.interactive is interactive


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ([], "the hook input must be a JSON object"),
        ({"toolName": "read", "input": {"path": "a"}, "cwd": "rel"}, "the hook input has no absolute 'cwd'"),
        ({"input": {}, "cwd": "/w"}, "the hook input names no tool"),
        (
            {"toolName": "read", "input": {"path": "a"}, "cwd": "/w", "hasUI": "yes"},
            "pi: 'hasUI' must be true or false",
        ),
    ],
)
def test_a_malformed_event_is_refused(payload: Any, message: str) -> None:
    with pytest.raises(CallError) as info:
        PROTOCOL.parse(payload, {})
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("verdict", "stdout", "code"),
    [
        (Verdict("allow", "fine"), {"decision": "allow", "reason": "fine"}, 0),
        (Verdict("ask", "a person decides"), {"decision": "ask", "reason": "a person decides"}, 3),
        (Verdict("deny", "no"), {"decision": "deny", "reason": "no"}, 2),
        (Verdict("defer", "?"), {"decision": "deny", "reason": "?"}, 2),
        (
            Verdict("allow", "ok", updated_input={"command": "bastion sandbox run -- ls", "timeout": 5000}),
            {"decision": "allow", "reason": "ok", "input": {"command": "bastion sandbox run -- ls"}},
            0,
        ),
        (
            Verdict("deny", "no", updated_input={"command": "bastion sandbox run -- ls"}),
            {"decision": "deny", "reason": "no"},
            2,
        ),
    ],
)
def test_the_answer_says_the_decision_twice_and_rewrites_only_the_command(
    verdict: Verdict, stdout: dict[str, Any], code: int
) -> None:
    answer = PROTOCOL.render(verdict)

    assert (json.loads(answer.stdout), answer.exit_code) == (stdout, code)
    assert answer.stderr == (f"Bastion: {verdict.reason}\n" if code == 2 else "")


def test_the_hook_denies_an_unknown_tool_on_the_wire(sandbox: Sandbox) -> None:
    payload = json.dumps(_event(sandbox, "Task", {"prompt": "rm -rf ~"}))

    answer = run_hook("pi", payload, sandbox.env(BASTION_HOOK_AUTOSTART="0"))

    assert (answer.exit_code, answer.json["decision"]) == (2, "deny")
    assert "unknown tool 'pi:Task'" in answer.json["reason"]


# -- seed 004: the gate's own policy forms, imported, decide the same way through pi ------------

SEED_004 = """{
  "permissions": {
    "default": "ask",
    "rules": [
      { "tool": "read", "action": "allow" },
      { "tool": "ls", "action": "allow" },
      { "tool": "bash", "action": "classify" }, // read-only bash runs free
      { "tool": "bash", "pattern": "*rm -rf*", "action": "deny" }, // never, no prompt
    ],
  },
}"""


def _through_pi(sandbox: Sandbox, permissions: Any, calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
    imported = seeds.import_gate(permissions, "agent.json")
    policy = sandbox.home / ".config" / "bastion" / "policy.toml"
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text(imported.toml())
    env = sandbox.env()
    decided = []
    for n, (tool, given) in enumerate(calls):
        # a session per call: one call's denial does not count toward another's repeat guard
        event = _event(sandbox, tool, given, hasUI=True, sessionId=f"seed-{n}")
        verdict = LocalDecider().decide(PROTOCOL.parse(event, env), PROTOCOL, Options(env=env))
        decided.append(verdict.decision)
    return decided


def test_the_seed_004_policy_decides_pis_calls_as_the_gate_would(sandbox: Sandbox) -> None:
    (sandbox.project / "README.md").write_text("hi\n")
    calls = [
        ("read", {"path": "README.md"}),
        ("ls", {}),
        ("bash", {"command": "ls -la"}),
        ("bash", {"command": "git status"}),
        ("bash", {"command": "rm -rf build"}),
        ("bash", {"command": "cd / && rm -rf x"}),
        ("bash", {"command": "npm install"}),
        ("write", {"path": "a.txt", "content": "x"}),
        ("edit", {"path": "README.md", "edits": [{"oldText": "hi", "newText": "ho"}]}),
    ]

    decided = _through_pi(sandbox, loose_json(SEED_004)["permissions"], calls)

    assert decided == ["allow", "allow", "allow", "allow", "deny", "deny", "ask", "ask", "ask"]


def test_the_seed_004_readonly_form_leaves_pi_only_its_read_only_tools(sandbox: Sandbox) -> None:
    (sandbox.project / "README.md").write_text("hi\n")
    calls = [
        ("read", {"path": "README.md"}),
        ("grep", {"pattern": "hi"}),
        ("find", {"pattern": "*.md"}),
        ("ls", {}),
        ("bash", {"command": "ls"}),
        ("write", {"path": "a.txt", "content": "x"}),
        ("edit", {"path": "README.md", "edits": [{"oldText": "hi", "newText": "ho"}]}),
    ]

    decided = _through_pi(sandbox, "readonly", calls)

    assert decided == ["allow", "allow", "allow", "allow", "deny", "deny", "deny"]


def test_the_seed_004_ask_form_pauses_every_pi_call(sandbox: Sandbox) -> None:
    (sandbox.project / "README.md").write_text("hi\n")
    calls = [
        ("read", {"path": "README.md"}),
        ("ls", {}),
        ("bash", {"command": "ls"}),
        ("write", {"path": "a"}),
    ]

    decided = _through_pi(sandbox, "ask", calls)

    assert decided == ["ask", "ask", "ask", "ask"]


def _rpc_answer(*commands: tuple[str, str]) -> str:
    listed = [{"name": n, "source": "extension", "sourceInfo": {"path": p}} for n, p in commands]
    other = json.dumps({"type": "extension_ui_request", "id": "x", "method": "notify"})
    answer = json.dumps({"id": "bastion-doctor", "type": "response", "data": {"commands": listed}})
    return f"{other}\nnot json\n{answer}\n"


def test_pi_lists_the_files_bastions_command_comes_from_numbered_when_two_register_it() -> None:
    stdout = _rpc_answer(("bastion:1", "/p/.pi/extensions/bastion.ts"), ("bastion:2", "/h/.pi/agent/extensions/bastion.ts"),
                         ("bastionx", "/other.ts"), ("bastion:x", "/other2.ts"), ("review", "/p/.pi/extensions/review.ts"))  # fmt: skip

    assert _listed_commands(stdout) == {"/p/.pi/extensions/bastion.ts", "/h/.pi/agent/extensions/bastion.ts"}
    assert _listed_commands(_rpc_answer(("bastion", "/p/b.ts"))) == {"/p/b.ts"}
    assert _listed_commands(_rpc_answer()) == set()
    assert _listed_commands('{"id": "other"}\n') is None


@pytest.mark.parametrize(
    ("tool", "given"),
    [
        ("write", {"path": ".pi/extensions/evil.ts", "content": "export default () => {}"}),
        ("write", {"path": ".pi/settings.json", "content": '{"extensions": ["-extensions/bastion.ts"]}'}),
        (
            "edit",
            {"path": ".pi/extensions/bastion.ts", "edits": [{"oldText": "block: true", "newText": "x"}]},
        ),
        ("write", {"path": "~/.pi/agent/models.json", "content": "{}"}),
        ("write", {"path": "~/.pi/agent/extensions/index.ts", "content": "export default () => {}"}),
        ("bash", {"command": "rm .pi/extensions/bastion.ts"}),
        ("bash", {"command": "echo 'bastion.ts' > .pi/extensions/.gitignore"}),
    ],
)
def test_nothing_pi_runs_unasked_may_change_what_pi_loads(
    sandbox: Sandbox, tool: str, given: dict[str, Any]
) -> None:
    """The record puts ``.pi`` on the hard line: Bastion's own extension, the settings that
    hide it and the models pi trusts are a person's to change, and nobody is there to ask."""
    env = sandbox.env()
    event = _event(sandbox, tool, given, sessionId=f"pi-own-{tool}")

    verdict = LocalDecider().decide(PROTOCOL.parse(event, env), PROTOCOL, Options(env=env))

    assert verdict.decision == "deny"
    assert "nobody can be asked" in verdict.reason
