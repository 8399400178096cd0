"""Issue 13, root cause 10: a login or interactive shell (how Codex runs every command:
`bash -lc '…'`) first runs its startup files. The classifier declares them (a note and a
read of each file, on every command the shell runs) so the policy checks them; startup code
the agent could have written (BASH_ENV=, ENV=, --rcfile, --init-file) makes it code."""

from __future__ import annotations

import pytest
from helpers import E, analyze

from bastion.shell.model import Access

BASH_LOGIN = ["/etc/profile", "~/.bash_profile", "~/.bash_login", "~/.profile"]
ZSHENV = ["/etc/zsh/zshenv", "~/.zshenv"]


def startup(command: str) -> list[tuple[tuple[str, ...], list[str]]]:
    """Each command with the startup files it declares as reads."""
    return [
        (c.argv, [p.path or "" for p in c.paths if p.why.startswith("startup file of")])
        for c in analyze(command).commands
    ]


STARTUP = [
    ("bash -lc 'ls'", [(("ls",), BASH_LOGIN)]),
    ("bash --login -c 'ls'", [(("ls",), BASH_LOGIN)]),
    ("bash -l -c 'ls; pwd'", [(("ls",), BASH_LOGIN), (("pwd",), BASH_LOGIN)]),
    ("sh -l -c 'ls'", [(("ls",), ["/etc/profile", "~/.profile"])]),
    ("dash -lc 'ls'", [(("ls",), ["/etc/profile", "~/.profile"])]),
    ("zsh -c 'ls'", [(("ls",), ZSHENV)]),
    (
        "zsh -lc 'ls'",
        [(("ls",), [*ZSHENV, "/etc/zsh/zprofile", "~/.zprofile", "/etc/zsh/zlogin", "~/.zlogin"])],
    ),
    ("bash -ic 'ls'", [(("ls",), ["/etc/bash.bashrc", "~/.bashrc"])]),
    ("bash -l", [(("bash", "-l"), BASH_LOGIN)]),
    ("sh -c \"bash -lc 'ls'\"", [(("ls",), BASH_LOGIN)]),
    ("bash -c 'ls'", [(("ls",), [])]),
    ("sh -c 'ls'", [(("ls",), [])]),
]


@pytest.mark.parametrize(("command", "expected"), STARTUP)
def test_a_login_or_interactive_shell_declares_its_startup_files_on_what_it_runs(
    command: str, expected: list[tuple[tuple[str, ...], list[str]]]
) -> None:
    assert startup(command) == expected


def test_a_login_shell_is_as_pure_as_its_inner_command_and_says_why() -> None:
    (c,) = analyze("bash -lc 'cat README.md > out.txt'").commands
    assert [(p.path, p.access) for p in c.paths] == [
        *((f, Access.READ) for f in BASH_LOGIN),
        ("out.txt", Access.WRITE),
        ("README.md", Access.READ),
    ]
    assert "a login bash first runs its startup files (" + ", ".join(BASH_LOGIN) + ")" in c.notes
    assert analyze("bash -lc 'ls'").commands[0].pure_reader


AGENT_STARTUP_CODE = [
    ("BASH_ENV=x.sh bash -c ls", "program injection: BASH_ENV= names shell code run first"),
    ("ENV=x.sh sh -c ls", "program injection: ENV= names shell code run first"),
    ("bash --rcfile x.sh -c ls", "bash --rcfile runs a startup file first"),
    ("bash --init-file x.sh -ic ls", "bash --init-file runs a startup file first"),
    ("env BASH_ENV=x.sh bash -lc ls", "program injection: BASH_ENV= names shell code run first"),
]


@pytest.mark.parametrize(("command", "note"), AGENT_STARTUP_CODE)
def test_startup_code_the_agent_could_have_written_makes_the_command_code(command: str, note: str) -> None:
    inner = next(c for c in analyze(command).commands if c.program == "ls")
    assert E.CODE in inner.effects and not inner.pure_reader and note in inner.notes
