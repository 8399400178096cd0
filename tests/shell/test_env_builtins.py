"""Issue 13, root cause 3: only allow-listed environment variables keep a command a pure
reader; builtins that assign or evaluate, and expansions that evaluate a run-time value as
code, are never pure readers. Everyday read-only loops and assignments stay allowed."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from helpers import analyze, decide, only

from bastion import Decision, Gate, ToolCall
from bastion.shell.model import Access, PathUse

Call = Callable[..., ToolCall]
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY
U = ["approval.interactive_default"]  # not a pure reader: a person decides
W = ["mode.workspace"]  # a pure reader touching only allowed paths


@pytest.fixture
def gate(make_gate: Callable[..., Gate]) -> Gate:
    return make_gate()


# (command, decision, rules): environment, assigning/evaluating builtins, evaluating words.
NOT_PURE = [
    ("HOME=/tmp ls", Q, U),
    ("XDG_CONFIG_HOME=. ls", Q, U),
    ("TAR_OPTIONS=-xf tar tf a.tar", Q, U),
    ("RIPGREP_CONFIG_PATH=x rg foo", Q, U),
    ("GOFLAGS=-toolexec=x go version", Q, U),
    ("DOCKER_HOST=tcp://169.254.169.254:2375 docker ps", D, ["hardline.metadata"]),
    ("BAT_PAGER=x bat README.md", Q, U),
    ("CDPATH=/ cd etc", Q, U),
    ("LD_PRELOAD=/tmp/x.so ls", Q, U),
    ("GIT_DIR=x git status", Q, U),
    ("env HOME=/tmp ls", Q, U),
    ("PIP_INDEX_URL=http://169.254.169.254/ pip list", D, ["hardline.metadata"]),
    ("npm_config_registry=http://169.254.169.254/ npm ls", D, ["hardline.metadata"]),
    ("export HTTPS_PROXY=http://169.254.169.254", D, ["hardline.metadata"]),
    ("printf -v x hi", Q, U),
    ("printf -v PATH /tmp", Q, U),
    ("read PATH", Q, U),
    ("read -r PS1", Q, U),
    ("read IFS", Q, U),
    ("declare -x A=1", Q, U),
    ("declare -n ref=PATH", Q, U),
    ("export PATH=/tmp", Q, U),
    ("local PATH=/tmp", Q, U),
    ("readonly PATH=/tmp", Q, U),
    ("set -a", Q, U),
    ("set -o allexport", Q, U),
    ("set -k", Q, U),
    ("alias ls='rm -rf ~'", D, ["hardline.destructive"]),
    ("alias ll='ls -l'", Q, U),
    ("trap 'rm -rf ~' EXIT", D, ["hardline.destructive"]),
    ("trap 'echo bye' EXIT", Q, U),
    ("hash -p /tmp/evil ls", Q, U),
    ("enable -f x.so y", Q, U),
    ("enable -n echo", Q, U),
    ("BASH_CMDS[ls]=/tmp/x; ls", Q, U),
    ("BASH_ALIASES[ls]='rm -rf ~'", D, ["hardline.destructive"]),
    ("shopt -s expand_aliases", Q, U),
    ("shopt -s dotglob; cat *", Q, U),
    ("PATH=/tmp/evil; ls", Q, U),
    ("IFS=/; ls", Q, U),
    ("echo ${x@P}", Q, ["shell.dynamic"]),
    ("echo ${!x}", D, ["hardline.credentials"]),  # prints the variable x names: any secret
    ("x='a[$(id)]'; echo $((x))", Q, ["shell.dynamic"]),
    ("x='a[$(id)]'; [[ $x -eq 1 ]]", Q, ["shell.dynamic"]),
    ("x='a[$(id)]'; let y=x", Q, ["shell.dynamic"]),
    ("x='a[$(id)]'; ((x))", Q, ["shell.dynamic"]),
    ("x='a[$(id)]'; echo ${a[x]}", Q, ["shell.dynamic"]),
    ("x='a[$(id)]'; echo ${s:x}", Q, ["shell.dynamic"]),
    ("read n < README.md; echo $((n*2))", Q, ["shell.dynamic"]),
    ("eval 'n=$x'; n=1; echo $((n))", Q, ["approval.interactive_default", "shell.dynamic"]),
    ("cat <<EOF\n$((x))\nEOF", Q, ["approval.interactive_default", "shell.dynamic"]),
    # the value the body gives f is decided too (shell/resolve.py): /etc/shadow is a credential
    # (the system's password hashes: denied, as any credential location read)
    ('for f in src/*.py; do f=/etc/shadow; cat "$f"; done', D, ["hardline.credentials"]),
    ("for f in src/*; do cat $f; done", Q, U),
    # the bound glob is expanded through the file system: the key itself is read
    ('for f in ~/.ssh/*; do cat "$f"; done', D, ["hardline.credentials", "paths.deny_read"]),
    ('for f in src/*.py; do cp "$f" "$f.bak"; done', Q, U),
]


# Forms that assign without NAME= syntax (found by the session tool's tests: `ls` then ran
# ./1/ls): judged as the standalone assignment they are.
ASSIGNING_FORMS = [
    "let PATH=1; ls",
    'let "PATH+=:."; ls',
    "((PATH=1)); ls",
    "for PATH in 1; do ls; done",
    "select PATH in 1; do ls; done",
    "for ((PATH=1;;)); do ls; done",
    "for IFS in x; do ls; done",
    "let BASH_ENV=1; bash -c ls",
    "for PROMPT_COMMAND in x; do :; done",
    "for HOME in /etc; do ls; done",
    "unset PATH; ls",
    "unset -v IFS; ls",
]


@pytest.mark.parametrize("command", ASSIGNING_FORMS)
def test_a_loop_let_or_arithmetic_assigning_a_special_variable_is_not_a_pure_reader(
    gate: Gate, call: Call, command: str
) -> None:
    decision, _ = decide(gate, call, command)
    assert decision is not Decision.ALLOW


@pytest.mark.parametrize(("command", "decision", "rules"), NOT_PURE)
def test_an_unknown_variable_or_an_assigning_builtin_is_not_a_pure_reader(
    gate: Gate, call: Call, command: str, decision: Decision, rules: list[str]
) -> None:
    assert decide(gate, call, command) == (decision, rules)


# Everyday read-only commands that stay allowed.
EVERYDAY = [
    ('while IFS= read -r l; do echo "$l"; done < README.md', A, W),
    ('for f in src/*.py; do wc -l "$f"; done', A, W),
    ("echo $(<README.md)", A, W),
    ("x=1; echo $x", A, W),
    ("set -euo pipefail; ls", A, W),
    ("LC_ALL=C sort README.md", A, W),
    ("LANG=C.UTF-8 TERM=xterm NO_COLOR=1 COLUMNS=80 CI=1 PYTHONUNBUFFERED=1 ls", A, W),
    ("export LANG=C; ls", A, W),
    ("n=3; echo $((n*2))", A, W),
    ("for ((i=0;i<3;i++)); do echo $i; done", A, W),
    ("echo $((RANDOM % 6))", A, W),
    ("trap - EXIT", A, W),
    ("mapfile -t a < README.md", A, W),
    ("read -r l < README.md", A, W),
    ("IFS=: read -r a b < README.md", A, W),
    ('for f in a b; do cat "$f"; done', A, W),
    ("declare -f", A, W),
    ("alias", A, W),
    ("shopt -q extglob", A, W),
    ("GIT_PAGER=cat git log", A, W),
    ("let i=1; echo $i", A, W),
    ("((n++)); echo $n", A, W),
    ("unset x; ls", A, W),
    ("for i in 1 2 3; do echo $i; done", A, W),
]


@pytest.mark.parametrize(("command", "decision", "rules"), EVERYDAY)
def test_everyday_loops_reads_and_harmless_variables_stay_allowed(
    gate: Gate, call: Call, command: str, decision: Decision, rules: list[str]
) -> None:
    assert decide(gate, call, command) == (decision, rules)


def test_a_for_loop_over_a_glob_binds_its_variable_to_the_pattern() -> None:
    c = only('for f in src/*.py; do wc -l "$f"; done')
    assert c.argv == ("wc", "-l", "src/*.py") and c.pure_reader
    assert c.paths == (PathUse("src/*.py", Access.READ, '"$f"', "argument of wc (glob)", pattern="src/*.py"),)


def test_a_for_loop_over_literal_words_runs_its_body_once_per_word() -> None:
    a = analyze('for f in a.txt b.txt; do cat "$f"; done')
    assert [(c.argv, c.pure_reader) for c in a.commands] == [
        (("cat", "a.txt"), True),
        (("cat", "b.txt"), True),
    ]


def test_a_loop_variable_reassigned_in_the_body_stays_a_run_time_value() -> None:
    a = analyze('for f in a.txt; do f=/etc/shadow; cat "$f"; done')
    cat = next(c for c in a.commands if c.program == "cat")
    assert [p.path for p in cat.paths] == [None]


def test_an_unquoted_glob_loop_variable_stays_a_run_time_value() -> None:
    c = only("for f in src/*; do cat $f; done")
    assert [p.path for p in c.paths] == [None] and not c.pure_reader


def test_a_host_variable_records_its_host_on_the_command_and_what_it_runs() -> None:
    (c,) = analyze("DOCKER_HOST=tcp://10.0.0.5:2375 sh -c 'docker ps'").commands
    assert c.program == "docker" and c.hosts == ("10.0.0.5",)


def test_a_prefix_assignment_is_unknown_but_a_standalone_ordinary_one_is_data() -> None:
    prefixed = only("HOME=/tmp ls")
    assert not prefixed.pure_reader and any(n.startswith("HOME=") for n in prefixed.notes)
    assert [(c.argv, c.resolved) for c in analyze("x=1; echo $x").commands] == [
        (("echo", "$x"), False),
        (("echo", "1"), True),
    ]


def test_read_into_an_ordinary_name_is_a_pure_reader_and_into_a_special_one_is_not() -> None:
    assert only("read -r line").pure_reader
    special = only("read -r PATH")
    assert not special.pure_reader
    assert "read assigns the special shell variable PATH" in special.notes


def test_a_trap_action_is_classified_like_a_shell_string() -> None:
    inner, trap = analyze("trap 'rm -rf ~' EXIT").commands
    assert inner.argv == ("rm", "-rf", "~") and inner.catastrophic
    assert trap.program == "trap" and "trap action is shell code" in trap.notes


def test_arithmetic_on_a_variable_only_set_to_integers_is_not_dynamic() -> None:
    assert not only("n=3; echo $((n*2))").dynamic
    assert only("x=a; echo $((x))").dynamic
