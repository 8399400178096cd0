"""Brace expansion of a literal word (``shell/braces.py``): the words bash makes, checked as
paths (``cat ~/.{aws/credentials,netrc}`` reads two credential files); a word bash would not
expand that way (quotes, expansions, sequences) stays only known at run time."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bastion.shell.analysis import analyze
from bastion.shell.braces import LIMIT, expand_braces

CASES = [
    ("~/.{aws/credentials,netrc}", ("~/.aws/credentials", "~/.netrc")),
    ("src/{a,b}.py", ("src/a.py", "src/b.py")),
    ("a{b,c{d,e}}f", ("abf", "acdf", "acef")),
    ("x{a,b}{c,d}", ("xac", "xad", "xbc", "xbd")),
    ("a{,b}", ("a", "ab")),
    ("{x}", None),
    ("{1..3}", None),
    ("'{a,b}'", None),
    ("$d/{a,b}", None),
    ("*.{py,md}", ("*.py", "*.md")),  # each word a glob, expanded next (ctx.path)
]


@pytest.mark.parametrize(("text", "words"), CASES)
def test_a_literal_word_expands_as_bash_expands_it(text: str, words: tuple[str, ...] | None) -> None:
    assert expand_braces(text) == words


def test_each_expanded_word_is_a_path_the_policy_checks() -> None:
    (cat,) = analyze("cat ~/.{aws/credentials,netrc}").commands
    assert [p.path for p in cat.paths] == ["~/.aws/credentials", "~/.netrc"]


_PART = st.text(alphabet="abc./", min_size=0, max_size=4)


@given(st.lists(_PART, min_size=2, max_size=5), st.lists(_PART, min_size=2, max_size=5))
def test_two_lists_expand_to_their_product_in_order(left: list[str], right: list[str]) -> None:
    words = expand_braces("p{" + ",".join(left) + "}{" + ",".join(right) + "}")
    expected = tuple(f"p{a}{b}" for a in left for b in right)
    assert words == (expected if len(expected) <= LIMIT else None)


def test_a_brace_list_of_globs_is_each_glob_checked_as_a_glob() -> None:
    cmd = analyze("cat ~/.{aws,ssh}/*").commands[0]
    assert [(p.path, p.pattern) for p in cmd.paths] == [(None, "~/.aws/*"), (None, "~/.ssh/*")]


def test_bash_expands_a_brace_list_of_globs_into_the_same_globs(tmp_path: Path) -> None:
    """Differential: the files bash's expansion names are those the globs we make match."""
    for name in ("a.py", "b.md", "c.txt", "d.py"):
        (tmp_path / name).write_text("")
    done = subprocess.run(
        ["bash", "-c", "printf '%s\\n' *.{py,md}"], cwd=tmp_path, capture_output=True, text=True
    )
    globs = expand_braces("*.{py,md}") or ()
    ours = [str(p.relative_to(tmp_path)) for g in globs for p in sorted(tmp_path.glob(g))]
    assert (ours, done.stdout.split()) == (["a.py", "d.py", "b.md"], ["a.py", "d.py", "b.md"])
