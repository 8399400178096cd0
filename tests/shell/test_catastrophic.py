"""Issue 13, root cause 11: catastrophic cases are denied, never asked (a tired person
could make an asked one a standing grant)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from helpers import decide

from bastion import Decision, Gate, ToolCall
from bastion.shell.analysis import analyze

Call = Callable[..., ToolCall]
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY
U = ["approval.interactive_default"]  # not a pure reader: a person decides
W = ["mode.workspace"]  # a pure reader touching only allowed paths


@pytest.fixture
def gate(make_gate: Callable[..., Gate]) -> Gate:
    return make_gate()


CATASTROPHIC = [
    ("rm -rf /e*c", D, ["hardline.destructive", "hardline.system"]),  # the glob is expanded: system dirs too
    ("rm -rf /u??", D, ["hardline.destructive", "hardline.system"]),  # the glob is expanded: system dirs too
    ("rm -rf ~/[A-Z]*", D, ["hardline.destructive"]),
    (
        "rm -rf /[a-z]*",
        D,
        ["hardline.destructive", "hardline.system"],
    ),  # the glob is expanded: system dirs too
    (
        "cd / && rm -rf *",
        D,
        ["hardline.destructive", "hardline.system"],
    ),  # the glob is expanded: system dirs too
    (
        "cd /etc; rm -rf *",
        D,
        ["hardline.credentials", "hardline.destructive", "hardline.system"],
    ),  # the glob is expanded: system dirs too, and the system's secrets (/etc/shadow)
    ("cd ~ && rm -rf *", D, ["hardline.destructive"]),
    ("cd /usr && rm -rf lib", D, ["hardline.destructive", "hardline.system"]),
    (
        "bash -c 'cd / && rm -rf *'",
        D,
        ["hardline.destructive", "hardline.system"],
    ),  # the glob is expanded: system dirs too
    ("rsync -a --delete empty/ ~/", D, ["hardline.destructive"]),
    ("rsync -a --delete empty/ /etc/", D, ["hardline.destructive", "hardline.system"]),
    ("find / -delete", D, ["hardline.destructive"]),
    ("find / -exec rm -rf {} +", D, ["hardline.destructive"]),
    ("sgdisk -Z /dev/sda", D, ["hardline.destructive"]),
    ("parted /dev/sda mklabel gpt", D, ["hardline.destructive"]),
    ("parted -s /dev/sda rm 1", D, ["hardline.destructive"]),
    ("cryptsetup luksFormat /dev/sdb", D, ["hardline.destructive"]),
    ("cryptsetup erase /dev/sdb", D, ["hardline.destructive"]),
    ("wipefs -a /dev/sda", D, ["hardline.destructive", "hardline.system"]),
    ("sfdisk /dev/sda < layout", D, ["hardline.destructive"]),
    ("fdisk /dev/nvme0n1", D, ["hardline.destructive"]),
    ("mkswap /dev/sdb1", D, ["hardline.destructive", "hardline.system"]),
    ("blkdiscard /dev/sda", D, ["hardline.destructive", "hardline.system"]),
    ("while :; do sh & done", D, ["hardline.destructive"]),
    ("while true; do bash -c : & done", D, ["hardline.destructive"]),
    ("for ((;;)); do ls & done", D, ["hardline.destructive"]),
    ("until false; do sh & done", D, ["hardline.destructive"]),
    ("while sleep 1; do bash -c : & done", D, ["hardline.destructive"]),
    ("while :; do (sh &); done", D, ["hardline.destructive"]),
]


@pytest.mark.parametrize(("command", "decision", "rules"), CATASTROPHIC)
def test_a_catastrophic_command_is_denied_not_asked(
    gate: Gate, call: Call, command: str, decision: Decision, rules: list[str]
) -> None:
    assert decide(gate, call, command) == (decision, rules)


# Close to the catastrophic ones, but bounded: asked or allowed, never a hardline deny.
BOUNDED = [
    ("rm -rf /tmp/build*", Q, U),
    ("cd src && rm -rf *", Q, ["hardline.destructive"]),
    ("rsync -a --delete empty/ ./out/", Q, U),
    ("sgdisk -p /dev/sda", Q, ["hardline.system"]),
    ("parted -l", Q, ["hardline.system"]),
    ("fdisk -l", Q, ["hardline.system"]),
    ("cryptsetup status x", Q, ["hardline.system"]),
    ('for f in a b; do wc -l "$f" & done', A, W),
    ("while :; do date; sleep 1; done &", A, W),
    ("while sleep 1; do date; done", A, W),
]


@pytest.mark.parametrize(("command", "decision", "rules"), BOUNDED)
def test_a_bounded_delete_listing_or_loop_is_not_catastrophic(
    gate: Gate, call: Call, command: str, decision: Decision, rules: list[str]
) -> None:
    assert decide(gate, call, command) == (decision, rules)


def test_a_glob_is_catastrophic_by_its_widest_match() -> None:
    (c,) = analyze("rm -rf /e*c").commands
    assert c.catastrophic == "rm of glob /e*c can match /etc"


def test_a_cd_to_the_root_makes_a_later_relative_delete_catastrophic() -> None:
    cd, rm = analyze("cd / && rm -rf *").commands
    assert cd.catastrophic is None
    assert rm.catastrophic == "rm of the root directory (after cd)"
    assert [(p.path, p.pattern) for p in rm.paths] == [(None, "/*")]


def test_a_fork_loop_names_why_it_is_catastrophic() -> None:
    condition, body = analyze("while :; do sh & done").commands
    assert condition.argv == (":",) and condition.catastrophic is None
    assert body.catastrophic == "fork bomb: an endless loop starts background processes"
