"""git commands that print a remote's URL are credential reads when the URL git prints may
carry a token (#31 root cause: remote URLs carry tokens)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from bastion import Decision, Gate, ToolCall
from bastion.policy.git_remote_urls import carries_secret, prints_remote_url

GateFactory = Callable[..., Gate]
Call = Callable[..., ToolCall]
A, D = Decision.ALLOW, Decision.DENY

PRINTERS = [
    "git remote -v",
    "git remote --verbose",
    "git remote get-url origin",
    "git remote show -n origin",
    "git ls-remote --get-url",
    "git ls-remote --get-url origin",
    "git config --get remote.origin.url",
    "git config remote.origin.url",
    "git config --get-regexp url",
    "git config --list",
    "git config -l",
    "git config get remote.origin.url",
]

TOKENED = [
    ("local", '[remote "origin"]\n\turl = https://bot:ghp_abcdef123456@github.com/o/r.git\n'),
    ("local", '[remote "origin"]\n\tpushurl = https://x-access-token:t0k@github.com/o/r.git\n'),
    ("local", '[url "https://user:TOKEN@github.com/"]\n\tinsteadOf = https://github.com/\n'),
    ("global", '[url "https://ghp_0123456789abcdefghij@github.com/"]\n\tinsteadOf = https://github.com/\n'),
]


@pytest.mark.parametrize(
    ("url", "secret"),
    [
        ("https://user:TOKEN@github.com/o/r", True),
        ("https://ghp_0123456789abcdefghij@github.com/o/r", True),
        ("https://github.com/o/r", False),
        ("ssh://git@github.com/o/r", False),
        ("git@github.com:o/r.git", False),
        ("https://alice@bitbucket.org/o/r", False),
        ("https://user:@host/r", False),
    ],
)
def test_a_url_carries_a_secret_when_its_userinfo_holds_a_password_or_token(url: str, secret: bool) -> None:
    assert carries_secret(url) is secret


@pytest.mark.parametrize(
    ("command", "prints"),
    [
        *[(c, True) for c in PRINTERS],
        ("git remote", False),
        ("git remote add up https://x", False),
        ("git ls-remote origin", False),
        ("git config user.name", False),
        ("git config --get user.email", True),  # --get may name any key: the stricter reading
        ("git status", False),
    ],
)
def test_the_commands_that_print_a_remote_url_are_known(command: str, prints: bool) -> None:
    words = command.split()
    assert prints_remote_url(words[1], tuple(words[2:])) is prints


@pytest.fixture
def repo(workspace: Path) -> Path:
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    subprocess.run([git, "init", "-q", "."], cwd=workspace, check=True)
    subprocess.run([git, "remote", "add", "origin", "https://github.com/o/r.git"], cwd=workspace, check=True)
    return workspace


@pytest.mark.parametrize("command", PRINTERS)
@pytest.mark.parametrize(("where", "text"), TOKENED)
def test_a_remote_url_printer_is_a_credential_read_when_the_config_holds_a_token(
    make_gate: GateFactory, call: Call, repo: Path, home: Path, command: str, where: str, text: str
) -> None:
    config = repo / ".git" / "config" if where == "local" else home / ".gitconfig"
    with config.open("a") as handle:
        handle.write(text)
    evaluation = make_gate().evaluate(call("shell", command=command))
    assert evaluation.decision is D
    assert "hardline.credentials" in [r.rule for r in evaluation.reasons]


@pytest.mark.parametrize("command", PRINTERS)
def test_a_remote_url_printer_without_a_token_is_no_credential_read(
    make_gate: GateFactory, call: Call, repo: Path, command: str
) -> None:
    gate = make_gate()
    before = gate.evaluate(call("shell", command=command))
    with (repo / ".git" / "config").open("a") as handle:
        handle.write('[url "ssh://git@github.com/"]\n\tinsteadOf = https://github.com/\n')
    after = gate.evaluate(call("shell", command=command))
    assert after.reasons == before.reasons
    if command in ("git remote -v", "git remote get-url origin", "git config --get remote.origin.url"):
        assert after.decision is A


def test_a_command_that_prints_no_url_is_not_a_credential_read(
    make_gate: GateFactory, call: Call, repo: Path
) -> None:
    with (repo / ".git" / "config").open("a") as handle:
        handle.write(TOKENED[0][1])
    assert make_gate().evaluate(call("shell", command="git status")).decision is A
