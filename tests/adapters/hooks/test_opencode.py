"""opencode's plugin input → Bastion calls, and Bastion's verdict → the plugin's answer
(``bastion.adapters.hooks.opencode``): every tool id opencode-ai 1.18.33 registers, and
every input that must be refused rather than guessed."""

from __future__ import annotations

from typing import Any

import pytest

from bastion.adapters.hooks.opencode import PROTOCOL, translate
from bastion.adapters.hooks.protocol import Answer, Verdict
from bastion.adapters.hooks.translate import Context, UnknownTool, to_calls
from bastion.errors import CallError

CWD = "/home/u/proj"


def _calls(tool: str, args: Any) -> list[tuple[str, dict[str, Any]]]:
    name, mapped = translate(tool, args, CWD)
    return [(c.tool, dict(c.args)) for c in to_calls(name, mapped, Context("opencode", CWD))]


@pytest.mark.parametrize(
    ("tool", "args", "calls"),
    [
        ("read", {"filePath": "/home/u/proj/a.py", "limit": 5}, [("read", {"path": "/home/u/proj/a.py"})]),
        ("write", {"filePath": "b.txt", "content": "x"}, [("write", {"path": "b.txt"})]),
        (
            "edit",
            {"filePath": "/etc/hosts", "oldString": "a", "newString": "b"},
            [("edit", {"path": "/etc/hosts"})],
        ),
        (
            "glob",
            {"pattern": "**/*.py", "path": "/home/u"},
            [("glob", {"pattern": "**/*.py", "path": "/home/u"})],
        ),
        ("grep", {"pattern": "TODO", "include": "*.py"}, [("grep", {"pattern": "TODO"})]),
        ("list", {"path": "/home/u/.ssh"}, [("list", {"path": "/home/u/.ssh"})]),
        (
            "webfetch",
            {"url": "https://pypi.org/x", "format": "text"},
            [("fetch", {"url": "https://pypi.org/x"})],
        ),
        ("bash", {"command": "ls", "description": "d"}, [("shell", {"command": "ls"})]),
        (
            "apply_patch",
            {
                "patchText": "*** Begin Patch\n*** Add File: n.txt\n+x\n*** Update File: /etc/passwd\n*** End Patch"
            },
            [("write", {"path": "n.txt"}), ("edit", {"path": "/etc/passwd"})],
        ),
        ("task", {"prompt": "p", "subagent_type": "general"}, []),
        ("todowrite", {"todos": []}, []),
        ("question", {"questions": []}, []),
        ("plan_exit", {}, []),
    ],
)
def test_each_opencode_tool_becomes_the_bastion_calls_it_makes(
    tool: str, args: dict[str, Any], calls: list[tuple[str, dict[str, Any]]]
) -> None:
    found = _calls(tool, args)

    assert [
        (t, {k: v for k, v in a.items() if k in ("path", "pattern", "url", "command")}) for t, a in found
    ] == calls


def test_websearch_names_no_destination_so_it_is_an_agent_call_to_confirm() -> None:
    assert _calls("websearch", {"query": "q"}) == [("agent", {"tool": "web_search"})]


@pytest.mark.parametrize(
    "tool", ["skill", "lsp", "github_create_issue", "Bash", "read_file", "shell", "exec"]
)
def test_an_id_opencode_does_not_register_is_unknown_never_another_agents_alias(tool: str) -> None:
    with pytest.raises(UnknownTool, match=f"unknown tool 'opencode:{tool}'"):
        _calls(tool, {"command": "rm -rf ~", "filePath": "/x"})


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("read", {}, "opencode: the call has no 'filePath'"),
        ("write", {"filePath": ["a", "b"]}, "opencode: the call has no 'filePath'"),
        ("edit", {"filePath": ""}, "opencode: the call has no 'filePath'"),
        ("bash", {"cmd": "ls"}, "opencode bash: the call has no 'command'"),
        ("bash", {"command": "ls", "workdir": 3}, "opencode bash: 'workdir' must be a string"),
        ("grep", {"path": "/"}, "opencode grep: the call has no 'pattern'"),
        ("webfetch", {"url": 7}, "opencode webfetch: the call has no 'url'"),
        ("list", {"path": None}, "opencode list: 'path' must be a string"),
        ("read", ["/etc/passwd"], "opencode read: the tool input must be an object"),
    ],
)
def test_a_malformed_call_is_an_input_error_never_a_guess(tool: str, args: Any, message: str) -> None:
    with pytest.raises(CallError) as raised:
        translate(tool, args, CWD)

    assert str(raised.value) == message


