"""awk programs are read token by token: a string or regex can hide nothing."""

from __future__ import annotations

import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bastion.call.effects import Effect
from bastion.shell.analysis import analyze
from bastion.shell.awkscript import Finding, findings
from bastion.shell.awkscript import strings as awkscript_strings

E = Effect


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        ("{print $1}", []),
        ('NR==1{print "}"}', []),
        ("{s+=$1} END {print s}", []),
        ("{print (a > b)}", []),
        ('$0 ~ /}/ { print > "x" }', [Finding("write", "x", "print > writes a file")]),
        ('{ print "}" > "/tmp/x" }', [Finding("write", "/tmp/x", "print > writes a file")]),
        ('{ printf "a}" >> "log" }', [Finding("write", "log", "print >> writes a file")]),
        ("{ print > $2 }", [Finding("write", None, "print > writes a file")]),
        ('{ print "}" | "sh" }', [Finding("code", None, "awk | pipes to or from a shell command")]),
        ('{ "date" | getline d }', [Finding("code", None, "awk | pipes to or from a shell command")]),
        ('{ print |& "cat" }', [Finding("code", None, "awk |& pipes to or from a shell command")]),
        ('{print "a}"; system("id")}', [Finding("code", None, "system() runs a shell command")]),
        (
            'BEGIN{f = "sys" "tem"; @f("id")}',
            [Finding("code", None, "gawk @: an indirect call or a directive (@include, @load)")],
        ),
        (
            '@include "x.awk"',
            [Finding("code", None, "gawk @: an indirect call or a directive (@include, @load)")],
        ),
        ('{ while ((getline line < "f") > 0) n++ }', [Finding("read", "f", "getline < FILE reads a file")]),
        # getline's file from an expression: a field of the record, the literal end of what
        # the variable was last assigned, or the whole literal it was assigned (HOME's own
        # path and literals: a path below HOME).
        (
            "{ while ((getline l < $0) > 0) print l }",
            [Finding("read", None, "getline < FILE reads a file", record=True)],
        ),
        (
            'BEGIN { f = ENVIRON["HOME"] "/.netrc"; getline l < f }',
            [Finding("read", "~/.netrc", "getline < FILE reads a file")],
        ),
        (
            'BEGIN { f = "x"; f = f "/.aws/" "credentials"; getline l < f }',
            [Finding("read", None, "getline < FILE reads a file", tail="/.aws/credentials")],
        ),
        (
            'BEGIN { getline l < (ENVIRON["HOME"] "/.pgpass") }',
            [Finding("read", "~/.pgpass", "getline < FILE reads a file")],
        ),
        (
            'BEGIN { getline l < (ENVIRON["TMP"] "/.pgpass") }',
            [Finding("read", None, "getline < FILE reads a file", tail="/.pgpass")],
        ),
        (
            'BEGIN { print 1 > (ENVIRON["HOME"] "/.bashrc") }',
            [Finding("write", "~/.bashrc", "print > writes a file")],
        ),
        (
            'BEGIN { f = "/etc/" "shadow"; getline l < f }',
            [Finding("read", "/etc/shadow", "getline < FILE reads a file")],
        ),
        ('BEGIN { f = "/x"; f += 1; getline l < f }', [Finding("read", None, "getline < FILE reads a file")]),
        ('BEGIN { f = "a/" g; getline l < f }', [Finding("read", None, "getline < FILE reads a file")]),
        ('BEGIN { print ENVIRON["HOME"] }', []),
        (
            'BEGIN { print ENVIRON["GITHUB_TOKEN"] }',
            [Finding("environ", None, "ENVIRON read beyond a literal, non-secret name")],
        ),
        (
            "BEGIN { for (k in ENVIRON) print k }",
            [Finding("environ", None, "ENVIRON read beyond a literal, non-secret name")],
        ),
        ("{ a = 4 / 2; print a }", []),
        ("# a comment } > x\n{ print }", []),
    ],
)
def test_an_awk_program_is_read_by_its_tokens(program: str, expected: list[Finding]) -> None:
    assert findings(program) == expected


@pytest.mark.parametrize(
    "program", ['{ print "unterminated }', "{ print /unterminated }", '{ print "a\nb" }']
)
def test_a_program_the_lexer_cannot_follow_is_unknown_never_harmless(program: str) -> None:
    assert findings(program) is None
    cmd = analyze(f"awk {shlex.quote(program)} f").commands[0]
    assert E.UNKNOWN in cmd.effects and not cmd.pure_reader


#: Any printable text a string literal may hold ("}", ">", "|", "#", "/" and quotes of the shell).
_TEXT = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=126, exclude_characters='"\\'), max_size=20
)


@given(_TEXT)
def test_what_a_string_holds_never_hides_a_redirection(inner: str) -> None:
    cmd = analyze(
        f"awk {shlex.quote('{ print ' + chr(34) + inner + chr(34) + ' > ' + chr(34) + '/tmp/x' + chr(34) + ' }')} f"
    )
    assert E.WRITE in cmd.commands[0].effects
    assert not cmd.commands[0].pure_reader


@given(_TEXT)
def test_what_a_string_holds_never_hides_a_pipe_to_a_shell(inner: str) -> None:
    cmd = analyze(
        f"awk {shlex.quote('{ print ' + chr(34) + inner + chr(34) + ' | ' + chr(34) + 'sh' + chr(34) + ' }')} f"
    )
    assert E.CODE in next(c for c in cmd.commands if c.program == "awk").effects


@given(_TEXT)
def test_a_plain_print_of_any_string_is_a_read(inner: str) -> None:
    cmd = analyze(f"awk {shlex.quote('{ print ' + chr(34) + inner + chr(34) + ' }')} f")
    assert cmd.commands[0].pure_reader, cmd.commands[0].notes


@pytest.mark.parametrize(
    ("program", "strings"),
    [
        ('BEGIN { f = "sys" "tem"; @f("cat ~/.netrc") }', ["sys", "tem", "system", "cat ~/.netrc"]),
        ('{ print "a\\tb" | "sort -u" }', ["sort -u"]),  # one with an escape is left out
        ("{ print $1 }", []),
    ],
)
def test_the_strings_of_a_program_and_their_concatenations_are_listed(
    program: str, strings: list[str]
) -> None:
    assert awkscript_strings(program) == strings


@pytest.mark.parametrize(
    ("program", "commands"),
    [
        # each string of a program that runs commands is decided as the command it spells
        ('BEGIN { f = "sys" "tem"; @f("cat ~/.netrc") }', ["sys", "tem", "system", "cat", "awk"]),
        ('BEGIN { s = "}"; print "cat ~/.netrc" | "sh" }', ["cat", "sh", "awk"]),
        ('BEGIN { system("rm -rf ~") }', ["rm", "awk"]),
        # a string that is no shell syntax runs nothing: it is text
        ('{ print "a (b" | "sort" }', ["sort", "awk"]),
        # a program that runs nothing: its strings are text
        ('{ print "rm -rf ~" }', ["awk"]),
    ],
)
def test_the_strings_a_program_may_give_a_shell_are_decided_as_commands(
    program: str, commands: list[str]
) -> None:
    analysis = analyze(f"awk {shlex.quote(program)} f")
    assert (analysis.errors, [c.program for c in analysis.commands]) == ((), commands)
