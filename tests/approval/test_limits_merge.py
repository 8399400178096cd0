"""``merge_limits``: the ``[limits]`` of the layers; an untrusted layer only lowers a limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.approval.settings import LimitsConfig, merge_limits
from bastion.configuration import load_text
from bastion.errors import PolicyError
from tests.conftest import policy_layers

USER = '[limits]\nmax_calls_per_turn = 10\nmax_turn_duration = "2m"\n'


def test_without_a_table_the_limits_are_the_defaults(tmp_path: Path) -> None:
    assert merge_limits(policy_layers(tmp_path, ("", True))) == (LimitsConfig(), ())


def test_a_trusted_layer_may_raise_or_turn_off_a_limit(tmp_path: Path) -> None:
    text = '[limits]\nmax_calls_per_turn = 100\ncalls_per_minute = 0\nbreaker_cooldown = "10s"\n'
    assert merge_limits(policy_layers(tmp_path, (USER, True), (text, True))) == (
        LimitsConfig(
            max_calls_per_turn=100,
            max_turn_duration=300.0,
            calls_per_minute=None,
            breaker_cooldown=10.0,
            source=f"{tmp_path / 'layer2.toml'}:1",
        ),
        (),
    )


def test_an_untrusted_layer_cannot_raise_a_limit_or_shorten_the_cooldown(tmp_path: Path) -> None:
    text = '[limits]\nmax_calls_per_turn = 100\nmax_turn_duration = "0s"\nbreaker_cooldown = "1s"\n'
    limits, warnings = merge_limits(policy_layers(tmp_path, (USER, True), (text, False)))
    assert (limits.max_calls_per_turn, limits.max_turn_duration, limits.breaker_cooldown, warnings) == (
        10,
        120.0,
        300.0,
        (),
    )


def test_an_untrusted_layer_may_lower_a_limit_and_add_one(tmp_path: Path) -> None:
    text = '[limits]\nmax_calls_per_turn = 3\ncalls_per_minute = 20\nbreaker_cooldown = "0s"\n'
    limits, _ = merge_limits(policy_layers(tmp_path, (USER, True), (text, False)))
    assert (limits.max_calls_per_turn, limits.calls_per_minute, limits.breaker_cooldown) == (3, 20, None)


def test_a_bad_value_names_the_file_the_line_and_the_key(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "s")}
    with pytest.raises(PolicyError) as info:
        load_text('[limits]\n\nmax_turn_duration = "soon"\n', cwd=str(tmp_path), env=env, path="p.toml")
    assert (info.value.file, info.value.line, info.value.key) == ("p.toml", 3, "limits.max_turn_duration")
