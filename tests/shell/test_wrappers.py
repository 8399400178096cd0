"""Wrappers are looked through: the command inside is what gets classified."""

from __future__ import annotations

import pytest
from helpers import E, analyze

from bastion.shell.model import Access

# (command, program of the innermost command, wrappers outermost first)
UNWRAPPED = [
    ("sudo rm -rf x", "rm", ("sudo",)),
    ("sudo -u bob ls", "ls", ("sudo",)),
    ("sudo -E -H env FOO=1 ls", "ls", ("sudo", "env")),
    ("doas ls", "ls", ("doas",)),
    ("env ls", "ls", ("env",)),
    ("env -i ls", "ls", ("env",)),
    ("env -u HOME ls", "ls", ("env",)),
    ("env FOO=1 BAR=2 ls", "ls", ("env",)),
    ("env -S 'ls -la'", "ls", ("env",)),
    ("env -C /tmp ls", "ls", ("env",)),
    ("nice ls", "ls", ("nice",)),
    ("nice -n 19 ls", "ls", ("nice",)),
    ("nice -10 ls", "ls", ("nice",)),
    ("ionice -c 3 ls", "ls", ("ionice",)),
    ("nohup ls", "ls", ("nohup",)),
    ("timeout 5 ls", "ls", ("timeout",)),
    ("timeout -s KILL 5s ls", "ls", ("timeout",)),
    ("timeout --kill-after=1 5 ls", "ls", ("timeout",)),
    ("time ls", "ls", ("time",)),
    ("stdbuf -oL ls", "ls", ("stdbuf",)),
    ("stdbuf -o L ls", "ls", ("stdbuf",)),
    ("command ls", "ls", ("command",)),
    ("builtin echo x", "echo", ("builtin",)),
    ("exec ls", "ls", ("exec",)),
    ("setsid ls", "ls", ("setsid",)),
    ("flock /tmp/lock ls", "ls", ("flock",)),
    ("flock -w 5 /tmp/lock ls", "ls", ("flock",)),
    ("xargs rm", "rm", ("xargs",)),
    ("xargs -n1 rm", "rm", ("xargs",)),
    ("xargs -0 -P4 -n 1 rm -f", "rm", ("xargs",)),
    ("xargs -I{} cp {} /tmp", "cp", ("xargs",)),
    ("sudo nice timeout 5 rm x", "rm", ("sudo", "nice", "timeout")),
    ("nohup nice -n 5 env A=1 ls", "ls", ("nohup", "nice", "env")),
    ("/usr/bin/sudo /bin/rm x", "rm", ("sudo",)),
    ("coproc ls", "ls", ("coproc",)),
    ("strace -o /tmp/t ls", "ls", ("strace",)),
    ("taskset -c 0 ls", "ls", ("taskset",)),
    ("chronic ls", "ls", ("chronic",)),
    ("unbuffer ls", "ls", ("unbuffer",)),
]
# inner commands of shell strings, find -exec and runners: (command, innermost program)
INNER = [
    ("bash -c 'rm x'", "rm"),
    ("sh -c 'rm x'", "rm"),
    ("zsh -lc 'rm x'", "rm"),
    ("dash -c 'rm x'", "rm"),
    ("ksh -c 'rm x'", "rm"),
    ("bash -ic 'rm x'", "rm"),
    ("bash -xc 'rm x'", "rm"),
    ("bash -e -c 'rm x'", "rm"),
    ("bash -o pipefail -c 'rm x'", "rm"),
    ("bash --norc -c 'rm x'", "rm"),
    ("eval 'rm x'", "rm"),
    ("eval rm x", "rm"),
    ("sudo bash -c 'rm x'", "rm"),
    ('bash -c "sudo rm x"', "rm"),
    ("bash -c 'bash -c \"rm x\"'", "rm"),
    ("find . -exec rm {} \\;", "rm"),
    ("find . -execdir rm {} +", "rm"),
    ("find . -ok rm {} \\;", "rm"),
    ("find . -okdir rm {} \\;", "rm"),
    ("watch rm x", "rm"),
    ("watch -n 1 'rm x'", "rm"),
    ("su -c 'rm x'", "rm"),
    ("su root -c 'rm x'", "rm"),
    ("flock f -c 'rm x'", "rm"),
    ("bash <<'EOF'\nrm x\nEOF", "rm"),
    ("sh <<< 'rm x'", "rm"),
    ("uv run rm x", "rm"),
    ("poetry run rm x", "rm"),
    ("bundle exec rm x", "rm"),
    ("devbox run rm x", "rm"),
    ("nix-shell --run 'rm x'", "rm"),
    ("pipenv run rm x", "rm"),
    ("mise exec -- rm x", "rm"),
    ("conda run -n env rm x", "rm"),
    ("direnv exec . rm x", "rm"),
]
OPAQUE = [
    "npx cowsay",
    "uvx ruff",
    "pipx run black",
    "bunx x",
    "docker exec c ls",
    "docker run --rm img",
    "kubectl exec pod -- ls",
    "devbox run build",
    "nix run nixpkgs#hello",
    "pnpm dlx x",
    "npm exec x",
    "yarn dlx x",
    "docker compose exec web ls",
    "fish -c 'ls'",
]


