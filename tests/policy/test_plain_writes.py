"""Issue 31, everyday writes: in workspace mode a shell command made only of plain file
writers (mkdir, touch, cp, mv) whose every path is statically known is decided like the
write tool - allowed inside the write roots, asked (or denied) exactly where the write tool
would be, including the files a copy or a move lands inside a folder. Anything not
statically known still asks; ask-before-edit keeps asking; read-only refuses."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bastion import Decision, Gate, ToolCall

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]

A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY


@pytest.fixture
def ws(workspace: Path, home: Path) -> Path:
    (workspace / "docs").mkdir()
    (workspace / "notes.txt").write_text("n\n")
    (workspace / "settings.json").write_text("{}\n")
    (workspace / "tasks.json").write_text("{}\n")
    (workspace / ".git" / "hooks").mkdir(parents=True)
    (workspace / ".claude").mkdir()
    (workspace / "out").symlink_to(home)  # a folder link leaving the workspace
    (workspace / "rc").symlink_to(home / ".bashrc")
    (home / ".bashrc").write_text("# rc\n")
    os.link(home / ".bashrc", workspace / "env.sh")  # a second name of the rc file
    return workspace


WRITES = [
    # everyday: every path known and inside the workspace
    ("mkdir -p build", A),
    ("mkdir -p build/a/b docs/api", A),
    ("touch docs/new.md", A),
    ("cp README.md docs/README.bak", A),
    ("cp README.md docs", A),  # lands as docs/README.md
    ("cp README.md notes.txt docs/", A),
    ("mv notes.txt docs/", A),
    ("cp *.md docs/", A),
    ("mkdir -p build && touch build/.keep", A),
    ("cd docs && touch index.md", A),
    ("touch -r README.md docs/x.md", A),
    ("cp -f -p README.md docs/y.md", A),
    # where the write tool would ask, so does the shell
    ("cp settings.json .claude", Q),  # lands as .claude/settings.json
    ("cp settings.json .claude/", Q),
    ("mv settings.json .claude", Q),
    ("cp README.md .git/hooks", Q),  # lands in the hooks folder
    ("cp tasks.json .vscode", Q),  # no folder yet: .vscode itself or, once one is made, .vscode/tasks.json
    ("mkdir .vscode && cp tasks.json .vscode", Q),
    ("mkdir .vscode && cp README.md .vscode", A),
    ("cp README.md notes.txt", A),  # an existing file: only itself is written
    ("touch .git/hooks/pre-commit", Q),
    ("cp README.md json.py", Q),  # shadows the standard library's json
    ("cp README.md _colorize.py", Q),  # Python 3.13's, which json.tool imports there
    ("cp README.md argparse.pyc", Q),  # bytecode with no source is imported too (suite J)
    ("cp README.md json.cpython-311-x86_64-linux-gnu.so", Q),  # so is an extension module
    ("cp README.md jsonx.pyc", A),  # no standard module's name
    ("cp README.md out", Q),  # out/README.md is the home folder's
    ("cp README.md rc", D),  # through a link to ~/.bashrc: never written by an agent
    ("touch env.sh", D),  # a hard link to ~/.bashrc
    ("cp README.md ~/x.md", Q),
    ("mkdir /tmp/elsewhere", Q),
    ("mv README.md ~/", Q),
    ("cp ~/.ssh/id_rsa docs/", D),
    ("touch -r ~/.ssh/id_rsa docs/x", D),
    # not statically known, or more than a plain write
    ("mkdir $DIR", Q),
    ("touch docs/$(date +%s).md", Q),
    ("cp -r src backup", Q),  # a tree lands under names not known before
    ("mv src lib", Q),
    ("cp /dev/zero docs/zeros", Q),
    ("cp rc docs/", Q),  # a link, which -P/-r/-a would copy as a link
    ("mv rc docs/", D),  # moving the link is writing ~/.bashrc's name
    ("cp -l README.md docs/link", Q),
    ("cp -s README.md docs/link", Q),
    ("cp --parents src/app.py docs", Q),
    ("cp -b -S .py README.md notes.txt", Q),  # the backup would be notes.txt.py
    ("mv --backup=numbered README.md notes.txt", Q),
    ("cp -t docs README.md", Q),
    ("sudo mkdir build", Q),
    ("ls | xargs touch", Q),
    ("touch x; rm x", A),  # a plain delete of a named workspace file (policy/plain_deletes)
]


@pytest.mark.parametrize(("command", "decision"), WRITES)
def test_a_plain_write_is_decided_like_the_write_tool(
    make_gate: GateFactory, call: Call, ws: Path, command: str, decision: Decision
) -> None:
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert evaluation.decision is decision, evaluation.to_json()


def test_the_allow_says_why(make_gate: GateFactory, call: Call, ws: Path) -> None:
    evaluation = make_gate().evaluate(call("shell", command="mkdir -p build"))
    assert [(r.decision, r.rule, r.message) for r in evaluation.reasons] == [
        (
            A,
            "mode.workspace",
            "only writes files whose every path is known and an allowed workspace write, "
            "as the write tool's would be",
        )
    ]


@pytest.mark.parametrize(
    ("command", "same_as_write_tool"),
    [
        ("touch docs/a.md", "docs/a.md"),
        ("cp README.md .claude", ".claude/README.md"),
        ("touch env.sh", "env.sh"),
    ],
)
def test_the_shell_and_the_write_tool_agree(
    make_gate: GateFactory, call: Call, ws: Path, command: str, same_as_write_tool: str
) -> None:
    gate = make_gate()
    shell = gate.evaluate(call("shell", command=command)).decision
    write = gate.evaluate(call("write", path=same_as_write_tool, content="x")).decision
    assert shell is write


@pytest.mark.parametrize(
    ("mode", "decision"), [("ask-before-edit", Q), ("read-only", D), ("workspace", A), ("full-access", A)]
)
def test_only_the_workspace_mode_lets_a_plain_write_run_by_itself(
    make_gate: GateFactory, call: Call, ws: Path, mode: str, decision: Decision
) -> None:
    gate = make_gate(f'mode = "{mode}"')
    assert gate.evaluate(call("shell", command="touch docs/new.md")).decision is decision


def test_with_nobody_to_ask_a_protected_landing_is_refused(
    make_gate: GateFactory, call: Call, ws: Path
) -> None:
    gate = make_gate()
    decisions = [
        gate.evaluate(call("shell", command=c, interactive=False)).decision
        for c in ("touch docs/new.md", "cp README.md .git/hooks")
    ]
    assert decisions == [A, D]


# -- property: an allowed chain of plain writes writes nothing the write tool would not ---------

_TARGETS = [
    "docs", "docs/x.md", "notes.txt", "new", "new/y", ".claude", ".claude/settings.json", ".cursor",
    ".git/hooks", ".git/hooks/pre-commit", "json.py", "rc", "env.sh", "out", "out/z", ".envrc", ".vscode",
]  # fmt: skip
_SOURCES = ["README.md", "notes.txt", "settings.json", "tasks.json", "rc", "src"]
_COMMAND = st.one_of(
    st.tuples(st.sampled_from(["mkdir -p", "touch"]), st.just(""), st.sampled_from(_TARGETS)),
    st.tuples(st.sampled_from(["cp", "mv"]), st.sampled_from(_SOURCES), st.sampled_from(_TARGETS)),
)


def _written(program: str, source: str, target: str) -> list[str]:
    """Every path the command may write: the target, and what lands in it if it is a folder
    (now, or by the time it runs)."""
    if not source:
        return [target]
    return (
        [target, f"{target}/{os.path.basename(source)}", source]
        if program == "mv"
        else [
            target,
            f"{target}/{os.path.basename(source)}",
        ]
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(chain=st.lists(_COMMAND, min_size=1, max_size=3))
def test_an_allowed_chain_of_plain_writes_writes_only_what_the_write_tool_allows(
    make_gate: GateFactory, call: Call, ws: Path, chain: list[tuple[str, str, str]]
) -> None:
    gate = make_gate()
    command = "; ".join(f"{p} {s} {t}".replace("  ", " ") for p, s, t in chain)
    if gate.evaluate(call("shell", command=command)).decision is not A:
        return
    written = [w for p, s, t in chain for w in _written(p, s, t)]
    refused = [w for w in written if gate.evaluate(call("write", path=w, content="x")).decision is not A]
    assert refused == [], command
