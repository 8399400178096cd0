"""Issue 13, root causes 1 and 8: a shell string is classified by exactly the same code as
the top level (redirects, assignments, cd, heredocs, functions, substitutions), and no
program, wrapper or handler loses a command's redirections."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import decide
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bastion import Decision, Gate, ToolCall
from bastion.shell.analysis import analyze
from bastion.shell.model import Access

Call = Callable[..., ToolCall]
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY
CRED = ["hardline.credentials", "paths.deny_read"]


@pytest.fixture
def gate(make_gate: Callable[..., Gate], workspace: Path, home: Path) -> Gate:
    (workspace / "k").symlink_to(home / ".ssh" / "id_rsa")  # a workspace link to the key
    return make_gate()


# Root cause 1: (command, decision, rules). Every carrier of a shell string.
NESTED = [
    ("bash -c 'echo x > /etc/cron.d/x'", D, ["hardline.system"]),
    ('sh -c "echo pwn >> ~/.bashrc"', Q, ["hardline.agent-config"]),
    ("eval 'echo x > f'", A, ["mode.workspace"]),
    ("sh -c 'cat < ~/.ssh/id_rsa'", D, CRED),
    ("dash -c 'cat < k'", D, CRED),
    ("zsh -c 'echo x > /etc/x'", D, ["hardline.system"]),
    ("ksh -c 'cat ~/.ssh/id_rsa'", D, CRED),
    ("bash -lc 'echo x > /etc/x'", D, ["hardline.system"]),
    ("su -c 'echo x >> ~/.bashrc'", Q, ["hardline.agent-config", "hardline.privilege"]),
    ("script -qc 'cat ~/.ssh/id_rsa' /dev/null", D, CRED),
    ("flock /tmp/l -c 'cat ~/.ssh/id_rsa'", D, CRED),
    ("watch 'cat ~/.ssh/id_rsa'", D, CRED),
    ("env -S 'sh -c \"cat ~/.ssh/id_rsa\"'", D, CRED),
    ("xargs sh -c 'echo x > /etc/x'", D, ["hardline.system"]),
    ("find . -exec sh -c 'cat < ~/.ssh/id_rsa' \\;", D, CRED),
    ("ssh host 'rm -rf /'", D, ["hardline.destructive"]),
    ("trap 'rm -rf ~' EXIT", D, ["hardline.destructive"]),
    ("PROMPT_COMMAND='rm -rf ~' bash -i", D, ["hardline.destructive"]),
    ("mapfile -C 'rm -rf ~ #' -c 1 a < README.md", D, ["hardline.destructive"]),
    ("compgen -C 'rm -rf ~' x", D, ["hardline.destructive"]),
    ('sh -c "$X"', Q, ["shell.dynamic"]),
    ('eval "$X"', Q, ["shell.dynamic"]),
    ("bash -c 'cd ~/.ssh && cat id_rsa'", D, CRED),
    ("sh -c 'f() { cat ~/.ssh/id_rsa; }; f'", D, CRED),
    ("sh -c 'x=$(cat ~/.ssh/id_rsa)'", D, CRED),
    ("sh -c 'HOME=/tmp git status'", Q, ["approval.interactive_default"]),
    ("sh -c \"sh -c 'echo x > /etc/x'\"", D, ["hardline.system"]),
    ("bash -c 'cat <<EOF > /etc/x\nhi\nEOF'", D, ["hardline.system"]),
    ("bash -c 'ls'", A, ["mode.workspace"]),
    ("eval 'ls -la src'", A, ["mode.workspace"]),
]


@pytest.mark.parametrize(("command", "decision", "rules"), NESTED)
def test_a_shell_string_is_decided_by_what_runs_inside_it(
    gate: Gate, call: Call, command: str, decision: Decision, rules: list[str]
) -> None:
    assert decide(gate, call, command) == (decision, rules)


# Root cause 8: (command, decision, rules). `k` is a workspace symlink to the key.
REDIRECTED = [
    ("node --version < k", D, CRED),
    ("cat a.txt < k", D, CRED),
    ("tar tf a.tar < k", D, CRED),
    ("find . < k", D, CRED),
    ("grep -r x . < k", D, CRED),
    ("node --version < ~/.ssh/id_rsa", D, CRED),
    ("python3 --version > /etc/x", D, ["hardline.system"]),
    ("bash script.sh < ~/.ssh/id_rsa", D, CRED),
    ("source x.sh > /etc/x", D, ["hardline.system"]),
    ("timeout 5 bash -c 'ls' > /etc/x", D, ["hardline.system"]),
    ("timeout 5 bash -c 'ls' > out.txt", A, ["mode.workspace"]),
    ("env X=1 sh -c 'ls' < k", D, CRED),
    ("env LC_ALL=C sh -c 'ls' < k", D, CRED),
    ("sudo sh -c 'ls' > /etc/x", D, ["hardline.system"]),
    ("uv run pytest > /etc/x", D, ["hardline.system"]),
    ("find . -exec cat {} \\; > /etc/x", D, ["hardline.system"]),
    ("xargs cat < k", D, CRED),
    ("nice -n 5 python3 -V > /etc/x", D, ["hardline.system"]),
    ("bash -c 'cat' < k", D, CRED),
    ("bash -c 'ls' < README.md", A, ["mode.workspace"]),
]


@pytest.mark.parametrize(("command", "decision", "rules"), REDIRECTED)
def test_every_redirection_is_reported_whatever_program_or_wrapper_runs(
    gate: Gate, call: Call, command: str, decision: Decision, rules: list[str]
) -> None:
    assert decide(gate, call, command) == (decision, rules)


def test_a_carriers_redirection_is_on_every_command_of_its_string() -> None:
    a = analyze("timeout 5 bash -c 'ls; wc -l a' > out.txt")
    assert [(c.argv, [(p.path, p.access) for p in c.paths]) for c in a.commands] == [
        (("ls",), [("out.txt", Access.WRITE)]),
        (("wc", "-l", "a"), [("out.txt", Access.WRITE), ("a", Access.READ)]),
    ]


def test_an_empty_shell_string_keeps_its_carriers_redirection() -> None:
    (c,) = analyze("bash -c '' > /etc/x").commands
    assert c.program == "bash" and [(p.path, p.access) for p in c.paths] == [("/etc/x", Access.WRITE)]


def test_assignments_inside_a_shell_string_are_applied_like_at_the_top_level() -> None:
    (c,) = analyze("sh -c 'LD_PRELOAD=/tmp/x.so ls'").commands
    assert c.program == "ls" and not c.pure_reader
    assert any(n.startswith("program injection: LD_PRELOAD=") for n in c.notes)


def test_an_outer_assignment_reaches_the_commands_of_the_string() -> None:
    (c,) = analyze("env LD_PRELOAD=/tmp/x.so sh -c 'ls'").commands
    assert c.program == "ls" and not c.pure_reader and c.wrappers == ("env", "sh -c")


def test_find_exec_and_xargs_do_not_apply_the_redirection_twice() -> None:
    a = analyze("find . -exec cat {} \\; > out.txt")
    writes = [(c.program, p.path) for c in a.commands for p in c.paths if p.access is Access.WRITE]
    assert writes == [("find", "out.txt")]


# -- generated nesting never decides less strictly than the bare command ----------------
BARE = [
    "ls -la",
    "cat README.md",
    "grep -rn TODO src",
    "wc -l src/app.py",
    "echo hi",
    "echo x > out.txt",
    "echo x >> ~/.bashrc",
    "touch new.txt",
    "cp README.md b.md",
    "cat < ~/.ssh/id_rsa",
    "sort < README.md > sorted.txt",
    "cat k",
    "cat ~/.ssh/id_rsa",
    "printenv GITHUB_TOKEN",
    "rm -rf build",
    "rm -rf /",
    "rm -rf ~",
    "rm -rf /e*c",
    "curl https://example.com",
    "curl http://169.254.169.254/",
    "bastion approvals approve 1",
    "cat $X",
    "HOME=/tmp ls",
    "echo x > /etc/cron.d/x",
    "cd / && rm -rf *",
    "trap 'rm -rf ~' EXIT",
    "while :; do sh & done",
    "sgdisk -Z /dev/sda",
]
WRAPS = ["sh -c {}", "bash -c {}", "eval {}", "xargs sh -c {}", "env X=1 sh -c {}", "timeout 5 sh -c {}"]


def _wrap(command: str, wraps: list[str]) -> str:
    for wrap in wraps:
        command = wrap.format(shlex.quote(command))
    return command


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.sampled_from(BARE), st.lists(st.sampled_from(WRAPS), min_size=1, max_size=3))
def test_generated_nesting_never_decides_less_strictly_than_the_bare_command(
    gate: Gate, call: Call, command: str, wraps: list[str]
) -> None:
    bare, _ = decide(gate, call, command)
    nested, rules = decide(gate, call, _wrap(command, wraps))
    assert nested >= bare, (_wrap(command, wraps), rules)


# A cd moves the later commands of its own shell only (subshell, pipeline stage, $(…),
# sh -c are child shells; eval runs in this one): (command, path of the last command's use).
CD_SCOPES = [
    ("cd src; cd sub; cat x", "src/sub/x"),
    ("(cd sub); cat ../secret", "../secret"),
    ("cd src && (cd a; cat x)", "src/a/x"),
    ("cd src && (cd a; cat x); cat y", "src/y"),
    ("cd / | cat x", "x"),
    ("bash -c 'cd /tmp'; cat x", "x"),
    ("eval 'cd /tmp'; cat x", "/tmp/x"),
    ("echo $(cd /; echo x); cat y", "y"),
    ("cd src && bash -c 'cd a && cat x'", "src/a/x"),
]


@pytest.mark.parametrize(("command", "path"), CD_SCOPES)
def test_a_cd_moves_only_the_later_commands_of_its_own_shell(command: str, path: str) -> None:
    last = analyze(command).commands[-1]
    assert [p.path for p in last.paths] == [path]


PURE_WRAPS = ["sh -c {}", "bash -c {}", "dash -c {}", "eval {}", "timeout 5 sh -c {}"]


@settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.sampled_from(BARE), st.lists(st.sampled_from(PURE_WRAPS), min_size=1, max_size=3))
def test_a_pure_carrier_decides_exactly_like_the_bare_command(
    gate: Gate, call: Call, command: str, wraps: list[str]
) -> None:
    assert decide(gate, call, _wrap(command, wraps)) == decide(gate, call, command)
