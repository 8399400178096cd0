"""The names a list file gives, as the programs that read lists split them: NUL-separated
(``--files0-from``, ``xargs -0``), else each line and each blank-separated word of it (xargs);
bounded."""

from __future__ import annotations

from bastion.policy.listed_paths import MAX_NAMES, names_in


def test_a_list_with_a_nul_is_split_at_nuls_only() -> None:
    assert names_in(b"a b\0/home/u/.netrc\0\0") == ("a b", "/home/u/.netrc")


def test_a_list_of_lines_gives_each_line_and_each_word_of_it() -> None:
    assert names_in(b"README.md\n'/home/u/.aws/credentials' src/x.py\n\n") == (
        "README.md",
        "/home/u/.aws/credentials' src/x.py",  # the line, its outer quote stripped
        "/home/u/.aws/credentials",
        "src/x.py",
    )


def test_a_long_list_is_judged_by_its_first_names() -> None:
    names = names_in(b"".join(b"f%d\n" % n for n in range(MAX_NAMES * 2)))
    assert names == tuple(f"f{n}" for n in range(MAX_NAMES))
