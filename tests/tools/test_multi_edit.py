"""multi_edit: several edits to one file, all or none, decided exactly as an edit of that path."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bastion import Gate, ToolCall
from bastion.call.aliases import canonical
from tests.conftest import PolicyFactory
from tests.tools.conftest import ToolsFactory, essentials, run

SOURCE = "def f():\n    return 1\n\n\ndef g():\n    return 1\n"


@pytest.fixture
def module(workspace: Path) -> Path:
    path = workspace / "src" / "mod.py"
    path.write_text(SOURCE)
    return path


def edit(old: str, new: str, **more: Any) -> dict[str, Any]:
    return {"old_string": old, "new_string": new, **more}


def test_the_edits_apply_in_order_each_on_the_result_of_the_previous(
    make_tools: ToolsFactory, module: Path
) -> None:
    edits = [edit("def f", "def first"), edit("def first():\n    return 1", "def first():\n    return 2")]
    result = run(make_tools()["multi_edit"], {"path": "src/mod.py", "edits": edits})
    assert essentials(result) == {
        "ok": True,
        "decision": "allow",
        "exit_code": None,
        "stdout": "",
        "stderr": "",
        "truncated": False,
        "timed_out": False,
        "message": "",
        "data": {"path": str(module), "edits": 2, "replacements": [1, 1]},
    }
    assert module.read_text() == "def first():\n    return 2\n\n\ndef g():\n    return 1\n"


def test_one_edit_that_does_not_match_leaves_the_file_unchanged(
    make_tools: ToolsFactory, module: Path
) -> None:
    before = os.stat(module)
    edits = [edit("def f", "def first"), edit("absent", "x"), edit("def g", "def second")]
    result = run(make_tools()["multi_edit"], {"path": "src/mod.py", "edits": edits})
    assert (result["ok"], result["decision"], result["message"]) == (
        False,
        "allow",
        f"{module}: edit 2: old_string not found; nothing changed",
    )
    assert module.read_text() == SOURCE
    assert os.stat(module).st_ino == before.st_ino  # not even rewritten


def test_an_ambiguous_edit_fails_the_call_unless_it_says_replace_all(
    make_tools: ToolsFactory, module: Path
) -> None:
    tools = make_tools()
    ambiguous = run(tools["multi_edit"], {"path": "src/mod.py", "edits": [edit("return 1", "return 0")]})
    assert ambiguous["message"] == (
        f"{module}: edit 1: old_string found 2 times; add context to make it unique or set "
        "replace_all; nothing changed"
    )
    assert module.read_text() == SOURCE
    every = run(
        tools["multi_edit"], {"path": "src/mod.py", "edits": [edit("return 1", "return 0", replace_all=True)]}
    )
    assert (every["ok"], every["data"]["replacements"]) == (True, [2])
    assert module.read_text() == SOURCE.replace("return 1", "return 0")


def test_an_edit_that_undoes_an_earlier_one_is_seen_in_order(make_tools: ToolsFactory, module: Path) -> None:
    edits = [edit("def g", "def h"), edit("def h", "def g2")]
    assert run(make_tools()["multi_edit"], {"path": "src/mod.py", "edits": edits})["ok"] is True
    assert "def g2():" in module.read_text()


@pytest.mark.parametrize(
    ("edits", "message"),
    [
        ([], "multi_edit: argument 'edits' needs at least 1 item(s)"),
        ([{"old_string": "a"}], "multi_edit: argument 'edits'[0]: missing required argument(s): new_string"),
        ([edit("a", "b", extra=1)], "multi_edit: argument 'edits'[0]: unknown argument(s): extra"),
        (["a"], "multi_edit: argument 'edits'[0] must be of type object"),
    ],
)
def test_malformed_edits_are_refused_before_the_gate(
    make_tools: ToolsFactory, module: Path, edits: list[Any], message: str
) -> None:
    result = run(make_tools()["multi_edit"], {"path": "src/mod.py", "edits": edits})
    assert (result["ok"], result["decision"], result["message"]) == (False, "deny", message)
    assert module.read_text() == SOURCE


def test_an_empty_old_string_fails_without_writing(make_tools: ToolsFactory, module: Path) -> None:
    result = run(
        make_tools()["multi_edit"], {"path": "src/mod.py", "edits": [edit("def f", "F"), edit("", "x")]}
    )
    assert result["message"] == "edit 2: old_string must not be empty"
    assert module.read_text() == SOURCE


@pytest.mark.parametrize("path", ["~/.ssh/id_rsa", "/etc/hosts", "../outside.txt", "src/mod.py"])
def test_it_is_decided_exactly_as_an_edit_of_that_path(
    make_tools: ToolsFactory, module: Path, path: str
) -> None:
    tools = make_tools()
    as_edit = run(tools["edit"], {"path": path, **edit("x", "y")})
    as_multi = run(tools["multi_edit"], {"path": path, "edits": [edit("x", "y")]})
    assert (as_multi["decision"], as_multi["reasons"]) == (as_edit["decision"], as_edit["reasons"])


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("multi_edit", {"path": "src/mod.py", "edits": [edit("a", "b")]}),
        ("MultiEdit", {"file_path": "src/mod.py", "edits": [edit("a", "b")]}),
    ],
)
def test_tool_call_json_and_hooks_take_it_as_an_edit_of_the_path(
    make_policy: PolicyFactory, workspace: Path, tool: str, args: dict[str, Any]
) -> None:
    call = ToolCall.from_json({"tool": tool, "args": args, "cwd": str(workspace), "interactive": True})
    assert (call.tool, call.args["path"]) == ("edit", "src/mod.py")
    assert canonical(tool, args)[0] == "edit"
    gate = Gate(make_policy())
    plain = ToolCall("edit", {"path": "src/mod.py"}, cwd=str(workspace), interactive=True)
    assert gate.evaluate(call).to_json() == gate.evaluate(plain).to_json()


@pytest.mark.parametrize("tool", ["MultiEdit", "multi_edit"])
def test_a_hook_payload_for_a_multi_edit_is_one_edit_call_of_the_path(workspace: Path, tool: str) -> None:
    from bastion.adapters.hooks.translate import Context, to_calls

    key = "file_path" if tool == "MultiEdit" else "path"
    args = {key: "/etc/hosts", "edits": [edit("a", "b"), edit("c", "d")]}
    [call] = to_calls(tool, args, Context(agent="claude", cwd=str(workspace), interactive=True))
    assert (call.tool, call.args["path"], call.agent, call.interactive) == (
        "edit",
        "/etc/hosts",
        "claude",
        True,
    )
