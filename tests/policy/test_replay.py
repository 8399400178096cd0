"""A repeated shell call is answered with its recorded Evaluation only while the file system
answers every question the decision asked as before (``bastion.policy.replay``): whatever
changes between two calls, the gate decides as a gate that never replays."""

from __future__ import annotations

import ipaddress
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bastion import Decision, Gate, ToolCall
from bastion.configuration import load_policy_text
from bastion.policy.decision import Evaluation
from bastion.policy.replay import MAX_ENTRIES, MAX_READ_BYTES, Recording
from bastion.policy.tree import MemoryTree

ENV = {"HOME": "/h", "BASTION_STATE_DIR": "/h/state"}
EVERYDAY = [
    line
    for line in Path(__file__).with_name("everyday_commands.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]


def fake() -> MemoryTree:
    return MemoryTree(
        files={
            "/h/ws/a": b"TODO\n",
            "/h/ws/src/app.py": b"x\n",
            "/h/.ssh/id_rsa": b"",
            "/h/ws/b/.git/HEAD": b"ref: refs/heads/main\n",
            "/h/ws/b/.git/config": b"[core]\n\tbare = false\n",
        },
        links={"/h/ws/l": "/h/ws/a"},
        dirs=("/h/ws/b/.git/objects", "/h/ws/b/.git/refs"),
    )


def gates(tree: MemoryTree, text: str = "", resolver: object = None) -> tuple[Gate, Gate]:
    """(a replaying gate, one deciding every call afresh) over the same fake file system."""
    policy = load_policy_text(text, cwd="/h/ws", env=ENV)
    made = [
        Gate(policy, fs=tree, tree=tree, resolver=resolver, replay=replay)  # type: ignore[arg-type]
        for replay in (True, False)
    ]
    return made[0], made[1]


def shell(command: str, cwd: str = "/h/ws", interactive: bool = True) -> ToolCall:
    return ToolCall("shell", {"command": command}, cwd=cwd, interactive=interactive)


def same(replaying: Gate, fresh: Gate, call: ToolCall) -> Evaluation:
    """Three times: a call is remembered the first time, recorded the second, replayed after."""
    evaluation = fresh.evaluate(call)
    assert [replaying.evaluate(call) for _ in range(3)] == [evaluation] * 3
    return evaluation


CHANGES = {
    "credential in src": lambda t: t.files.__setitem__("/h/ws/src/.env", b"S=1\n"),
    "link to the key": lambda t: t.links.__setitem__("/h/ws/l", "/h/.ssh/id_rsa"),
    "link back": lambda t: t.links.__setitem__("/h/ws/l", "/h/ws/a"),
    "config runs code": lambda t: t.files.__setitem__("/h/ws/b/.git/config", b"[core]\n\tfsmonitor = x\n"),
    "config clean": lambda t: t.files.__setitem__("/h/ws/b/.git/config", b"[core]\n\tbare = false\n"),
    "hooks path": lambda t: t.files.__setitem__("/h/ws/b/.git/config", b"[core]\n\thooksPath = h\n"),
    "repository at the top": lambda t: (
        t.files.__setitem__("/h/ws/.git/HEAD", b"ref: x\n"),
        t.dirs.update({"/h/ws/.git", "/h/ws/.git/objects", "/h/ws/.git/refs"}),
    ),
    "a new file": lambda t: (t.files.__setitem__("/h/ws/new.py", b""), t.dirs.add("/h/ws")),
}
COMMANDS = [
    "cat a",
    "cat l",
    "cat l a",
    "ls *",
    "grep -rn TODO src | head -5",
    "grep -r x .",
    "git -C b status",
    "git -C b show HEAD",
    "cd b && git log -p",
    "git status",
    "echo x > b/h/pre-commit",
    "echo x > new.py",
    "rm -rf src",
    "cat ~/.ssh/id_rsa",
]


@settings(max_examples=150, deadline=None)
@given(
    steps=st.lists(
        st.tuples(st.sampled_from([None, *CHANGES]), st.sampled_from(COMMANDS), st.booleans()),
        min_size=1,
        max_size=12,
    )
)
def test_whatever_changes_between_calls_a_replaying_gate_decides_as_a_fresh_one(
    steps: list[tuple[str | None, str, bool]],
) -> None:
    tree = fake()
    replaying, fresh = gates(tree)
    for change, command, interactive in steps:
        if change is not None:
            CHANGES[change](tree)
        same(replaying, fresh, shell(command, interactive=interactive))
        same(replaying, fresh, shell(command, interactive=interactive))  # the replay itself


def test_a_git_config_changed_between_two_calls_is_read_again() -> None:
    tree = fake()
    replaying, fresh = gates(tree)
    assert same(replaying, fresh, shell("git -C b status")).decision is Decision.ALLOW
    tree.files["/h/ws/b/.git/config"] = b"[core]\n\tfsmonitor = x\n"
    asked = same(replaying, fresh, shell("git -C b status"))
    assert [r.rule for r in asked.reasons] == ["shell.git-config"]


def test_the_same_command_in_another_cwd_or_interactivity_is_not_the_same_call() -> None:
    tree = fake()
    replaying, fresh = gates(tree)
    assert same(replaying, fresh, shell("git status")).decision is Decision.ALLOW
    tree.files["/h/ws/b/.git/config"] = b"[core]\n\tfsmonitor = x\n"
    assert same(replaying, fresh, shell("git status", cwd="/h/ws/b")).decision is Decision.ASK
    denied = same(replaying, fresh, shell("git status", cwd="/h/ws/b", interactive=False))
    assert denied.decision is Decision.DENY


class Rebinding:
    """A resolver whose answer changes from one lookup to the next (DNS rebinding)."""

    def __init__(self) -> None:
        self.answers = ["151.101.0.223", "151.101.0.223", "10.0.0.5"]

    def resolve(self, host: str) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
        return [ipaddress.ip_address(self.answers.pop(0) if len(self.answers) > 1 else self.answers[0])]


def test_a_call_that_reaches_a_host_is_never_replayed() -> None:
    policy = load_policy_text('[network]\nallow_hosts = ["pypi.org"]\n', cwd="/h/ws", env=ENV)
    tree = fake()
    gate = Gate(policy, fs=tree, tree=tree, resolver=Rebinding())
    call = shell("curl https://pypi.org/simple/")
    gate.evaluate(call)  # remembered: the next one is recorded
    assert "network.private" not in [r.rule for r in gate.evaluate(call).reasons]
    second = gate.evaluate(call)
    assert second.decision is Decision.DENY
    assert "network.private" in [r.rule for r in second.reasons]


def test_a_gate_given_another_file_system_decides_through_it() -> None:
    tree, other = fake(), fake()
    other.links["/h/ws/l"] = "/h/.ssh/id_rsa"
    replaying, _ = gates(tree)
    for _ in range(3):
        assert replaying.evaluate(shell("cat l")).decision is Decision.ALLOW
    replaying.fs = other  # a test may swap the ports: the record was made through the old ones
    replaying.tree = other
    assert replaying.evaluate(shell("cat l")).decision is Decision.DENY


def test_the_everyday_commands_replayed_are_decided_as_the_first_time(workspace: Path) -> None:
    policy = load_policy_text(
        "", cwd=str(workspace), env={"HOME": str(workspace.parent), "BASTION_STATE_DIR": "/s"}
    )
    replaying, fresh = Gate(policy), Gate(policy, replay=False)
    for command in EVERYDAY:
        call = shell(command, cwd=str(workspace))
        first = replaying.evaluate(call)
        assert [replaying.evaluate(call) for _ in range(3)] == [first] * 3
        assert first == fresh.evaluate(call)
        assert replaying.explain(call).trace == fresh.explain(call).trace


def test_a_gate_given_another_policy_decides_by_it() -> None:
    replaying, _ = gates(fake())
    for _ in range(3):
        assert replaying.evaluate(shell("echo x > n")).decision is Decision.ALLOW
    replaying.policy = load_policy_text('mode = "read-only"\n', cwd="/h/ws", env=ENV)
    assert replaying.evaluate(shell("echo x > n")).decision is Decision.DENY


def test_a_call_whose_listings_or_reads_are_larger_than_a_record_keeps_is_not_recorded() -> None:
    tree = MemoryTree(
        files={"/w/small": b"x" * 10, "/w/large": b"x" * (MAX_READ_BYTES + 1)},
        huge={"/w/many": MAX_ENTRIES + 1, "/w/some": MAX_ENTRIES},
    )

    def kept(*steps: tuple[str, str]) -> bool:
        log = Recording(tree, tree, None)
        for port, path in steps:
            if port == "scandir":
                log.scandir(path)
            else:
                log.read(path, MAX_READ_BYTES * 2)
        return log.keep()

    assert (
        kept(("scandir", "/w/some"), ("read", "/w/small")),
        kept(("scandir", "/w/many")),
        kept(("scandir", "/w/some"), ("scandir", "/w/some")),
        kept(("read", "/w/large")),
    ) == (True, False, False, False)
