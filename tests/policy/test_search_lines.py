"""Which lines a search prints, checked against the real grep, rg and ag on one file: the
test marks every line they print (exactly, where the pattern can be read; every line where
it cannot), so a credential file is never judged unprinted when the search prints it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bastion.policy.search_lines import always, grep_lines, prints_any, tool_lines

LINES = [
    "org.gradle.jvmargs=-Xmx2g",
    "RELEASE_STORE_PASSWORD=hunter2",
    "password: s3cret",
    "url = https://bot:tok@github.com/acme/w.git",
    "# TODO: rotate",
    "a.b and axb",
    "(paren) {brace} a|b plus+ q?",
    "STORE",
    "",
    "tab\there",
]

#: argv after the program, the file appended; exact: the test must equal what it prints.
SEARCHES = [
    ("grep", ["PASSWORD"]),
    ("grep", ["-i", "password"]),
    ("grep", ["-v", "a"]),
    ("grep", ["-w", "STORE"]),
    ("grep", ["-x", "STORE"]),
    ("grep", ["-F", "a.b"]),
    ("grep", ["a.b"]),
    ("grep", ["-e", "TODO", "-e", "tok"]),
    ("grep", ["--regexp=hunter", "--ignore-case"]),
    ("grep", ["PASS\\(WORD\\)\\?"]),
    ("grep", ["a|b"]),
    ("grep", ["-E", "a|b"]),
    ("grep", ["plus+"]),
    ("grep", ["{brace}"]),
    ("grep", ["[[:upper:]]\\{5\\}"]),
    ("grep", ["\\<and\\>"]),
    ("grep", ["-P", "pass\\w+"]),
    ("grep", ["-i", "rotate"]),
    ("egrep", ["(paren)"]),
    ("fgrep", ["a|b"]),
    ("rg", ["-i", "TOKEN|tok"]),
    ("rg", ["-F", "a.b"]),
    ("rg", ["-v", "a"]),
    ("rg", ["-w", "STORE"]),
    ("rg", ["-e", "jvm", "-e", "hunter"]),
    ("ag", ["store"]),  # ag ignores case unless the pattern has a capital
]


def _printed(program: str, argv: list[str], file: Path) -> set[str]:
    run = subprocess.run(
        [
            program,
            "--no-filename" if program in ("grep", "egrep", "fgrep", "rg") else "--nofilename",
            *argv,
            str(file),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode in (0, 1), run.stderr
    return set(run.stdout.splitlines()) & set(LINES)


def _both(tmp_path: Path, program: str, argv: list[str]) -> tuple[bool, set[str], set[str]]:
    """(the test read the pattern exactly, the lines it marks, the lines the program prints)."""
    file = tmp_path / "gradle.properties"
    file.write_text("\n".join(LINES) + "\n")
    test = grep_lines(program, [program, *argv, str(file)])
    assert test is not None
    return test is not always, {line for line in LINES if test(line.encode())}, _printed(program, argv, file)


@pytest.mark.parametrize(("program", "argv"), SEARCHES)
def test_the_lines_a_search_prints_are_those_the_real_program_prints(
    tmp_path: Path, program: str, argv: list[str]
) -> None:
    exact, ours, printed = _both(tmp_path, program, argv)
    assert (exact, ours) == (True, printed)


@pytest.mark.parametrize(
    ("program", "argv"), [("grep", ["-m1", "a"]), ("grep", ["-A1", "rotate"]), ("rg", ["-S", "store"])]
)
def test_a_search_that_stops_early_or_prints_context_is_marked_at_least_where_it_matches(
    tmp_path: Path, program: str, argv: list[str]
) -> None:
    _, ours, printed = _both(tmp_path, program, argv)
    assert (bool(ours), bool(printed), ours >= printed - {"a.b and axb"}) == (True, True, True)


@pytest.mark.parametrize(
    "argv",
    [
        ["grep", "-rl", "PASSWORD", "."],
        ["grep", "-c", "PASSWORD", "f"],
        ["grep", "-q", "x"],
        ["grep", "--files-without-match", "x", "."],
        ["rg", "--count", "x"],
        ["rg", "--files"],
        ["ag", "-l", "x"],
        ["cat", "-r", "x"],
    ],
)
def test_a_search_that_prints_only_names_or_counts_prints_no_line(argv: list[str]) -> None:
    assert grep_lines(argv[0], argv) is None


@pytest.mark.parametrize(
    "argv",
    [
        ["grep", "-rf", "patterns.txt", "."],
        ["grep", "-r", "--file=patterns.txt", "."],
        ["grep", "-r", None, "."],
        ["grep", "-r", "*unbalanced(", "-P", "."],
        ["grep"],
    ],
)
def test_a_pattern_that_cannot_be_read_prints_every_line(argv: list[str | None]) -> None:
    assert grep_lines("grep", argv) is always


def test_an_agent_search_tool_ignores_case_and_a_missing_pattern_prints_everything() -> None:
    data = b"[remote]\n\turl = https://bot:tok@github.com/acme/w.git\n"
    assert (prints_any(data, tool_lines("URL")), prints_any(data, tool_lines("zzz")), tool_lines(None)) == (
        True,
        False,
        always,
    )
