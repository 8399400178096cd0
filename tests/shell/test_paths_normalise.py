"""``shell.paths.normalise`` returns a path with nothing to tidy as it is (a fast path): it
must agree with the full regex-and-normpath definition on every input."""

from __future__ import annotations

import posixpath
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bastion.shell.paths import normalise


def _reference(path: str) -> str:
    """The definition before the fast path (collapse //, /./, trailing slashes; keep ..)."""
    if not path:
        return path
    tidy = re.sub(r"/+", "/", path)
    tidy = re.sub(r"(/\.)+(/|$)", "/", tidy)
    if len(tidy) > 1:
        tidy = tidy.rstrip("/") or "/"
    if tidy.startswith("/"):
        tidy = posixpath.normpath(tidy)
        tidy = "/" + tidy.lstrip("/")
    return tidy


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="/.a~*", max_size=12))
def test_normalise_agrees_with_its_definition_on_every_path(path: str) -> None:
    assert normalise(path) == _reference(path)


def test_normalise_tidies_the_spellings_a_path_can_hide_behind() -> None:
    got = [normalise(p) for p in ("/etc//passwd", "/etc/./passwd", "src/", "/", "a/b", "/a/../b", "./x")]
    assert got == ["/etc/passwd", "/etc/passwd", "src", "/", "a/b", "/b", "./x"]
