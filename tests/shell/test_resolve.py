"""Issue 31: a value the source spells out for its own variables, positional parameters,
arrays, ``read``/``printf -v`` and pure substitutions is decided like its literal. A
credential printed through ``f=.netrc; cat ~/$f`` is a credential read (denied), ``h=~; rm
-rf "$h"`` deletes HOME; an everyday call with a variable is decided as before."""

from __future__ import annotations

import shlex
from collections.abc import Callable

import pytest
from helpers import analyze, decide
from hypothesis import given
from hypothesis import strategies as st

from bastion import Decision, Gate, ToolCall
from bastion.shell.parser import parse
from bastion.shell.resolve import resolved

Call = Callable[..., ToolCall]
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY
CRED = ["hardline.credentials"]
HOME_RM = ["hardline.destructive"]
U = ["approval.interactive_default"]


@pytest.fixture
def gate(make_gate: Callable[..., Gate]) -> Gate:
    return make_gate()


def resolve(source: str) -> str | None:
    data = source.encode()
    return resolved(parse(data).root_node, data)


RESOLVED = [
    ("f=.netrc; cat ~/$f", "f=.netrc; cat ~/.netrc"),
    ("f=~/.netrc; cat $f", 'f=~/.netrc; cat "$HOME"/.netrc'),
    ('f=~/.netrc; cat "$f"', 'f=~/.netrc; cat "$HOME/.netrc"'),
    ("a=.ne; b=trc; cat ~/$a$b", "a=.ne; b=trc; cat ~/.netrc"),
    ("a=.ne; cat ~/${a}trc", "a=.ne; cat ~/.netrc"),
    ("a=.ne; a+=trc; cat ~/$a", "a=.ne; a+=trc; cat ~/.netrc"),
    ("b=.netrc; a=$b; cat ~/$a", "b=.netrc; a=.netrc; cat ~/.netrc"),
    ('set -- ~/.netrc; cat "$1"', 'set -- ~/.netrc; cat "$HOME/.netrc"'),
    ('x=(~/.netrc a); cat "${x[0]}"', 'x=(~/.netrc a); cat "$HOME/.netrc"'),
    ("read p <<< ~/.netrc; cat $p", 'read p <<< ~/.netrc; cat "$HOME"/.netrc'),
    ("read -r a b <<< 'x y z'; echo $b", "read -r a b <<< 'x y z'; echo y z"),
    ("printf -v p '%s/.pgpass' ~; cat \"$p\"", "printf -v p '%s/.pgpass' ~; cat \"$HOME/.pgpass\""),
    ("cmd=cat; $cmd ~/.netrc", "cmd=cat; cat ~/.netrc"),
    ("cat `echo ~/.netrc`", 'cat "$HOME"/.netrc'),
    ("cat $(printf '%s/.%s' ~ netrc)", 'cat "$HOME"/.netrc'),
    ("cat ~/$(echo .argep | tr a-z n-za-m)", "cat ~/.netrc"),
    ("cat ~/$(rev <<< crten.)", "cat ~/.netrc"),
    ("cat $(echo LmdpdC1jcmVkZW50aWFscw== | base64 -d)", "cat .git-credentials"),
    ("cat $(find ~ -name .netrc)", 'cat "$HOME"/.netrc'),
    # a shell reading its program from a pure pipeline runs what it prints
    ("echo Y2F0IH4vLm5ldHJj | base64 -d | sh", "sh -c 'cat ~/.netrc'"),
    ("printf 'rm -rf ~' | /bin/bash -s", "bash -c 'rm -rf ~'"),
    ("source <(echo cat ~/.git-credentials)", "sh -c 'cat ~/.git-credentials\n'"),
    ("bash <(printf 'cat ~/.netrc')", "bash -c 'cat ~/.netrc'"),
    ("rm -rf $(echo ~)", 'rm -rf "$HOME"'),
    ('h=~; rm -rf "$h"', 'h=~; rm -rf "$HOME"'),
    ("f='a b'; cat $f", "f='a b'; cat a b"),
    ("f='*.py'; ls $f", "f='*.py'; ls *.py"),
    ("dd if=$HOME/.vault-token", "dd if=~/.vault-token"),  # home inside a word: the classifier's ~
    ('f=~/.netrc; dd "if=$f"', 'f=~/.netrc; dd "if=~/.netrc"'),
    ("cat ~root/.ssh/id_rsa", "cat /root/.ssh/id_rsa"),
    ("rm -rf ~+/../home", "rm -rf ./../home"),  # ~+ is the working directory
    ("env --chdir=$HOME/.aws cat credentials", 'cd "$HOME"/.aws && env  cat credentials'),
    ("env -i -C d x", "cd d && env -i   x"),
    ('rm -rf "$(dirname "$PWD")"', 'rm -rf "./.."'),
    ("cd sub && rm -rf $(dirname $PWD)", "cd sub && rm -rf ./.."),
    ('rm -rf "$(pwd)/.."', 'rm -rf "./.."'),  # $(pwd) is the working directory
    ("rm -rf $(dirname $(pwd))", "rm -rf ./.."),
    ("tr '\\0' '\\n' < /proc/$$/environ", "tr '\\0' '\\n' < /proc/self/environ"),
    ("f='~/.netrc'; cat $f", "f='~/.netrc'; cat '~/.netrc'"),  # no tilde expansion of a value
    ('f="it\'s"; echo "$f"', 'f="it\'s"; echo "it\'s"'),
    ('f=\'say "$x"\'; echo "$f"', 'f=\'say "$x"\'; echo "say \\"\\$x\\""'),
    # a variable holding lines of a file: each use is a line of it (shell/list_vars.py)
    ('mapfile -t f < l.txt; cat "${f[@]}"', 'mapfile -t f < l.txt; cat "$(cat l.txt)"'),
    ("readarray -t < l.txt; cat ${MAPFILE[@]}", 'readarray -t < l.txt; cat "$(cat l.txt)"'),
    ('while read -r f; do cat "$f"; done < l.txt', 'while read -r f; do cat "$(cat l.txt)"; done < l.txt'),
    ("read -r p < 'my list'; cat $p", "read -r p < 'my list'; cat \"$(cat 'my list')\""),
]

