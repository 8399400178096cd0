"""Blind suite J: a program's own expression language opens files by name. yq's ``load*()``
functions read the file they name, and gawk's extensions add functions that read or write
one (``readfile()``, rwarray's ``writea()``…; ``-i inplace`` rewrites every input file): each
was allowed as a pure read or as contained code. A constant name is judged as that path is
(a credential read denied, a start-up file replaced denied); a name built at run time is no
pure read. The everyday expressions beside them keep their decision."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import E, only

from bastion import Decision, Gate, ToolCall
from bastion.shell.model import Access

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY


@pytest.fixture
def machine(home: Path, workspace: Path) -> Path:
    (home / ".netrc").write_text("machine x login u password p\n")
    (home / ".vault-token").write_text("hvs.TOKEN\n")
    (home / ".bashrc").write_text("export PATH=$PATH\n")
    (workspace / "x.yaml").write_text("a: 1\n")
    (workspace / "file").write_text("a b\n")
    return workspace


DENIED = [
    ("""yq -n 'load_str("{home}/.netrc")'""", "hardline.credentials"),
    ("""yq -n 'load("{home}/.netrc")'""", "hardline.credentials"),
    ("""yq '.a = load_xml("{home}/.vault-token")' x.yaml""", "hardline.credentials"),
    ("""yq -n 'load_props("{home}/.netrc") | .machine'""", "hardline.credentials"),
    ("""yq -n 'load_base64("{home}/.vault-token")'""", "hardline.credentials"),
    (
        """gawk -l readfile 'BEGIN{{printf "%s", readfile(ENVIRON["HOME"] "/.vault-token")}}'""",
        "hardline.credentials",
    ),
    ("""gawk -l readfile 'BEGIN{{f = "{home}/.netrc"; print readfile(f)}}'""", "hardline.credentials"),
    (
        """gawk '@load "readfile"; BEGIN{{print readfile(ENVIRON["HOME"] "/.netrc")}}'""",
        "hardline.credentials",
    ),
    ("""gawk --load=rwarray 'BEGIN{{reada(ENVIRON["HOME"] "/.netrc", a)}}'""", "hardline.credentials"),
    ("""gawk -l filefuncs 'BEGIN{{stat("{home}/.netrc", s); print s["size"]}}'""", "hardline.credentials"),
    # a name whose folder is only known at run time, ending in a credential's name
    ("""gawk -l readfile 'BEGIN{{print readfile(ENVIRON["D"] "/.netrc")}}'""", "hardline.credentials"),
    (
        """gawk -l rwarray 'BEGIN{{a[1]=1; writea(ENVIRON["HOME"] "/.bashrc", a)}}'""",
        "hardline.destructive",
    ),
    ("""gawk -l rwarray 'BEGIN{{writeall("{home}/.bashrc")}}'""", "hardline.destructive"),
    ("gawk -i inplace '{{print}}' ~/.bashrc", "hardline.destructive"),
    ("""gawk 'BEGIN{{print 1 > (ENVIRON["HOME"] "/.bashrc")}}'""", "hardline.destructive"),
]


@pytest.mark.parametrize(("command", "rule"), DENIED)
def test_an_expression_opening_a_credential_or_a_start_up_file_by_name_is_denied(
    make_gate: GateFactory, call: Call, machine: Path, home: Path, command: str, rule: str
) -> None:
    evaluation = make_gate().evaluate(call("shell", command=command.format(home=home)))
    assert (evaluation.decision, evaluation.reasons[0].rule) == (D, rule)


KEPT = [
    ("yq '.a' x.yaml", A, "mode.workspace"),
    ("yq '.load' x.yaml", A, "mode.workspace"),  # a field, no call
    ("""yq -n '.b = load("x.yaml")'""", A, "mode.workspace"),  # a workspace file loaded
    ("gawk '{print}' file", A, "mode.workspace"),
    ("""gawk 'function readfile(f) {return f} BEGIN{print readfile("x")}'""", A, "mode.workspace"),
    # a name built at run time, or an extension or library not modelled: not a pure read
    ("""yq -n 'load_str(strenv(P))'""", D, "hardline.credentials"),  # strenv prints the environment
    ("""yq -n 'load_str(.path)'""", Q, "shell.not-a-reader"),
    ("""gawk -l readfile 'BEGIN{print readfile("file")}'""", Q, "shell.not-a-reader"),
    ("""gawk -l readfile 'BEGIN{print readfile(x)}'""", Q, "shell.not-a-reader"),
    ("""gawk -l frobnicate 'BEGIN{print frob("x")}'""", Q, "shell.not-a-reader"),
    ("gawk -i inplace '{print}' file", Q, "shell.not-a-reader"),
]


@pytest.mark.parametrize(("command", "decision", "rule"), KEPT)
def test_everyday_expressions_keep_their_decision(
    make_gate: GateFactory, call: Call, machine: Path, command: str, decision: Decision, rule: str
) -> None:
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert (evaluation.decision, evaluation.reasons[0].rule) == (decision, rule)


def test_a_yq_load_of_a_constant_name_is_a_read_of_it_and_of_a_run_time_name_unknown() -> None:
    c = only("""yq -n 'load_str("a.txt") + load(.x)'""")
    assert [(p.path, p.access) for p in c.paths if p.why.startswith("yq")] == [("a.txt", Access.READ)]
    assert E.UNKNOWN in c.effects and not c.pure_reader


def test_a_yq_expression_from_a_file_is_no_pure_read() -> None:
    c = only("yq --from-file prog.yq x.yaml")
    assert E.UNKNOWN in c.effects and not c.pure_reader


def test_gawk_inplace_writes_each_input_file_and_not_its_variable_assignments() -> None:
    c = only("gawk -i inplace '{print}' a.txt n=1 b.txt")
    assert [p.path for p in c.paths if p.access is Access.WRITE] == ["a.txt", "b.txt"]
