"""``walk_model.marked`` and ``model.read_below``: marking a raw command as a pipeline stage or
background job, or a path as read recursively, keeps every other field (both are built field
by field for speed, so a new field must be copied too)."""

from __future__ import annotations

import itertools
from dataclasses import fields, replace

import pytest

from bastion.shell.model import Access, PathUse, read_below
from bastion.shell.walk_model import RawCommand, Redirect, marked
from bastion.shell.words import literal_word


def _every_field_set(in_pipeline: bool, background: bool) -> RawCommand:
    word = literal_word("cat")
    return RawCommand(
        "cat f",
        (word,),
        assigns=(("X", literal_word("1")),),
        redirects=(Redirect(">", None, literal_word("out"), "> out"),),
        context=("in $(…)",),
        kind="test",
        in_pipeline=in_pipeline,
        background=background,
        arith=("n",),
        scope=(1, 2),
        fed_from="src",
        fed_words=("a",),
        fed_entries=("src", True),
    )


@pytest.mark.parametrize(("was", "pipeline", "background"), list(itertools.product(
    itertools.product((False, True), repeat=2), (False, True), (False, True))))  # fmt: skip
def test_marking_a_command_sets_only_its_pipeline_and_background_flags(
    was: tuple[bool, bool], pipeline: bool, background: bool
) -> None:
    item = _every_field_set(*was)
    expected = replace(item, in_pipeline=was[0] or pipeline, background=was[1] or background)
    assert marked(item, in_pipeline=pipeline, background=background) == expected


def test_every_raw_command_field_is_set_apart_from_its_default_in_the_check_above() -> None:
    item = _every_field_set(True, True)
    defaults = RawCommand("", ())
    assert [f.name for f in fields(RawCommand) if getattr(item, f.name) == getattr(defaults, f.name)] == []


@pytest.mark.parametrize("recursive", [False, True])
def test_a_path_read_below_keeps_every_other_field(recursive: bool) -> None:
    use = PathUse(
        "src", Access.WRITE, "'src'", "argument of cp", "s*", recursive, True, "/.netrc", "l.txt", "sh", True
    )
    assert [
        f.name
        for f in fields(PathUse)
        if getattr(use, f.name) == getattr(PathUse(None, Access.READ, ""), f.name)
    ] == ([] if recursive else ["recursive"])
    assert read_below(use) == replace(use, recursive=True)