UNRESOLVED = [
    "echo $HOME",
    'cat "$HOME/.bashrc"',
    "for f in *.py; do cat $f; done",
    "cat $(ls | head -1)",
    "f=$(cat x); cat $f",
    "read p; cat $p",
    "read -p prompt p <<< ~/.netrc; cat $p",
    "xargs cat <<< ~/.pgpass",  # xargs reads its here-string itself (wrapper_args)
    "echo $((x+1))",
    "cat <<EOF\n$f\nEOF",
    "echo 'f=$x'",
    "cat ~rooty/x",
    "ls $PWD",
    'echo "$PWD/x"',
    "cat x$PWD",
    "ls ~-/x",
    "env FOO=1 ls",
    "ls ~/x",
    "mapfile -t f < l.txt; f=(a); ls",  # assigned again: no longer the file's lines
    "read -r a b < l.txt; cat $a",  # a field of a line, not a line
    "mapfile -t -d , f < l.txt; cat ${f[1]}",
]


@pytest.mark.parametrize(("source", "text"), RESOLVED)
def test_a_value_the_source_spells_out_replaces_its_use(source: str, text: str) -> None:
    assert resolve(source) == text


@pytest.mark.parametrize("source", UNRESOLVED)
def test_a_value_only_known_at_run_time_is_left_alone(source: str) -> None:
    assert resolve(source) is None


