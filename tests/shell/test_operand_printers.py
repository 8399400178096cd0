"""Blind suite J: programs that print a transform of their file operands (``basenc``, ``ptx``,
``shuf``, ``xmllint``; ``m4``, which runs its file as macro code) and ``python -m`` modules that
print the file they are given (``tokenize``, ``base64``, ``dis``…) were only asked about a
credential file they were handed: each prints it, as ``cat`` would, so each is denied. Their
everyday uses on workspace files keep their decision."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY


@pytest.fixture
def machine(home: Path, workspace: Path) -> Path:
    """A HOME holding credential files and a start-up file; a workspace of ordinary files."""
    (home / ".netrc").write_text("machine x login u password p\n")
    (home / ".pgpass").write_text("db:5432:*:u:pw\n")
    (home / ".vault-token").write_text("hvs.TOKEN\n")
    (home / ".m2").mkdir()
    (home / ".m2/settings.xml").write_text("<settings><password>p</password></settings>\n")
    (home / ".bashrc").write_text("export PATH=$PATH\n")
    (workspace / "src/app.py").write_text("x = 1\n")
    (workspace / "data.xml").write_text("<r/>\n")
    (workspace / "notes.txt").write_text("a b\n")
    return workspace


DENIED = [
    ("basenc --base32 ~/.pgpass", "hardline.credentials"),
    ("basenc --z85 -w 0 ~/.netrc", "hardline.credentials"),
    ("ptx ~/.netrc", "hardline.credentials"),
    ("ptx -o ~/.netrc notes.txt", "hardline.credentials"),  # its word list is read
    ("shuf ~/.vault-token", "hardline.credentials"),
    ("xmllint ~/.m2/settings.xml", "hardline.credentials"),
    ("xmllint --format --noout ~/.m2/settings.xml", "hardline.credentials"),
    ("m4 ~/.netrc", "hardline.credentials"),  # its operand is code, and still read
    ("m4 -I ~/.m2 -R ~/.pgpass data.xml", "hardline.credentials"),
    ("shuf -o ~/.bashrc notes.txt", "hardline.destructive"),
    ("m4 -F ~/.bashrc notes.txt", "hardline.destructive"),
    ("python3 -m tokenize ~/.vault-token", "hardline.credentials"),
    ("python3 -m base64 ~/.netrc", "hardline.credentials"),
    ("python3 -I -m base64 -e ~/.netrc", "hardline.credentials"),
    ("python3 -m quopri ~/.pgpass", "hardline.credentials"),
    ("python3 -m uu ~/.netrc", "hardline.credentials"),
    ("python3 -m dis ~/.netrc", "hardline.credentials"),  # its SyntaxError quotes the line
    ("python3 -m ast -a ~/.netrc", "hardline.credentials"),
    ("python3 -m shlex ~/.netrc", "hardline.credentials"),
    ("python3 -m fileinput ~/.netrc", "hardline.credentials"),
    ("python3 -m json.tool ~/.netrc", "hardline.credentials"),
    ("python3 -m netrc", "hardline.credentials"),  # prints ~/.netrc, named by no argument
    ("python3 -m uu src/app.py ~/.bashrc", "hardline.destructive"),
]


@pytest.mark.parametrize(("command", "rule"), DENIED)
def test_a_program_or_python_module_printing_a_credential_operand_is_denied(
    make_gate: GateFactory, call: Call, machine: Path, command: str, rule: str
) -> None:
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert (evaluation.decision, evaluation.reasons[0].rule) == (D, rule)


KEPT = [
    ("basenc --base64 README.md", A, "mode.workspace"),
    ("basenc -d --base32hex notes.txt", A, "mode.workspace"),
    ("ptx -f notes.txt", A, "mode.workspace"),
    ("shuf -n 1 notes.txt", A, "mode.workspace"),
    ("xmllint --format data.xml", A, "mode.workspace"),
    ("xmllint --xpath '/r' --noout data.xml", A, "mode.workspace"),
    # what loads more than its operands, or writes its second one, is not modelled: asked
    ("xmllint --noent data.xml", Q, "shell.not-a-reader"),
    ("xmllint --c14n data.xml", Q, "shell.not-a-reader"),
    ("ptx -G notes.txt index.txt", Q, "shell.not-a-reader"),
    ("xmllint https://example.com/feed.xml", Q, "network.unlisted"),
    ("m4 notes.txt", Q, "shell.not-a-reader"),  # macro code: not a pure read
]


@pytest.mark.parametrize(("command", "decision", "rule"), KEPT)
def test_the_everyday_uses_of_those_programs_keep_their_decision(
    make_gate: GateFactory, call: Call, machine: Path, command: str, decision: Decision, rule: str
) -> None:
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert (evaluation.decision, evaluation.reasons[0].rule) == (decision, rule)


@pytest.mark.parametrize(
    "command", ["python3 -m tokenize src/app.py", "python3 -m dis src/app.py", "python3 -m shlex notes.txt"]
)
def test_a_python_module_printing_a_workspace_file_is_a_workspace_read_without_a_toolchain_file(
    make_gate: GateFactory, call: Call, machine: Path, command: str
) -> None:
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert (evaluation.decision, evaluation.reasons[0].rule) == (A, "mode.workspace")


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [
        ("python3 -m tokenize ~/.vault-token", D, "hardline.credentials"),
        ("python3 -m base64 ~/.netrc", D, "hardline.credentials"),
        ("python3 -m tokenize src/app.py", Q, "shell.toolchain"),
        ("python3 -m base64 -d notes.txt", Q, "shell.toolchain"),
    ],
)
def test_beside_a_python_version_file_the_toolchain_asks_and_a_credential_is_still_denied(
    make_gate: GateFactory, call: Call, machine: Path, command: str, decision: Decision, rule: str
) -> None:
    (machine / ".python-version").write_text("3.11\n")  # chooses which Python runs
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert (evaluation.decision, evaluation.reasons[0].rule) == (decision, rule)
