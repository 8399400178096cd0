"""Mercurial reads run what ``.hg/hgrc`` says (#31 root cause 1): hooks, extensions, aliases,
pagers and tools make ``hg status`` code; the person's own guarded ``~/.hgrc`` is their
choice."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall
from tests.shell.helpers import deciding_rules

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
ALLOWED = (Decision.ALLOW, ("mode.workspace",))
CODE = (Decision.ASK, ("shell.hg-config",))
READS = ("hg status", "hg log", "hg diff", "hg summary")


def outcome(gate: Gate, call: Call, command: str) -> tuple[Decision, tuple[str, ...]]:
    evaluation = gate.evaluate(call("shell", command=command))
    return evaluation.decision, tuple(deciding_rules(evaluation))


def hg_repo(folder: Path, hgrc: str | None = None) -> Path:
    (folder / ".hg").mkdir(parents=True)
    (folder / ".hg" / "requires").write_text("revlogv1\nstore\n")
    if hgrc is not None:
        (folder / ".hg" / "hgrc").write_text(hgrc)
    return folder


CODE_HGRC = [
    "[hooks]\npre-status = sh -c id\n",
    "[hooks]\npost-log.x = python:evil.hook\n",
    "[extensions]\nevil = ./x.py\n",
    "[extensions]\nfsmonitor =\n",
    "[alias]\nstatus = !sh -c id\n",
    "[pager]\npager = sh -c id\n",
    "[ui]\nmerge = sh -c id\n",
    "[ui]\nssh = sh -c id\n",
    "[merge-tools]\nx.executable = sh\n",
    "[extdiff]\ncmd.x = sh\n",
    "[paths]\ndefault = https://x\n\n[HOOKS]\nPRE-STATUS = id\n",
    "%include ../evil.rc\n",
    "%include $HOME/x.rc\n",
]


@pytest.mark.parametrize("hgrc", CODE_HGRC)
def test_a_repository_hgrc_that_names_a_program_makes_every_hg_read_code(
    make_gate: GateFactory, call: Call, workspace: Path, hgrc: str
) -> None:
    hg_repo(workspace, hgrc)
    (workspace / "evil.rc").write_text("[hooks]\npre-diff = id\n")
    gate = make_gate('mode = "full-access"')
    assert {c: outcome(gate, call, c)[1] for c in READS} == dict.fromkeys(READS, ("shell.hg-config",))


def test_what_hg_clone_writes_and_plain_options_leave_reads_allowed(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    hg_repo(
        workspace,
        "# example repository config\n[paths]\ndefault = https://hg.example/x\n# my-fork = ssh://x\n\n"
        "[ui]\n# username = Jane\nusername = Jane <j@x>\nverbose = true\n[diff]\ngit = true\n",
    )
    gate = make_gate()
    assert {c: outcome(gate, call, c) for c in READS} == dict.fromkeys(READS, ALLOWED)


def test_hg_outside_any_repository_stays_a_reader(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    assert outcome(make_gate(), call, "hg status") == ALLOWED


def test_the_repository_hg_is_told_to_read_is_the_one_checked(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    hg_repo(workspace / "sub", "[hooks]\npre-status = id\n")
    gate = make_gate()
    assert outcome(gate, call, "hg status") == ALLOWED
    for command in (
        "hg -R sub status",
        "hg --repository=sub log",
        "hg --cwd sub diff",
        "cd sub && hg status",
    ):
        assert outcome(gate, call, command) == CODE, command


def test_a_shared_repository_reads_its_source_s_hgrc(
    make_gate: GateFactory, call: Call, workspace: Path
) -> None:
    hg_repo(workspace / "source", "[extensions]\nx = ./x.py\n")
    hg_repo(workspace / "share")
    (workspace / "share" / ".hg" / "sharedpath").write_text("../../source/.hg")
    assert outcome(make_gate(), call, "cd share && hg status") == CODE


def test_config_on_the_command_line_is_code(make_gate: GateFactory, call: Call, workspace: Path) -> None:
    gate = make_gate('mode = "full-access"')
    assert outcome(gate, call, "hg --config hooks.pre-status=id status") == CODE


PERSONS_HGRC = "[extensions]\nrebase =\nhggit = /usr/lib/python3/dist-packages/hggit\n[pager]\npager = less -FRX\n[ui]\nmerge = meld\n"


def test_programs_the_persons_guarded_hgrc_names_leave_reads_allowed(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path
) -> None:
    hg_repo(workspace)
    (home / ".hgrc").write_text(PERSONS_HGRC)
    gate = make_gate()
    assert {c: outcome(gate, call, c) for c in READS} == dict.fromkeys(READS, ALLOWED)


@pytest.mark.parametrize("target", ["proj/team.rc", ".hgrc.local"])
def test_what_the_persons_hgrc_includes_counts_unless_the_agent_could_not_write_it(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path, target: str
) -> None:
    hg_repo(workspace)
    (home / ".hgrc").write_text(PERSONS_HGRC + f"%include {target}\n")
    (home / target).write_text("[hooks]\npre-status = id\n")
    assert outcome(make_gate(), call, "hg status") == CODE


@pytest.mark.parametrize(
    "setting",
    [
        "[extensions]\nx = ~/proj/ext.py\n",
        "[hooks]\npre-status = python:./tools/h.py:run\n",
        "[hooks]\npre-log = ./x.sh\n",
    ],
)
def test_a_program_the_persons_hgrc_names_by_a_path_the_agent_writes_is_code(
    make_gate: GateFactory, call: Call, workspace: Path, home: Path, setting: str
) -> None:
    hg_repo(workspace)
    (home / ".hgrc").write_text(setting)
    assert outcome(make_gate(), call, "hg status") == CODE
