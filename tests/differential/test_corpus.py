"""The corpus: the shell tests' literals and commands generated from the tools' --help."""

from __future__ import annotations

from tests.differential.oracle import corpus

COREUTILS_HELP = """Usage: tail [OPTION]... [FILE]...
  -c, --bytes=[+]NUM       output the last NUM bytes
  -f, --follow[={name|descriptor}]
                           output appended data as the file grows;
  -n, --lines=[+]NUM       output the last NUM lines
  -q, --quiet, --silent    never output headers giving file names
      --help        display this help and exit
"""
GIT_HELP = """usage: git grep [<options>] [-e] <pattern> [<rev>...]

    --cached              search in index instead of in the work tree
    -C, --context <n>     show <n> context lines before and after matches
    --max-depth <depth>   descend at most <depth> levels
"""
FIND_HELP = """Normal options (always true, specified before other expressions):
      -depth -files0-from FILE -maxdepth LEVELS -mindepth LEVELS
"""


def test_help_flags_reads_short_and_long_spellings_with_their_arguments() -> None:
    assert corpus.help_flags(COREUTILS_HELP) == [
        ("-c", " +]NUM"),
        ("--bytes", "=[+]NUM"),
        ("-f", " {name|descriptor}"),
        ("--follow", "[={name|descriptor}]"),
        ("-n", " +]NUM"),
        ("--lines", "=[+]NUM"),
        ("-q", None),
        ("--quiet", None),
        ("--silent", None),
    ]


def test_help_flags_reads_git_and_find_layouts() -> None:
    assert corpus.help_flags(GIT_HELP) == [
        ("--cached", None),
        ("-C", " <n>"),
        ("--context", " <n>"),
        ("--max-depth", " <depth>"),
    ]
    assert corpus.help_flags(FIND_HELP) == [
        ("-depth", None),
        ("-files0-from", " FILE"),
        ("-maxdepth", " LEVELS"),
        ("-mindepth", " LEVELS"),
    ]


def test_the_literals_are_the_shell_tests_strings_without_docstrings() -> None:
    literals = corpus.literal_commands()
    assert {"git status", "rm -rf /", "tail -f app.log", "echo done > build.log"} <= set(literals)
    assert not any(s.startswith("What agents run all day") for s in literals)
    assert len(literals) == len(set(literals))


def test_generation_is_deterministic_and_uses_the_real_flags() -> None:
    first, second = corpus.generated(), corpus.generated()
    assert first == second
    assert any(c.startswith("wc --files0-from=") for c in first)
    assert any(c.startswith(("sh -c ", "bash -c ", "bash -lc ", "eval ")) for c in first)
    assert any(c.endswith(">> ~/.bashrc") for c in first)
    assert corpus.sample(first) == corpus.sample(second) != first
