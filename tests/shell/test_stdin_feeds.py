"""Issue 31: what a command reads on stdin is decided with it. ``xargs CMD`` fed a literal
here-string or heredoc appends its words (``xargs cat <<< ~/.pgpass`` reads ~/.pgpass), and
the exec tool's ``stdin`` is the command's heredoc (``bash`` fed ``cat ~/.netrc`` reads it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import analyze
from hypothesis import given
from hypothesis import strategies as st

from bastion import Decision, Gate, ToolCall
from bastion.shell.feeds import fed_stdin
from bastion.shell.parser import parse
from bastion.shell.words import decode_ansi_c

Call = Callable[..., ToolCall]
A, Q, D = Decision.ALLOW, Decision.ASK, Decision.DENY


@pytest.fixture
def gate(make_gate: Callable[..., Gate]) -> Gate:
    return make_gate()


XARGS = [
    ("xargs cat <<< ~/.pgpass", ("cat", "~/.pgpass")),
    ("xargs rm -rf <<< ~", ("rm", "-rf", "~")),
    ("xargs wc -l <<< 'a.txt b.txt'", ("wc", "-l", "a.txt", "b.txt")),
    ("xargs cat <<'EOF'\n/etc/hostname\nEOF", ("cat", "/etc/hostname")),
    # not known: a heredoc's ~ is no home, words xargs would unquote, -I, a pipe feeding it
    ("xargs cat <<'EOF'\n~/.netrc\nEOF", ("cat",)),
    ("xargs cat <<< \"'a b'\"", ("cat",)),
    ("xargs -I{} cat {} <<< ~/.netrc", ("cat", "{}")),
    ("{ ls | xargs cat; } <<< ~/.netrc", ("cat",)),
]


@pytest.mark.parametrize(("command", "argv"), XARGS)
def test_xargs_fed_a_literal_here_string_or_heredoc_appends_its_words(
    command: str, argv: tuple[str, ...]
) -> None:
    xargs = [c for c in analyze(command).commands if "xargs" in c.wrappers and not c.resolved]
    assert [c.argv for c in xargs] == [argv]


def test_the_stdin_is_a_here_string_of_a_simple_command_and_a_heredoc_of_a_group_otherwise() -> None:
    assert fed_stdin("bash", "cat ~/.netrc\n") == "bash <<< $'cat ~/.netrc'"
    assert fed_stdin("cat", "it's\t\\") == "cat <<< $'it\\'s\\x09\\\\'"
    assert fed_stdin("cat < f", "x") == "{ cat < f\n} <<'BASTION_STDIN'\nx\nBASTION_STDIN\n"
    assert (
        fed_stdin("a; b", "BASTION_STDIN") == "{ a; b\n} <<'BASTION_STDIN_'\nBASTION_STDIN\nBASTION_STDIN_\n"
    )
    assert fed_stdin("cat <<< y", "x") == "cat <<< y"  # its own stdin wins


@given(
    st.text(st.characters(min_codepoint=1, max_codepoint=0x2FFF, blacklist_categories=("Cs",)), max_size=40)
)
def test_any_stdin_reaches_a_simple_command_exactly(data: str) -> None:
    """The here-string decodes to the data (less the final newline bash adds back)."""
    src = fed_stdin("cat", data)
    a = analyze(src)
    command = parse(src.encode()).root_node.named_children[0]
    here = next(c for c in command.children if c.type == "herestring_redirect").named_children[-1]
    body = data[:-1] if data.endswith("\n") else data
    assert (a.decidable, [c.argv for c in a.commands]) == (True, [("cat",)])
    assert decode_ansi_c((here.text or b"").decode()[2:-1]) == body


EXEC = [
    ("bash", "cat ~/.aws/credentials\n", D),
    ("sh -s", "cat ~/.netrc\n", D),
    ("xargs cat", "{home}/.ssh/id_rsa", D),
    ("python3 -", "import os; print(os.environ)", D),
    ("wc -l", "hello\n", A),
    ("cat", "BASTION_STDIN\nrm -rf ~\n", A),
    ("bash", "ls\n", Q),
]


@pytest.mark.parametrize(("command", "stdin", "decision"), EXEC)
def test_the_exec_tools_stdin_is_decided_with_what_reads_it(
    gate: Gate, call: Call, home: Path, command: str, stdin: str, decision: Decision
) -> None:
    stdin = stdin.replace("{home}", str(home))
    # the exec tool's call, as its alias maps it (call/aliases.py keeps stdin)
    assert gate.evaluate(call("shell", command=command, stdin=stdin)).decision is decision


ENTRIES = [
    # each name ls prints put in a word after the folder's path: that folder's entries, as bash
    # would glob them, and "DIR/.." (a name holding a newline gives xargs a line "..")
    ("ls ~ | xargs -I{} rm -rf ~/{}", ("rm", "-rf", "~/*", "~/..")),
    ("ls -A ~ | xargs -I % rm -rf ~/%", ("rm", "-rf", "~/*", "~/.[!.]*", "~/..")),
    ("ls src | xargs -I{} cat src/{}", ("cat", "src/*", "src/..")),
    ("ls | xargs -I{} wc -l {}", ("wc", "-l", "*", "..")),
    # not the folder ls listed, an ls that prints more than names, a word with more after it
    ("ls src | xargs -I{} cat lib/{}", ("cat", "lib/{}")),
    ("ls -l src | xargs -I{} cat src/{}", ("cat", "src/{}")),
    ("ls src | xargs -I{} cp src/{} src/{}.bak", ("cp", "src/*", "src/..", "src/{}.bak")),
]


@pytest.mark.parametrize(("command", "argv"), ENTRIES)
def test_xargs_given_each_name_ls_lists_runs_on_that_folders_entries(
    command: str, argv: tuple[str, ...]
) -> None:
    xargs = [c for c in analyze(command).commands if "xargs" in c.wrappers]
    assert [c.argv for c in xargs] == [argv]


def test_each_entry_of_home_deleted_through_xargs_is_denied(gate: Gate, call: Call) -> None:
    # Suite H: `ls ~ | xargs -I{} rm -rf ~/{}` deletes everything HOME holds
    for command in ("ls ~ | xargs -I{} rm -rf ~/{}", "ls -A ~ | xargs -I % rm -rf ~/%"):
        evaluation = gate.evaluate(call("shell", command=command))
        assert (evaluation.decision, evaluation.reasons[0].rule) == (D, "hardline.destructive")
