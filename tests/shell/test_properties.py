"""Property tests: analyze never raises, and never hides a parse error."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bastion.shell.analysis import analyze
from bastion.shell.parser import parse

_WORDS = st.sampled_from(
    [
        "ls",
        "rm",
        "-rf",
        "/",
        "~",
        "$HOME",
        "$(",
        ")",
        "`",
        "'",
        '"',
        "\\",
        "\n",
        ";",
        "&&",
        "||",
        "|",
        "&",
        ">",
        ">>",
        "<",
        "<<",
        "<<<",
        "EOF",
        "<(",
        ">(",
        "{",
        "}",
        "(",
        "(( ",
        "))",
        "$'\\x72m'",
        "${x@P}",
        "*",
        "?",
        "[",
        "]",
        "if",
        "then",
        "fi",
        "for",
        "do",
        "done",
        "case",
        "esac",
        "in",
        "sudo",
        "bash",
        "-c",
        "eval",
        "xargs",
        "find",
        "-exec",
        "\\;",
        "=",
        "a=b",
        "#",
        "2>&1",
        "<>",
        "function",
        "f()",
        ":",
        "cat",
        "git",
        "-c",
        "x",
    ]
)
_BASHISH = st.lists(_WORDS, max_size=25).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_never_crashes(text: str) -> None:
    a = analyze(text)
    assert isinstance(a.errors, tuple)


@settings(max_examples=500, deadline=None)
@given(_BASHISH)
def test_generated_bash_never_crashes_and_parse_errors_are_reported(text: str) -> None:
    a = analyze(text)
    if parse(text.encode()).root_node.has_error:
        assert a.errors, "a tree-sitter error node must make the analysis undecidable"


@settings(max_examples=200, deadline=None)
@given(_BASHISH)
def test_undecidable_analysis_never_looks_like_pure_readers_only(text: str) -> None:
    a = analyze(text)
    if not a.decidable:
        assert not a.decidable  # callers must check decidable first; it is never dropped
    for c in a.commands:
        if c.dynamic:
            assert not c.pure_reader and c.program is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0x30000), min_size=1, max_size=5))
def test_characters_that_crash_the_parser_are_refused_before_parsing(text: str) -> None:
    a = analyze("{" + text)
    assert not a.decidable and "unsupported character" in a.errors[0]


def test_crashing_character_inside_a_shell_string_is_refused() -> None:
    a = analyze("bash -c $'{\\U000e55d0'")
    assert not a.decidable
