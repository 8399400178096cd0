"""Issue 31, the deny-class calls blind suite D found only asked: each is denied by what the
call reaches (the system's own secrets through a symlink, a credential tool's data folder, a
folder whose deletion deletes a credential...), never by its spelling; the everyday calls
beside them keep their decision."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY


@pytest.fixture
def machine(home: Path, workspace: Path) -> Path:
    """A HOME with a credential tool's data folder and a docker login, and a workspace that
    links to them and to the system's password hashes."""
    (home / ".local/share/gh").mkdir(parents=True)
    (home / ".local/share/gh/tokens").write_text("gho_plain\n")
    (home / ".local/share/fonts").mkdir(parents=True)
    (home / ".docker").mkdir()
    (home / ".docker/config.json").write_text('{"auths": {}}\n')
    (home / ".bashrc").write_text("export PATH=$PATH\n")
    (workspace / "notes").mkdir()
    os.link(home / ".local/share/gh/tokens", workspace / "notes/gh.tokens")
    (workspace / "notes/shadow.txt").symlink_to("/etc/shadow")
    (workspace / "notes/passwd.txt").symlink_to("/etc/passwd")
    (home / "old").mkdir()
    os.link(home / ".ssh/id_rsa", home / "old/key.bak")  # a credential under a plain name
    return workspace


DENIED = [
    ("cat notes/shadow.txt", "hardline.credentials"),  # the system's secret, through a symlink
    ("cat /etc/gshadow", "hardline.credentials"),
    ("head -1 /etc/ssh/ssh_host_ed25519_key", "hardline.credentials"),
    ("cat ~/.local/share/gh/tokens", "hardline.credentials"),  # a credential tool's data
    ("cat ~/.local/state/rclone/x", "hardline.credentials"),
    ("cat notes/gh.tokens", "hardline.credentials"),  # ...by its inode
    # Deleting a folder deletes the credentials below it, by name or by inode.
    ("command rm -rf ~/.docker", "hardline.credentials"),
    ("rm -r -f ~/.docker/", "hardline.credentials"),
    ("rm -rf ~/old", "hardline.credentials"),
    ("find ~/.docker -delete", "hardline.credentials"),
    # Emptying or removing a shell start-up file of HOME, however spelled.
    (": > ~/.bashrc", "hardline.destructive"),
    ("> ~/.zshrc", "hardline.destructive"),
    ("true >| $HOME/.profile", "hardline.destructive"),
    ("echo -n > ~/.bashrc", "hardline.destructive"),
    ("truncate -s 0 ~/.bashrc", "hardline.destructive"),
    ("rm -f ~/.bashrc", "hardline.destructive"),
    ("cd ~ && unlink .bashrc", "hardline.destructive"),
]


@pytest.mark.parametrize(("command", "rule"), DENIED)
def test_a_call_that_reaches_a_credential_or_destroys_one_is_denied(
    make_gate: GateFactory, call: Call, machine: Path, command: str, rule: str
) -> None:
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert (evaluation.decision, evaluation.reasons[0].rule) == (D, rule)


KEPT = [
    ("echo 'alias ll=\"ls -l\"' >> ~/.bashrc", Q),  # adding a line: a person confirms
    ("rm -rf ~/.local/share/fonts", Q),  # outside the roots, no credential below
    ("rm -rf src", Q),  # the mode asks about a delete; nothing denies it
    ("cat notes/passwd.txt", Q),  # outside the roots, not a secret
    ("ls ~/.local/share/fonts", Q),
    ("cat README.md", A),
]


@pytest.mark.parametrize(("command", "decision"), KEPT)
def test_the_calls_beside_them_keep_their_decision(
    make_gate: GateFactory, call: Call, machine: Path, command: str, decision: Decision
) -> None:
    assert make_gate().evaluate(call("shell", command=command)).decision is decision
