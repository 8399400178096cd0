"""A call that runs the same simple command twice (``a; a``, issue 17's 10 KiB string of
``grep -rn TODO src | head -5``) decides it once and lists that outcome again: the
Evaluation, its trace included, must be the one deciding every command afresh gives."""

from __future__ import annotations

import dataclasses
import ipaddress
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bastion import Decision, Gate, ToolCall
from bastion.configuration import load_policy_text
from bastion.policy.decision import Evaluation, Reason
from bastion.policy.network import StaticResolver
from bastion.policy.shell_policy import NOT_DECIDING, decide_analysis
from bastion.policy.tree import MemoryTree
from bastion.policy.treewalk import DEFAULT_BUDGET
from bastion.policy.verdict import Assembly
from bastion.shell.analysis import analyze
from bastion.shell.model import PathUse, SimpleCommand

DEFAULT = Reason(Decision.ASK, "approval.interactive_default", "built-in", "", "a person decides")
EVERYDAY = [
    line
    for line in Path(__file__).with_name("everyday_commands.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]
HOOKS_CONFIG = b"[core]\n\tfsmonitor = ./watch.sh\n"


def fake_tree(big: int = 0) -> MemoryTree:
    """A workspace /h/ws whose folder b is a git repository with a config that runs a
    program, a credential, a symlink to it, a loop, and (``big``) a folder of many files."""
    return MemoryTree(
        files={
            "/h/ws/a": b"TODO\n",
            "/h/ws/src/app.py": b"x\n",
            "/h/.ssh/id_rsa": b"",
            "/h/ws/b/x": b"",
            "/h/ws/b/.git/HEAD": b"ref: refs/heads/main\n",
            "/h/ws/b/.git/config": HOOKS_CONFIG,
        },
        links={"/h/ws/k": "/h/.ssh/id_rsa", "/h/ws/loop": "/h/ws/loop"},
        dirs=("/h/ws/b/.git/objects", "/h/ws/b/.git/refs"),
        huge={"/h/ws/big": big} if big else None,
    )


def fake_gate(big: int = 0) -> Gate:
    policy = load_policy_text("", cwd="/h/ws", env={"HOME": "/h", "BASTION_STATE_DIR": "/h/state"})
    tree = fake_tree(big)
    return Gate(policy, fs=tree, tree=tree, resolver=StaticResolver({"pypi.org": ["151.101.0.223"]}))


def decided(gate: Gate, command: str, cwd: str, *, reuse: bool, trace: bool) -> tuple[Evaluation | str, ...]:
    out = Assembly(approval_default=DEFAULT, trace=[] if trace else None)
    call = ToolCall("shell", {"command": command}, cwd=cwd, interactive=True)
    try:
        decide_analysis(gate.context, call, out, analyze(command), reuse=reuse)
    except OSError as exc:  # the fake's symlink loop (the gate denies): raised either way
        return (f"error: {exc}",)
    evaluation = out.finish()
    return evaluation, *evaluation.trace


def assert_reuse_changes_nothing(gate: Gate, command: str, cwd: str) -> Evaluation | str:
    for trace in (False, True):
        again = decided(gate, command, cwd, reuse=False, trace=trace)
        assert decided(gate, command, cwd, reuse=True, trace=trace) == again
    return again[0]


def evaluation_of(gate: Gate, command: str, cwd: str) -> Evaluation:
    evaluation = assert_reuse_changes_nothing(gate, command, cwd)
    assert isinstance(evaluation, Evaluation)
    return evaluation


POOL = [
    "cat a",
    "cat k",
    "cat loop",
    "ls *",
    "ls big/*",
    "grep -rn TODO src | head -5",
    "grep -r x .",
    "git status",
    "git -C b status",
    "cd b && git status",
    "cd b",
    "echo x > n",
    "echo x > b/.git/hooks/pre-commit",
    "rm -rf b",
    "rm -rf /",
    "cat ~/.ssh/id_rsa",
    "curl https://pypi.org/simple/",
    "pip install requests",
    "sudo ls",
    "head -5",
    "$X a",
]


@settings(max_examples=120, deadline=None)
@given(
    commands=st.lists(st.sampled_from(POOL), min_size=2, max_size=8),
    big=st.sampled_from([0, DEFAULT_BUDGET - 40, DEFAULT_BUDGET - 12, DEFAULT_BUDGET - 4, DEFAULT_BUDGET]),
    joiner=st.sampled_from(["; ", " && ", " | ", "\n"]),
)
def test_any_mix_of_repeated_commands_is_decided_as_if_each_were_decided_afresh(
    commands: list[str], big: int, joiner: str
) -> None:
    assert_reuse_changes_nothing(fake_gate(big), joiner.join(commands), "/h/ws")


def test_a_repeated_git_command_near_the_budget_is_decided_afresh_each_time() -> None:
    """git reads its configuration through uncached reads that spend budget: the third
    `git status` may go over where the first did not, so none takes the first's outcome."""
    outcomes = set()
    # Where the outcome changes (one, two, three git-config listings), not every count
    # between: a folder this large costs ~0.4 s a decision.
    for big in (DEFAULT_BUDGET - n for n in (30, 27, 22, 18, 13, 2)):
        evaluation = evaluation_of(fake_gate(big), "ls big/*; " + "; ".join(["git -C b status"] * 5), "/h/ws")
        outcomes.add(tuple(r.rule for r in evaluation.reasons))
    # Both sides of the budget occur: the git config asks, then the budget is exhausted.
    assert ("shell.git-config",) in outcomes
    assert any("shell.reach-budget" in rules or len(rules) > 1 for rules in outcomes)


class Rebinding:
    """A resolver whose answer changes from one lookup to the next (DNS rebinding)."""

    def __init__(self) -> None:
        self.answers = [[ipaddress.ip_address("151.101.0.223")], [ipaddress.ip_address("10.0.0.5")]]

    def resolve(self, host: str) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


def test_a_repeated_command_that_reaches_a_host_asks_the_resolver_again() -> None:
    policy = load_policy_text(
        '[network]\nallow_hosts = ["pypi.org"]\n',
        cwd="/h/ws",
        env={"HOME": "/h", "BASTION_STATE_DIR": "/h/s"},
    )
    tree = fake_tree()
    command = "curl https://pypi.org/simple/; curl https://pypi.org/simple/"
    out = Assembly(approval_default=DEFAULT)
    gate = Gate(policy, fs=tree, tree=tree, resolver=Rebinding())
    decide_analysis(gate.context, ToolCall("shell", {"command": command}, cwd="/h/ws"), out, analyze(command))
    evaluation = out.finish()
    assert evaluation.decision is Decision.DENY
    assert "network.private" in [r.rule for r in evaluation.reasons]


def test_the_same_command_in_another_folder_is_decided_there() -> None:
    gate = fake_gate()
    evaluation = evaluation_of(gate, "git status; cd b; git status", "/h/ws")
    assert evaluation.decision is Decision.ASK
    assert [r.rule for r in evaluation.reasons] == ["shell.git-config"]
    clean = evaluation_of(gate, "git status; git status", "/h/ws")
    assert clean.decision is Decision.ALLOW


def test_the_ten_kib_command_of_issue_17_is_decided_as_if_each_part_were_decided_afresh(
    workspace: Path,
) -> None:
    for folder in ("src", "tests"):
        (workspace / folder).mkdir(exist_ok=True)
    (workspace / "src" / "app.py").write_text("# TODO\n")
    policy = load_policy_text(
        "", cwd=str(workspace), env={"HOME": str(workspace.parent), "BASTION_STATE_DIR": "/s"}
    )
    command = "; ".join(["grep -rn TODO src | head -5"] * 400)[:10240]
    evaluation = evaluation_of(Gate(policy), command, str(workspace))
    assert evaluation.decision is Decision.ASK  # the cut-off last word "gre" is unknown
    assert [r.rule for r in evaluation.reasons] == ["shell.not-a-reader", "approval.interactive_default"]
    (workspace / "src" / ".env").write_text("S=1\n")
    assert_reuse_changes_nothing(Gate(policy), command, str(workspace))


def test_the_everyday_commands_twice_in_one_call_are_decided_as_each_once(workspace: Path) -> None:
    (workspace / "src").mkdir(exist_ok=True)
    (workspace / "src" / "app.py").write_text("x\n")
    policy = load_policy_text(
        "", cwd=str(workspace), env={"HOME": str(workspace.parent), "BASTION_STATE_DIR": "/s"}
    )
    gate = Gate(policy)
    assert_reuse_changes_nothing(gate, "\n".join(EVERYDAY + EVERYDAY), str(workspace))
    for command in EVERYDAY:
        assert_reuse_changes_nothing(gate, f"{command}\n{command}", str(workspace))


def test_only_the_scope_of_a_command_is_left_out_of_what_makes_two_commands_the_same() -> None:
    # Equal on every other field means equal inputs to the policy: no field may be left out
    # of the comparison by the model, and policy/ must never read the one left out.
    assert {"scope"} == NOT_DECIDING
    for model in (SimpleCommand, PathUse):
        assert all(f.compare for f in dataclasses.fields(model)), model
    policy_dir = Path(__file__).parents[2] / "src" / "bastion" / "policy"
    readers = [
        p.name for p in policy_dir.glob("*.py") if re.search(r"\.scope\b", p.read_text(encoding="utf-8"))
    ]
    assert readers == []
