"""Issue 31, causes 3 and 4 of the last blind suite: an environment that makes a program run
code stays on the command whatever its arguments make of it (``NODE_OPTIONS=--require=./x.js
node --check f`` runs x.js though --check runs nothing), and a variable NAME operand whose
subscript bash evaluates (``test -v 'a[$(cmd)]'``) is code, not a read. Which builtins
evaluate a subscript was checked against bash 5.2 (each ran ``touch`` through it)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from helpers import decide
from hypothesis import given
from hypothesis import strategies as st

from bastion import Decision, Gate, ToolCall
from bastion.shell.analysis import analyze
from bastion.shell.subscripts import evaluated_name, plain_name
from bastion.shell.words import Word

Call = Callable[..., ToolCall]
A, Q = Decision.ALLOW, Decision.ASK
U = ["approval.interactive_default"]  # not a pure reader: a person decides
W = ["mode.workspace"]
DYN = ["shell.dynamic"]


@pytest.fixture
def gate(make_gate: Callable[..., Gate]) -> Gate:
    return make_gate()


CARRIED = [
    ("NODE_OPTIONS='--require ./x.js' node --check a.js", Q, U),
    ("NODE_OPTIONS=--require=./x.js node --version", Q, U),
    ("env NODE_OPTIONS=--require=./x.js node --check a.js", Q, U),
    ("BASH_ENV=./x.sh bash -n a.sh", Q, U),
    ("PERL5OPT=-Mx perl -c a.pl", Q, U),
    ("PYTHONSTARTUP=x.py python3 --version", Q, U),
    ("RUBYOPT=-rx ruby --version", Q, U),
    ("LD_PRELOAD=./x.so node --version", Q, U),
    ("GOTOOLCHAIN=go1.99.1 go version", Q, U),
    ("JAVA_TOOL_OPTIONS=-javaagent:x.jar java -version", Q, U),
    ("GIT_PAGER=./x git --version", Q, U),
    # the everyday spellings stay reads
    ("node --check a.js", A, W),
    ("bash -n a.sh", A, W),
    ("LANG=C node --version", A, W),
]


@pytest.mark.parametrize(("command", "decision", "rules"), CARRIED)
def test_an_environment_that_runs_code_is_not_undone_by_a_syntax_check_or_version_flag(
    gate: Gate, call: Call, command: str, decision: Decision, rules: list[str]
) -> None:
    assert decide(gate, call, command) == (decision, rules)


NAMED = [
    ("test -v 'a[$(id)]'", Q, DYN),
    ("[ -v 'a[$(id)]' ]", Q, DYN),
    ("[[ -v 'a[$(id)]' ]]", Q, DYN),
    ("[[ -v a[$(id)] ]]", Q, DYN),
    ('test -v "$x"', Q, DYN),
    ("printf -v 'a[$(id)]' x", Q, DYN),
    ("read 'a[$(id)]' < README.md", Q, DYN),
    ("read -ra 'a[$(id)]' < README.md", Q, DYN),
    ("local 'a[$(id)]'", Q, DYN),
    ("declare 'a[$(id)]=1'", Q, DYN),
    ("wait -n -p 'a[$(id)]'", Q, DYN),
    ("unset 'a[$(id)]'; ls", Q, DYN),
    ("unset -v 'a[$(id)]'; ls", Q, DYN),
    # plain names and decimal subscripts are data
    ("test -v HOME", A, W),
    ("[[ -v a[1] ]]", A, W),
    ("[ -f README.md ]", A, W),
    ("read -r line < README.md", A, W),
    ("read -ra words < README.md", A, W),
    ("unset x; ls", A, W),
    ("unset -f f; ls", A, W),
]


@pytest.mark.parametrize(("command", "decision", "rules"), NAMED)
def test_a_variable_name_with_an_evaluated_subscript_is_code(
    gate: Gate, call: Call, command: str, decision: Decision, rules: list[str]
) -> None:
    assert decide(gate, call, command) == (decision, rules)


def test_the_name_operands_are_found_past_options_and_their_values() -> None:
    def w(*values: str) -> tuple[Word, ...]:
        return tuple(Word(v, v, v) for v in values)

    assert evaluated_name("read", w("-p", "a[$(x)]", "n")) is None  # -p's value is a prompt
    assert evaluated_name("read", w("-p", "prompt", "a[$(x)]")) == Word("a[$(x)]", "a[$(x)]", "a[$(x)]")
    assert evaluated_name("mapfile", w("-t", "a[$(x)]")) is not None
    assert evaluated_name("printf", w("-va[$(x)]", "v")) is not None
    assert evaluated_name("getopts", w("ab", "a[$(x)]")) is not None
    assert evaluated_name("echo", w("a[$(x)]")) is None  # not a name operand


_IDENT = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True)


@given(_IDENT, st.integers(min_value=0, max_value=10**6))
def test_an_identifier_with_a_decimal_subscript_is_a_plain_name(name: str, index: int) -> None:
    assert plain_name(name) and plain_name(f"{name}[{index}]")


@given(_IDENT, st.text(min_size=1, max_size=12).filter(lambda s: not s.isdecimal() or not s.isascii()))
def test_any_other_subscript_is_evaluated_and_never_a_pure_read(name: str, subscript: str) -> None:
    assert not plain_name(f"{name}[{subscript}]")
    quoted = "'" + f"{name}[{subscript}]".replace("'", "'\\''") + "'"
    analysis = analyze(f"test -v {quoted}")
    assert not (analysis.decidable and all(c.pure_reader for c in analysis.commands))
