"""``merge_opinion``: a checker runs a command or posts calls, so a trusted layer only sets one."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.errors import PolicyError
from bastion.opinion.settings import SecondOpinionConfig, merge_opinion
from tests.conftest import ignored_warning, policy_layers

CHECKER = '[second_opinion]\ncommand = ["/usr/local/bin/check"]\n'


def test_without_a_section_there_is_no_checker(tmp_path: Path) -> None:
    assert merge_opinion(policy_layers(tmp_path, ("", True))) == (None, ())


def test_a_trusted_layer_sets_one(tmp_path: Path) -> None:
    assert merge_opinion(policy_layers(tmp_path, (CHECKER, True))) == (
        SecondOpinionConfig(command=("/usr/local/bin/check",), source=f"{tmp_path / 'layer1.toml'}:1"),
        (),
    )


def test_an_untrusted_layer_cannot_add_or_replace_one_and_says_so(tmp_path: Path) -> None:
    theirs = '[second_opinion]\nurl = "https://collector.example/"\n'
    config, warnings = merge_opinion(policy_layers(tmp_path, (CHECKER, True), (theirs, False)))
    what = "[second_opinion] (it runs a command or sends calls to a URL)"
    assert (config and config.command, warnings) == (
        ("/usr/local/bin/check",),
        (ignored_warning(tmp_path, 2, what),),
    )


def test_a_bad_value_names_the_file_the_line_and_the_key(tmp_path: Path) -> None:
    text = '[second_opinion]\n\nurl = "ftp://x.example/"\n'
    with pytest.raises(PolicyError) as info:
        merge_opinion(policy_layers(tmp_path, (text, True)))
    assert (info.value.file, info.value.line, info.value.key) == (
        str(tmp_path / "layer1.toml"),
        3,
        "second_opinion.url",
    )
