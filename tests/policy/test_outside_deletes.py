"""A recursive delete of a folder, or a delete or replacement of a file, outside every writable
root that is someone's own: outside HOME, in a project beside the workspace, or (files) the
person's configuration in HOME (suite I: ``rm -rf ../outside``, ``rm -rf ~root/.cache``, ``rm
-rf /tmp/../$HOME``; suite J: ``echo x > ../outside/important.txt``, ``Write ~/.gitconfig``):
no way back, denied by what it removes. Scratch and cache folders, HOME's other entries,
appends, new files and empty folders stay asks."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
Q, D = Decision.ASK, Decision.DENY


@pytest.fixture
def workspace(home: Path) -> Path:
    """The project where people keep theirs, among others: ``~/src/proj``."""
    path = home / "src" / "proj"
    (path / "src").mkdir(parents=True)
    (path / "README.md").write_text("# hi\n")
    (path / "src" / "app.py").write_text("print(1)\n")
    return path


@pytest.fixture
def beside(home: Path, workspace: Path) -> Path:
    """A sibling project of the workspace, a cache in HOME, a file beside them."""
    other = workspace.parent / "other-project"
    (other / "src").mkdir(parents=True)
    (other / "src/main.py").write_text("print(1)\n")
    (other / "notes.txt").write_text("mine\n")
    (workspace.parent / "empty").mkdir()
    (home / ".cache/pip").mkdir(parents=True)
    (home / ".local/share/fonts").mkdir(parents=True)
    (home / ".gitconfig").write_text("[user]\n\tname = Me\n")
    (home / "notes.txt").write_text("mine\n")
    (home / ".notes").write_text("mine\n")
    (home / ".local/share/fonts/list.txt").write_text("mine\n")
    (home / "Documents").mkdir()
    (home / "Documents/thesis.txt").write_text("Chapter 1\n")
    (workspace / "build").mkdir()
    return other


DECIDED = [
    ("rm -rf ../other-project", D, "hardline.destructive"),
    ("rm -r -- ../other-project", D, "hardline.destructive"),
    ("rm --recursive --force ../other-project/src", D, "hardline.destructive"),
    ("find ../other-project -delete", D, "hardline.destructive"),
    ("rm -rf /tmp/../$HOME", D, "hardline.destructive"),  # the home folder itself
    ('rm -rf "/tmp/../$HOME"', D, "hardline.destructive"),
    ("rm -f ../other-project/notes.txt", D, "hardline.destructive"),  # a file of it too
    ("echo x > ../other-project/notes.txt", D, "hardline.destructive"),  # replaced
    ("cp src/app.py ../other-project/notes.txt", D, "hardline.destructive"),
    ("truncate -s0 ../other-project/notes.txt", D, "hardline.destructive"),
    ("echo x >> ../other-project/notes.txt", Q, "paths.outside-roots"),  # an append: asked
    ("echo x > ../other-project/new.txt", Q, "paths.outside-roots"),  # a new file: asked
    ("cp src/app.py ~/.gitconfig", D, "hardline.destructive"),  # the person's own config
    ("rm -f ~/.gitconfig", D, "hardline.destructive"),
    ("echo x > ~/notes.txt", Q, "paths.outside-roots"),  # HOME's other entries: asked
    ("echo x > ~/.notes", D, "hardline.destructive"),  # a dot file: the person's own config
    ("echo x > ~/.local/share/fonts/list.txt", Q, "paths.outside-roots"),  # HOME's data: asked
    ("rmdir ../empty", Q, "paths.outside-roots"),  # an empty folder: asked
    ("rm -rf ../no-such-folder", Q, "paths.outside-roots"),  # nothing there
    ("rm -rf ~/.cache/pip", Q, "hardline.destructive"),  # a cache: made again
    ("rm -rf ~/.local/share/fonts", Q, "hardline.destructive"),  # HOME's own folder: asked
    ("rm -f ~/Documents/thesis.txt", D, "hardline.destructive"),  # a folder of their own files
]


@pytest.mark.parametrize(("command", "decision", "rule"), DECIDED)
def test_a_recursive_delete_outside_the_roots_is_decided_by_what_it_removes(
    make_gate: GateFactory, call: Call, beside: Path, command: str, decision: Decision, rule: str
) -> None:
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert (evaluation.decision, evaluation.reasons[0].rule) == (decision, rule)


def test_a_scratch_folder_asks_unless_it_holds_the_workspace(
    make_gate: GateFactory, call: Call, beside: Path, workspace: Path
) -> None:
    # A test's workspace lies below the temp folder pytest uses, whose other folders are then
    # the person's own (``../other-project`` above); a scratch folder that holds no workspace
    # (/var/tmp, or /tmp when pytest works below /var/tmp) asks.
    free = "/tmp" if str(workspace).startswith("/var/tmp/") else "/var/tmp"
    with tempfile.TemporaryDirectory(dir=free) as scratch:
        (Path(scratch) / "d").mkdir()
        evaluation = make_gate().evaluate(call("shell", command=f"rm -rf {scratch}/d"))
        kept = make_gate().evaluate(call("shell", command=f"rm -rf {beside}"))
    assert (evaluation.decision, evaluation.reasons[0].rule) == (Q, "paths.outside-roots")
    assert (kept.decision, kept.reasons[0].rule) == (D, "hardline.destructive")


def test_the_write_tool_replacing_someone_s_file_is_denied_and_an_edit_asks(
    make_gate: GateFactory, call: Call, beside: Path, home: Path
) -> None:
    gate = make_gate()
    notes, config = str(beside / "notes.txt"), str(home / ".gitconfig")
    thesis = str(home / "Documents/thesis.txt")
    decided = {
        name: (evaluation.decision, evaluation.reasons[0].rule)
        for name, evaluation in (
            ("replace notes", gate.evaluate(call("write", path=notes, content="x\n"))),
            ("replace thesis", gate.evaluate(call("write", path=thesis, content="x\n"))),
            # an MCP filesystem server's write_file: its content replaces the file too
            (
                "mcp replace config",
                gate.evaluate(
                    call(
                        "mcp",
                        server="filesystem",
                        tool="write_file",
                        arguments={"path": config, "content": "x\n"},
                    )
                ),
            ),
            (
                "mcp keep config",
                gate.evaluate(
                    call(
                        "mcp",
                        server="filesystem",
                        tool="write_file",
                        arguments={"path": config, "content": "[user]\n\tname = Me\n"},
                    )
                ),
            ),
            ("replace config", gate.evaluate(call("write", path=config, content="# replaced\n"))),
            ("keep config", gate.evaluate(call("write", path=config, content="[user]\n\tname = Me\n[a]\n"))),
        )
    }
    assert decided == {
        "replace notes": (D, "hardline.destructive"),
        "replace thesis": (D, "hardline.destructive"),
        "mcp replace config": (D, "hardline.destructive"),
        "mcp keep config": (Q, decided["mcp keep config"][1]),
        "replace config": (D, "hardline.destructive"),
        "keep config": (Q, decided["keep config"][1]),
    }
