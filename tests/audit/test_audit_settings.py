"""``merge_audit``: only a trusted layer may make the ledger keep raw arguments."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.audit.settings import AuditConfig, merge_audit
from bastion.configuration import load_text
from bastion.errors import PolicyError
from tests.conftest import ignored_warning, policy_layers

RAW = "[audit]\nstore_raw_arguments = true\n"


def test_a_trusted_layer_may_keep_raw_arguments(tmp_path: Path) -> None:
    assert merge_audit(policy_layers(tmp_path, (RAW, True))) == (AuditConfig(store_raw_arguments=True), ())


def test_an_untrusted_layer_cannot_and_says_so(tmp_path: Path) -> None:
    assert merge_audit(policy_layers(tmp_path, (RAW, False))) == (
        AuditConfig(),
        (ignored_warning(tmp_path, 1, "audit.store_raw_arguments"),),
    )


def test_an_untrusted_layer_may_turn_them_off_again(tmp_path: Path) -> None:
    off = "[audit]\nstore_raw_arguments = false\n"
    assert merge_audit(policy_layers(tmp_path, (RAW, True), (off, False))) == (AuditConfig(), ())


def test_a_bad_value_names_the_file_the_line_and_the_key(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "s")}
    with pytest.raises(PolicyError) as info:
        load_text('[audit]\nstore_raw_arguments = "yes"\n', cwd=str(tmp_path), env=env, path="p.toml")
    assert (info.value.file, info.value.line, info.value.key) == ("p.toml", 2, "audit.store_raw_arguments")