def test_a_bash_workdir_becomes_a_leading_cd_so_the_decision_sees_where_it_runs() -> None:
    assert translate("bash", {"command": "rm -rf build", "workdir": "../other"}, CWD) == (
        "bash",
        {"command": "cd /home/u/other && rm -rf build", "workdir": "../other"},
    )
    assert (
        translate("bash", {"command": "ls", "workdir": "/tmp/a b"}, CWD)[1]["command"]
        == "cd '/tmp/a b' && ls"
    )
    assert translate("bash", {"command": "ls", "workdir": "."}, CWD) == (
        "bash",
        {"command": "ls", "workdir": "."},
    )


def _payload(**extra: Any) -> dict[str, Any]:
    return {
        "hook_event_name": "tool.execute.before",
        "cwd": CWD,
        "session_id": "ses_1",
        "tool_use_id": "call_1",
        "tool_name": "read",
        "tool_input": {"filePath": "a.txt"},
        **extra,
    }


def test_the_plugin_input_reads_as_a_call_with_its_session_and_call_ids() -> None:
    request = PROTOCOL.parse(_payload(), {"BASTION_HOOK_INTERACTIVE": "1"})

    assert (request.event, request.tool, request.args, request.tool_use_id) == (
        "PreToolUse",
        "read",
        {"path": "a.txt"},
        "call_1",
    )
    assert request.ctx == Context("opencode", CWD, session="ses_1", interactive=True)


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ([], "the hook input must be a JSON object"),
        (
            _payload(hook_event_name="tool.execute.after"),
            "opencode: unsupported hook event 'tool.execute.after'",
        ),
        (_payload(cwd="relative"), "the hook input has no absolute 'cwd'"),
        (_payload(cwd=None), "the hook input has no absolute 'cwd'"),
        (_payload(tool_name=""), "the hook input names no tool"),
        (_payload(tool_name=["read"]), "the hook input names no tool"),
    ],
)
def test_a_malformed_plugin_input_is_refused(payload: Any, message: str) -> None:
    with pytest.raises(CallError) as raised:
        PROTOCOL.parse(payload, {})

    assert str(raised.value) == message


def test_nobody_is_known_to_be_there_unless_the_person_says_so() -> None:
    assert PROTOCOL.parse(_payload(), {}).ctx.interactive is None


@pytest.mark.parametrize(
    ("verdict", "answer"),
    [
        (Verdict("allow", "fine"), Answer('{"decision":"allow","reason":"fine"}\n', "", 0)),
        (Verdict("deny", "no"), Answer('{"decision":"deny","reason":"no"}\n', "Bastion: no\n", 2)),
        (Verdict("ask", "who?"), Answer('{"decision":"deny","reason":"who?"}\n', "Bastion: who?\n", 2)),
        (
            Verdict("allow", "ok", updated_input={"command": "bastion sandbox run -- bash -c ls"}),
            Answer(
                '{"decision":"allow","reason":"ok","args":{"command":"bastion sandbox run -- bash -c ls"}}\n',
                "",
                0,
            ),
        ),
        (
            Verdict("deny", "no", updated_input={"command": "x"}),
            Answer('{"decision":"deny","reason":"no"}\n', "Bastion: no\n", 2),
        ),
        (
            Verdict("allow", "ok", "permission.asked"),
            Answer('{"reply":"once","decision":"allow","reason":"ok"}\n', "", 0),
        ),
        (
            Verdict("ask", "who?", "permission.asked"),
            Answer('{"reply":"reject","decision":"deny","reason":"who?"}\n', "Bastion: who?\n", 2),
        ),
    ],
)
def test_the_answer_is_allow_or_deny_only_opencode_has_no_prompt_for_a_plugin(
    verdict: Verdict, answer: Answer
) -> None:
    assert PROTOCOL.render(verdict) == answer