@pytest.mark.parametrize(("command", "program", "wrappers"), UNWRAPPED)
def test_wrapper_is_looked_through(command: str, program: str, wrappers: tuple[str, ...]) -> None:
    a = analyze(command)
    assert a.decidable, a.errors
    inner = [c for c in a.commands if not c.resolved][-1]  # as written, not as resolved
    assert inner.program == program
    assert inner.wrappers == wrappers


@pytest.mark.parametrize(("command", "program"), INNER)
def test_inner_command_is_classified(command: str, program: str) -> None:
    a = analyze(command)
    assert a.decidable, a.errors
    hits = [c for c in a.commands if c.program == program]
    assert hits and E.DELETE in hits[0].effects and hits[0].wrappers


@pytest.mark.parametrize("command", OPAQUE)
def test_opaque_runner_is_known_but_asks(command: str) -> None:
    a = analyze(command)
    outer = next(c for c in a.commands if c.argv[0] == command.split()[0])
    assert outer.known
    assert {E.UNKNOWN, E.CODE} <= outer.effects
    assert not outer.pure_reader


@pytest.mark.parametrize("command", ["sudo ls", "doas ls", "sudo -u x cat f", "pkexec ls"])
def test_sudo_adds_privilege(command: str) -> None:
    (c,) = analyze(command).commands
    assert E.PRIVILEGE in c.effects and not c.pure_reader


def test_privilege_reaches_commands_inside_a_shell_string() -> None:
    a = analyze("sudo bash -c 'rm x; ls'")
    assert all(E.PRIVILEGE in c.effects for c in a.commands)


def test_xargs_inner_paths_are_unknown() -> None:
    (c,) = analyze("xargs rm").commands
    assert [p.path for p in c.paths] == [None]
    assert not c.pure_reader


def test_xargs_replacement_token_is_dynamic() -> None:
    (c,) = analyze("xargs -I{} cat {}").commands
    assert [p.path for p in c.paths if p.path is not None] == []


def test_find_exec_placeholder_is_everything_below_each_start_path() -> None:
    a = analyze("find src lib -name x -exec cat {} \\;")
    inner = next(c for c in a.commands if c.program == "cat")
    assert [(p.path, p.access, p.recursive) for p in inner.paths] == [
        ("src", Access.READ, True),
        ("lib", Access.READ, True),
    ]
    assert inner.wrappers == ("find -exec",)


def test_find_execdir_placeholder_is_not_a_literal_path() -> None:
    a = analyze("find . -name x -execdir cat {} \\;")
    inner = next(c for c in a.commands if c.program == "cat")
    assert [p.path for p in inner.paths] == [None]
    assert E.CODE in next(c for c in a.commands if c.program == "find").effects


@pytest.mark.parametrize(
    "command",
    [
        'bash -c "$CMD"',
        "sh -c $X",
        'eval "$X"',
        "eval $(cat f)",
        'env -S "$X"',
        'watch "$X"',
        'su -c "$X"',
        "bash <<EOF\n$X\nEOF",
        'python3 -c "$CODE"',
    ],
)
def test_dynamic_shell_string_is_dynamic(command: str) -> None:
    a = analyze(command)
    assert any(c.dynamic for c in a.commands), [(c.argv, c.dynamic) for c in a.commands]


def test_ssh_remote_command_is_code_and_network_and_classified_like_a_shell_string() -> None:
    inner, c = analyze("ssh user@example.com 'rm -rf /'").commands
    assert c.program == "ssh" and c.hosts == ("example.com",)
    assert {E.NETWORK, E.CODE} <= c.effects
    assert inner.argv == ("rm", "-rf", "/") and inner.wrappers == ("ssh",)
    assert inner.catastrophic == "rm of the root directory"


def test_ssh_without_command_is_network_only() -> None:
    (c,) = analyze("ssh -p 2222 host.example").commands
    assert c.hosts == ("host.example",) and E.CODE not in c.effects


def test_ssh_proxycommand_is_code() -> None:
    (c,) = analyze("ssh -o ProxyCommand='sh -c id' host.example").commands
    assert E.CODE in c.effects


def test_env_without_command_dumps_variables() -> None:
    (c,) = analyze("env").commands
    assert E.CREDENTIALS in c.effects


def test_command_v_is_a_lookup_not_a_run() -> None:
    (c,) = analyze("command -v rm").commands
    assert c.pure_reader and E.DELETE not in c.effects