# (command, decision, deciding rules): on the gate, with the resolved commands decided too.
DECISIONS = [
    ("f=.netrc; cat ~/$f", D, CRED),
    ("f=~/.netrc; cat $f", D, CRED),
    ("a=.ne; b=trc; cat ~/$a$b", D, CRED),
    ('set -- ~/.netrc; cat "$1"', D, CRED),
    ('x=(~/.netrc); cat "${x[0]}"', D, CRED),
    ('x=(cat ~/.pypirc); "${x[@]}"', D, CRED),  # suite H: every item its own word
    ('x=(-n ~/.netrc); cat "${x[@]}"', D, CRED),
    ("read p <<< ~/.netrc; cat $p", D, CRED),
    ("printf -v p '%s/.pgpass' ~; cat \"$p\"", D, CRED),
    ("cmd=cat; $cmd ~/.netrc", D, CRED),
    ("cat `echo ~/.netrc`", D, CRED),
    ("cat ~/$(echo .argep | tr a-z n-za-m)", D, CRED),
    ("cd ~ && cat $(echo LmdpdC1jcmVkZW50aWFscw== | base64 -d)", D, CRED),
    ("echo Y2F0IH4vLm5ldHJj | base64 -d | sh", D, CRED),
    ("source <(echo cat ~/.git-credentials)", D, CRED),
    ("base64 $(printf '%s/.aws/credentials' ~)", D, CRED),
    ("xargs cat <<< ~/.pgpass", D, CRED),
    ("dd if=$HOME/.vault-token", D, CRED),
    ("cat ~root/.ssh/id_rsa", D, CRED),
    ("env --chdir=$HOME/.aws cat credentials", D, CRED),
    ('h=~; rm -rf "$h"', D, HOME_RM),
    ("rm -rf `printf ~`", D, HOME_RM),
    ('xargs rm -rf <<< "$HOME"', D, HOME_RM),
    # everyday: decided as before
    ("x=1; echo $x", A, ["mode.workspace"]),
    ("f=README.md; cat $f", Q, U),
    ('d=src; ls "$d"', Q, U),
    ("echo $HOME", A, ["mode.workspace"]),
    ('for f in *.md; do wc -l "$f"; done', A, ["mode.workspace"]),
]


@pytest.mark.parametrize(("command", "decision", "rules"), DECISIONS)
def test_a_credential_or_home_reached_through_a_value_the_source_spells_out_is_denied(
    gate: Gate, call: Call, command: str, decision: Decision, rules: list[str]
) -> None:
    assert decide(gate, call, command) == (decision, rules)


def test_the_resolved_commands_are_marked_and_say_so() -> None:
    a = analyze("f=.netrc; cat ~/$f")
    assert [(c.argv, c.resolved) for c in a.commands] == [
        (("cat", "~/$f"), False),
        (("cat", "~/.netrc"), True),
    ]
    assert (
        a.commands[1].notes[-1].startswith("as it runs with the values the command gives its own variables")
    )


_TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=126, blacklist_characters="*?[~"), max_size=12)


@given(value=_TEXT)
def test_a_quoted_use_resolves_to_exactly_the_assigned_value(value: str) -> None:
    a = analyze(f'v={shlex.quote(value)}; printf %s "$v"')
    assert [c.argv for c in a.commands if c.resolved] == [("printf", "%s", value)]


@given(value=_TEXT.filter(lambda v: v.strip() != ""))
def test_an_unquoted_use_resolves_to_the_words_bash_splits_the_value_into(value: str) -> None:
    a = analyze(f"v={shlex.quote(value)}; printf %s $v")
    assert [c.argv for c in a.commands if c.resolved] == [("printf", "%s", *value.split())]


def test_what_a_run_is_given_comes_from_the_command_as_written_not_its_resolved_values() -> None:
    from bastion.shell.analysis import analyze, as_written

    analysis = analyze("d=/srv/other; touch $d/z")
    written = as_written(analysis)

    assert (
        [c.argv for c in analysis.commands if c.resolved],
        [c.argv for c in written.commands if c.resolved],
        len(written.commands) < len(analysis.commands),
    ) == ([("touch", "/srv/other/z")], [], True)
