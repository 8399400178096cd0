"""``merge_gateway``: the HTTP API's limits; an untrusted layer may lower them, add no origin."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.adapters.http.settings import GatewaySettings, merge_gateway
from bastion.errors import PolicyError
from tests.conftest import ignored_warning, policy_layers

WHAT = "[gateway] (it loosens a limit or adds an origin)"
ORIGIN = '[gateway]\ncors_origins = ["https://app.example"]\n'


def test_a_trusted_layer_may_raise_a_limit_and_add_an_origin(tmp_path: Path) -> None:
    text = '[gateway]\nrate_limit_per_minute = 600\ncors_origins = ["https://app.example"]\n'
    assert merge_gateway(policy_layers(tmp_path, (text, True))) == (
        GatewaySettings(rate_limit_per_minute=600, cors_origins=("https://app.example",)),
        (),
    )


@pytest.mark.parametrize(
    "loosening",
    [
        "[gateway]\nrate_limit_per_minute = 600\n",
        "[gateway]\nmax_body_bytes = 10000000\n",
        '[gateway]\nrequest_timeout = "1h"\n',
        ORIGIN,
        "[gateway]\nallow_any_origin = true\n",
    ],
)
def test_an_untrusted_layer_cannot_loosen_any_key_and_says_so(tmp_path: Path, loosening: str) -> None:
    assert merge_gateway(policy_layers(tmp_path, (loosening, False))) == (
        GatewaySettings(),
        (ignored_warning(tmp_path, 1, WHAT),),
    )


def test_an_untrusted_layer_may_lower_limits_and_keep_a_known_origin(tmp_path: Path) -> None:
    lower = '[gateway]\nrate_limit_per_minute = 6\ncors_origins = ["https://app.example"]\n'
    assert merge_gateway(policy_layers(tmp_path, (ORIGIN, True), (lower, False))) == (
        GatewaySettings(rate_limit_per_minute=6, cors_origins=("https://app.example",)),
        (),
    )


def test_a_bad_origin_names_the_file_the_line_and_the_key(tmp_path: Path) -> None:
    text = '[gateway]\nrate_limit_per_minute = 6\ncors_origins = ["app.example"]\n'
    with pytest.raises(PolicyError) as info:
        merge_gateway(policy_layers(tmp_path, (text, True)))
    assert (info.value.file, info.value.line, info.value.key) == (
        str(tmp_path / "layer1.toml"),
        3,
        "gateway.cors_origins",
    )


def test_a_trusted_layer_sets_the_any_origin_override_and_the_cooldown_reply(tmp_path: Path) -> None:
    text = '[gateway]\nallow_any_origin = true\ncooldown_reply = "Slow down, please."\n'
    settings, warnings = merge_gateway(policy_layers(tmp_path, (text, True)))
    assert (settings.allow_any_origin, settings.cors, settings.cooldown_reply, warnings) == (
        True,
        True,
        "Slow down, please.",
        (),
    )
