"""The pure text programs ``shell/resolve.py`` works out without running them: exactly what
they print, or None when a use is not modelled (the value then stays unknown)."""

from __future__ import annotations

import base64
import codecs
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bastion.shell.pure_eval import HOME_MARK, PWD_MARK, run_pure

H = HOME_MARK

CASES = [
    (["echo", "a", "b"], None, "a b\n"),
    (["echo", "-n", "a"], None, "a"),
    (["echo", "-e", "a\\n"], None, None),
    (["printf", "%s/.netrc", H], None, f"{H}/.netrc"),
    (["printf", "%s/.%s", H, "netrc"], None, f"{H}/.netrc"),
    (["printf", "%s\\n", "a", "b"], None, "a\nb\n"),
    (["printf", "%d%%", "5"], None, "5%"),
    (["printf", "%x", "5"], None, None),
    (["printf", "\\x63\\x61\\x74 ~/.netrc"], None, "cat ~/.netrc"),  # bash's \xHH
    (["printf", "\\143at"], None, "cat"),  # and \NNN, octal
    (["printf", "\\x"], None, None),  # \x with no digit: not modelled
    (["printf", "-v", "x", "y"], None, None),
    (["dirname", f"{H}/.ssh/id_rsa"], None, f"{H}/.ssh\n"),
    (["dirname", "a"], None, ".\n"),
    (["dirname", PWD_MARK], None, f"{PWD_MARK}/..\n"),
    # dirname prints the parent as a path of its own: the dirname of that is the grandparent
    (["dirname", f"{PWD_MARK}/.."], None, f"{PWD_MARK}/../..\n"),
    (["dirname", f"{PWD_MARK}/../.."], None, f"{PWD_MARK}/../../..\n"),
    (["dirname", f"{PWD_MARK}/src"], None, f"{PWD_MARK}\n"),
    (["pwd"], None, f"{PWD_MARK}\n"),
    (["pwd", "-P"], None, f"{PWD_MARK}\n"),
    (["pwd", "x"], None, None),
    (["basename", PWD_MARK], None, None),
    (["basename", "/a/b.txt", ".txt"], None, "b\n"),
    (["rev"], "crten.\n", ".netrc\n"),
    (["tr", "a-z", "n-za-m"], ".argep\n", ".netrc\n"),
    (["tr", "-d", "x"], ".nextrc\n", ".netrc\n"),
    (["tr", "[:upper:]", "[:lower:]"], "A\n", None),
    (["base64", "-d"], "LmdpdC1jcmVkZW50aWFscw==\n", ".git-credentials"),
    (["base64", "-d"], "not base64!\n", None),
    (["xxd", "-r", "-p"], "2e6e65747263\n", ".netrc"),
    (["cat"], "x\n", "x\n"),
    (["cat", "f"], "x\n", None),
    (["rev"], None, None),
    (["sh", "-c", "echo x"], None, None),
    ([H, "x"], None, None),
]


@pytest.mark.parametrize(("argv", "stdin", "out"), CASES)
def test_a_pure_program_prints_exactly_this_or_is_not_modelled(
    argv: list[str], stdin: str | None, out: str | None
) -> None:
    assert run_pure(argv, stdin) == out


_LINE = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=20)


@given(_LINE)
def test_base64_decoding_gives_back_what_was_encoded(text: str) -> None:
    assert run_pure(["base64", "-d"], base64.b64encode(text.encode()).decode() + "\n") == text


@given(_LINE)
def test_tr_rot13_is_codecs_rot13(text: str) -> None:
    out = run_pure(["tr", "a-zA-Z", "n-za-mN-ZA-M"], text + "\n")
    assert out == codecs.encode(text, "rot13") + "\n"


@given(_LINE)
def test_rev_reverses_each_line(text: str) -> None:
    assert run_pure(["rev"], text + "\n") == text[::-1] + "\n"


@pytest.mark.parametrize("fmt", ["\\x63\\x61\\x74 ~", "\\143\\141t", "a\\x41\\101b", "\\x7e/.netrc"])
def test_printf_escapes_print_what_bash_prints(fmt: str) -> None:
    done = subprocess.run(["bash", "-c", 'printf "$1"', "_", fmt], capture_output=True, text=True, check=True)
    assert run_pure(["printf", fmt], None) == done.stdout
