"""Parser differentials and parse failures: decode like bash, or refuse to decide."""

from __future__ import annotations

import pytest
from helpers import E, analyze, only

# (command, expected argv of the single simple command)
DECODED = [
    ("\\rm -rf x", ("rm", "-rf", "x")),
    ("'r'm x", ("rm", "x")),
    ('"r"m x', ("rm", "x")),
    ("r\\m x", ("rm", "x")),
    ("$'\\x72m' x", ("rm", "x")),
    ("$'\\162m' x", ("rm", "x")),
    ("$'\\u0072m' x", ("rm", "x")),
    ("$'r\\x6d' x", ("rm", "x")),
    ("r''m x", ("rm", "x")),
    ('r""m x', ("rm", "x")),
    ("rm \\\n -rf x", ("rm", "-rf", "x")),
    ("echo 'a b'", ("echo", "a b")),
    ('echo "a\\"b"', ("echo", 'a"b')),
    ("echo a\\ b", ("echo", "a b")),
    ("echo $'a\\tb'", ("echo", "a\tb")),
    ("echo $'\\''", ("echo", "'")),
    ("/usr/bin/rm x", ("/usr/bin/rm", "x")),
    ("echo \"x\"'y'z", ("echo", "xyz")),
    ("echo ''", ("echo", "")),
    ("cat ~/x", ("cat", "~/x")),
    ("cat $HOME/x", ("cat", "~/x")),
    ("cat ${HOME}/x", ("cat", "~/x")),
    ('cat "$HOME/x"', ("cat", "~/x")),
    ("echo \\$HOME", ("echo", "$HOME")),
    ("echo '$HOME'", ("echo", "$HOME")),
    ("ls # a comment", ("ls",)),
    ("echo a#b", ("echo", "a#b")),
    ('$"rm" x', ("rm", "x")),
]
# Forms that must make the analysis undecidable (errors non-empty).
UNDECIDABLE = [
    "cat <<'EOF'; echo done\nhi\nEOF",
    "cat <> f",
    "exec 3<>f",
    "ls |",
    "echo 'unterminated",
    'echo "unterminated',
    "if true; then",
    "for x in; do",
    "(ls",
    "{ ls",
    "ls )",
    "case x in",
    "echo $(",
    "echo `",
    "cat <<EOF; ls\nb\nEOF",
    "cat 0<f",
    "ls &&",
    "|| ls",
    "ls ;; ls",
    "echo ${",
    "r\\\nm x",
    "cat <<-EOF\n\t$(rm -rf ~)\n\tEOF",
    "cat <<EOF file2 && rm x\nb\nEOF",
    "echo \x00",
    "x" * 70000,
    "a=(",
    "f() {",
    "while",
    "done",
    "fi",
    "esac",
]


@pytest.mark.parametrize(("command", "argv"), DECODED)
def test_word_is_decoded_like_bash(command: str, argv: tuple[str, ...]) -> None:
    assert only(command).argv == argv


@pytest.mark.parametrize("command", UNDECIDABLE)
def test_cannot_be_decided(command: str) -> None:
    assert not analyze(command).decidable


def test_too_long_is_refused_with_a_reason() -> None:
    a = analyze("echo " + "a" * 65536)
    assert a.errors and "too long" in a.errors[0] and a.commands == ()


def test_exactly_64_kib_is_still_analysed() -> None:
    cmd = "echo " + "a" * (65536 - 5)
    assert len(cmd.encode()) == 65536
    assert analyze(cmd).decidable


def test_spelling_keeps_what_was_written() -> None:
    c = only("\\rm x")
    assert (c.program, c.spelling) == ("rm", "\\rm")
    c = only("/usr/bin/rm x")
    assert (c.program, c.spelling, c.known) == ("rm", "/usr/bin/rm", True)


@pytest.mark.parametrize(
    "command",
    [
        "/tmp/git push",
        "/opt/x/rm -rf y",
        "~/bin/ls",
        "/home/u/.local/bin/git status",
    ],
)
def test_program_outside_standard_dirs_is_unknown(command: str) -> None:
    c = only(command)
    assert not c.known and E.UNKNOWN in c.effects and not c.pure_reader


@pytest.mark.parametrize("command", ["./script.sh", "./x --flag", "bin/run", "../tool"])
def test_relative_program_is_unknown_code(command: str) -> None:
    c = only(command)
    assert not c.known and {E.UNKNOWN, E.CODE} <= c.effects


@pytest.mark.parametrize(
    "command",
    [
        "$a -rf x",
        "${a} x",
        '"$CMD" x',
        "$(echo rm) -rf x",
        "`echo rm` x",
        "${x@P}",
        "*",
        "r* x",
        "${CMD:-rm} x",
        "~root/bin/x",
        "$1",
        "${!name}",
    ],
)
def test_dynamic_command_word_is_undecided(command: str) -> None:
    a = analyze(command)
    last = [c for c in a.commands if not c.resolved][-1]
    assert last.dynamic and last.program is None and not last.known


def test_variable_indirection_is_dynamic() -> None:
    a = analyze("a=rm; $a -rf x")
    assert a.decidable
    # as written it is dynamic; as it runs with the value the source gives a, it is rm
    assert [(c.dynamic, c.argv, c.resolved) for c in a.commands] == [
        (True, ("$a", "-rf", "x"), False),
        (False, ("rm", "-rf", "x"), True),
    ]


def test_heredoc_body_is_data_for_cat() -> None:
    c = only("cat <<'EOF'\nrm -rf /\nEOF")
    assert c.pure_reader and c.catastrophic is None


def test_unquoted_heredoc_with_variable_is_still_data() -> None:
    c = only("cat <<EOF\n$HOME\nEOF")
    assert c.pure_reader


def test_heredoc_substitution_is_classified() -> None:
    a = analyze("cat <<EOF\n$(rm -rf ~)\nEOF")
    assert any(c.catastrophic for c in a.commands)


def test_heredoc_into_python_is_code_with_paths_scanned() -> None:
    c = only("python3 <<'EOF'\nprint(open('/home/u/.ssh/id_rsa').read())\nEOF")
    assert E.CODE in c.effects and E.CREDENTIALS in c.effects


def test_heredoc_into_bash_is_code_and_parsed() -> None:
    a = analyze("bash <<'EOF'\nls\nrm -rf x\nEOF")
    assert [c.program for c in a.commands] == ["ls", "rm", "bash"]
    assert E.CODE in a.commands[-1].effects


def test_git_commit_heredoc_message_is_not_code() -> None:
    a = analyze("git commit -m \"$(cat <<'EOF'\nfix: rm -rf / in docs\nEOF\n)\"")
    assert a.decidable
    assert not any(c.catastrophic for c in a.commands)
    assert [c.program for c in a.commands] == ["cat", "git"]


def test_long_realistic_command_is_decided() -> None:
    cmd = " && ".join(f"grep -rn 'pattern{i}' src/module{i} | head -5" for i in range(200))
    a = analyze(cmd)
    assert a.decidable and len(a.commands) == 400


def test_deeply_nested_substitution_does_not_crash() -> None:
    cmd = "echo " + "$(echo " * 300 + "x" + ")" * 300
    a = analyze(cmd)
    assert isinstance(a.errors, tuple)


def test_internal_errors_fail_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    import bastion.shell.analysis as mod

    def boom(*_: object) -> object:
        raise RuntimeError("boom")

    monkeypatch.setattr(mod, "walk", boom)
    a = analyze("ls")
    assert not a.decidable and "internal error" in a.errors[0]
