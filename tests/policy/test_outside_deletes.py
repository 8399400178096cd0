"""A recursive delete of a folder outside every writable root, outside HOME or in a project
beside the workspace (suite I: ``rm -rf ../outside``, ``rm -rf ~root/.cache``, ``rm -rf
/tmp/../$HOME``): someone's own files with no way back, denied by what it removes. Scratch and
cache folders, HOME's other folders, single files and empty folders stay asks."""

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
def beside(home: Path, workspace: Path) -> Path:
    """A sibling project of the workspace, a cache in HOME, a file beside them."""
    other = workspace.parent / "other-project"
    (other / "src").mkdir(parents=True)
    (other / "src/main.py").write_text("print(1)\n")
    (other / "notes.txt").write_text("mine\n")
    (workspace.parent / "empty").mkdir()
    (home / ".cache/pip").mkdir(parents=True)
    (home / ".local/share/fonts").mkdir(parents=True)
    (workspace / "build").mkdir()
    return other


DECIDED = [
    ("rm -rf ../other-project", D, "hardline.destructive"),
    ("rm -r -- ../other-project", D, "hardline.destructive"),
    ("rm --recursive --force ../other-project/src", D, "hardline.destructive"),
    ("find ../other-project -delete", D, "hardline.destructive"),
    ("rm -rf /tmp/../$HOME", D, "hardline.destructive"),  # the home folder itself
    ('rm -rf "/tmp/../$HOME"', D, "hardline.destructive"),
    ("rm -f ../other-project/notes.txt", Q, "paths.outside-roots"),  # a file: asked
    ("rmdir ../empty", Q, "paths.outside-roots"),  # an empty folder: asked
    ("rm -rf ../no-such-folder", Q, "paths.outside-roots"),  # nothing there
    ("rm -rf ~/.cache/pip", Q, "hardline.destructive"),  # a cache: made again
    ("rm -rf ~/.local/share/fonts", Q, "hardline.destructive"),  # HOME's own folder: asked
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
    # Every test's workspace lies below /tmp, so /tmp's other folders are the person's own
    # (``../other-project`` above); /var/tmp holds no workspace here: a scratch folder there asks.
    with tempfile.TemporaryDirectory(dir="/var/tmp") as scratch:
        (Path(scratch) / "d").mkdir()
        evaluation = make_gate().evaluate(call("shell", command=f"rm -rf {scratch}/d"))
    assert str(workspace).startswith("/tmp/")
    assert (evaluation.decision, evaluation.reasons[0].rule) == (Q, "paths.outside-roots")
