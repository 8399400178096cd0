"""``merge_state``: a shared database is chosen by a trusted file only."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.configuration import load_text
from bastion.errors import PolicyError
from bastion.state.settings import StateSettings, merge_state
from tests.conftest import ignored_warning, policy_layers

OURS = 'state_url = "postgresql://db.example/bastion"\n'
THEIRS = 'state_url = "postgresql://attacker.example/x"\n'


def test_without_a_url_the_state_is_local(tmp_path: Path) -> None:
    assert merge_state(policy_layers(tmp_path, ("", True))) == (StateSettings(url=None), ())


def test_a_trusted_layer_sets_it(tmp_path: Path) -> None:
    assert merge_state(policy_layers(tmp_path, (OURS, True))) == (
        StateSettings(url="postgresql://db.example/bastion"),
        (),
    )


def test_an_untrusted_layer_cannot_point_it_elsewhere_and_says_so(tmp_path: Path) -> None:
    assert merge_state(policy_layers(tmp_path, (OURS, True), (THEIRS, False))) == (
        StateSettings(url="postgresql://db.example/bastion"),
        (ignored_warning(tmp_path, 2, "state_url"),),
    )


def test_a_bad_value_names_the_file_the_line_and_the_key(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "s")}
    with pytest.raises(PolicyError) as info:
        load_text("\nstate_url = 5\n", cwd=str(tmp_path), env=env, path="p.toml")
    assert (info.value.file, info.value.line, info.value.key) == ("p.toml", 2, "state_url")
