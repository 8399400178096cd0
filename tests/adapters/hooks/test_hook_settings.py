"""``merge_hooks``: who asks the person (``ask_via``) is a trusted layer's choice."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.adapters.hooks.settings import AskVia, HookSettings, merge_hooks
from bastion.configuration import load_text
from bastion.errors import PolicyError
from tests.conftest import ignored_warning, policy_layers


def test_by_default_the_agent_asks(tmp_path: Path) -> None:
    assert merge_hooks(policy_layers(tmp_path, ("", True))) == (HookSettings(ask_via=AskVia.AGENT), ())


def test_a_trusted_layer_may_have_bastion_ask(tmp_path: Path) -> None:
    assert merge_hooks(policy_layers(tmp_path, ('ask_via = "bastion"\n', True))) == (
        HookSettings(ask_via=AskVia.BASTION),
        (),
    )


def test_an_untrusted_layer_cannot_change_it_and_says_so(tmp_path: Path) -> None:
    assert merge_hooks(policy_layers(tmp_path, ('ask_via = "bastion"\n', False))) == (
        HookSettings(ask_via=AskVia.AGENT),
        (ignored_warning(tmp_path, 1, "ask_via = 'bastion'"),),
    )


def test_an_untrusted_layer_repeating_the_current_choice_is_no_warning(tmp_path: Path) -> None:
    layers = policy_layers(tmp_path, ('ask_via = "bastion"\n', True), ('ask_via = "bastion"\n', False))
    assert merge_hooks(layers) == (HookSettings(ask_via=AskVia.BASTION), ())


def test_a_bad_value_names_the_file_the_line_and_the_key(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "s")}
    with pytest.raises(PolicyError) as info:
        load_text('mode = "workspace"\nask_via = "nobody"\n', cwd=str(tmp_path), env=env, path="p.toml")
    assert (info.value.file, info.value.line, info.value.key) == ("p.toml", 2, "ask_via")
