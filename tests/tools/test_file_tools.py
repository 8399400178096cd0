"""read, write, edit, list: in-process, after the gate."""

from __future__ import annotations

from pathlib import Path

from tests.tools.conftest import ToolsFactory, essentials, run


def test_read_returns_the_file_text(make_tools: ToolsFactory, workspace: Path) -> None:
    result = run(make_tools()["read"], {"path": "README.md"})
    assert essentials(result) == {
        "ok": True,
        "decision": "allow",
        "exit_code": None,
        "stdout": "# hi\n",
        "stderr": "",
        "truncated": False,
        "timed_out": False,
        "message": "",
        "data": {"path": str(workspace / "README.md"), "lines": 1},
    }


def test_read_selects_lines(make_tools: ToolsFactory, workspace: Path) -> None:
    (workspace / "n.txt").write_text("1\n2\n3\n4\n")
    result = run(make_tools()["read"], {"path": "n.txt", "start_line": 2, "max_lines": 2})
    assert result["stdout"] == "2\n3\n"


def test_reading_the_ssh_key_is_denied_and_nothing_is_returned(make_tools: ToolsFactory) -> None:
    result = run(make_tools()["read"], {"path": "~/.ssh/id_rsa"})
    assert (result["ok"], result["decision"], result["stdout"]) == (False, "deny", "")
    assert "credential location" in result["message"]


def test_write_creates_the_file_and_its_parents(make_tools: ToolsFactory, workspace: Path) -> None:
    result = run(make_tools()["write"], {"path": "new/dir/f.txt", "content": "x = 1\n"})
    assert (result["ok"], result["data"]) == (
        True,
        {"path": str(workspace / "new/dir/f.txt"), "bytes": 6, "created": True},
    )
    assert (workspace / "new/dir/f.txt").read_text() == "x = 1\n"


def test_edit_with_one_match_replaces_it(make_tools: ToolsFactory, workspace: Path) -> None:
    result = run(
        make_tools()["edit"], {"path": "src/app.py", "old_string": "print(1)", "new_string": "print(2)"}
    )
    assert (result["ok"], result["data"]["replacements"]) == (True, 1)
    assert (workspace / "src/app.py").read_text() == "print(2)\n"


def test_edit_with_no_match_fails_and_changes_nothing(make_tools: ToolsFactory, workspace: Path) -> None:
    result = run(make_tools()["edit"], {"path": "src/app.py", "old_string": "absent", "new_string": "x"})
    assert (result["ok"], result["decision"]) == (False, "allow")
    assert result["message"] == f"{workspace}/src/app.py: old_string not found; nothing changed"
    assert (workspace / "src/app.py").read_text() == "print(1)\n"


def test_edit_with_two_matches_fails_unless_replace_all(make_tools: ToolsFactory, workspace: Path) -> None:
    (workspace / "twice.txt").write_text("a b a\n")
    edit = make_tools()["edit"]
    refused = run(edit, {"path": "twice.txt", "old_string": "a", "new_string": "c"})
    assert refused["message"] == (
        f"{workspace}/twice.txt: old_string found 2 times; add context "
        f"to make it unique or set replace_all; nothing changed"
    )
    assert (workspace / "twice.txt").read_text() == "a b a\n"
    done = run(edit, {"path": "twice.txt", "old_string": "a", "new_string": "c", "replace_all": True})
    assert (done["ok"], done["data"]["replacements"]) == (True, 2)
    assert (workspace / "twice.txt").read_text() == "c b c\n"


def test_list_shows_directories_with_a_slash(make_tools: ToolsFactory, workspace: Path) -> None:
    result = run(make_tools()["list"], {})
    assert result["stdout"] == "README.md\nsrc/\n"
    assert result["data"]["entries"] == [
        {"name": "README.md", "type": "file", "size": 5},
        {"name": "src", "type": "dir", "size": None},
    ]


def test_unknown_or_mistyped_arguments_are_refused_before_the_gate(
    make_tools: ToolsFactory,
) -> None:
    read = make_tools()["read"]
    assert run(read, {"path": 3})["message"] == "read: argument 'path' must be of type string"
    assert run(read, {"path": "a", "mode": "x"})["message"] == "read: unknown argument(s): mode"
    assert run(read, {})["message"] == "read: missing required argument(s): path"
