"""Output capping and masking, the secret store, and the boot refusal (no sandbox needed)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from bastion.exec import SecretError, SecretStore, check_credentials_placement
from bastion.exec.output import CUT_MARKER, CappedBuffer, mask_text
from tests.conftest import PolicyFactory


def test_a_buffer_under_the_cap_keeps_everything_unmarked() -> None:
    buffer = CappedBuffer(10)
    buffer.feed(b"hello")
    assert (buffer.text({}), buffer.truncated) == ("hello", False)


def test_a_buffer_over_the_cap_keeps_the_head_and_says_how_much_was_cut() -> None:
    buffer = CappedBuffer(4)
    for chunk in (b"abc", b"defgh", b"ij"):
        buffer.feed(chunk)
    assert (buffer.text({}), buffer.truncated) == ("abcd" + CUT_MARKER.format(cap=4, dropped=6), True)


def test_a_secret_that_straddles_the_cut_is_masked_not_half_shown() -> None:
    secrets = {"TOKEN": "SECRETVALUE"}
    buffer = CappedBuffer(8, margin=len("SECRETVALUE"))
    buffer.feed(b"xxxxSECRETVALUEyyyy")
    assert buffer.text(secrets) == "xxxx[sec" + CUT_MARKER.format(cap=8, dropped=11)


def test_masking_replaces_every_secret_longest_first() -> None:
    secrets = {"A": "abc", "B": "abcdef"}
    assert mask_text("abcdef abc", secrets) == "[secret:B] [secret:A]"


def test_the_store_reads_a_listed_secret_and_creates_the_dir_0700(tmp_path: Path) -> None:
    creds = tmp_path / "creds"
    store = SecretStore(str(creds), ["TOKEN"])
    with pytest.raises(SecretError, match="'TOKEN' cannot be read"):
        store.load(["TOKEN"])
    assert stat.S_IMODE(os.stat(creds).st_mode) == 0o700
    (creds / "TOKEN").write_text("v4lue\n")
    assert store.load(["TOKEN"]) == {"TOKEN": "v4lue"}


def test_a_secret_not_listed_in_the_config_is_refused_by_name_only(tmp_path: Path) -> None:
    creds = tmp_path / "creds"
    creds.mkdir(mode=0o700)
    (creds / "OTHER").write_text("do-not-show")
    with pytest.raises(SecretError) as caught:
        SecretStore(str(creds), ["TOKEN"]).load(["OTHER"])
    assert str(caught.value) == "secret 'OTHER' is not listed in [exec] secrets"


def test_a_credentials_dir_others_can_read_is_refused(tmp_path: Path) -> None:
    creds = tmp_path / "creds"
    creds.mkdir(mode=0o755)
    os.chmod(creds, 0o755)
    (creds / "TOKEN").write_text("x")
    with pytest.raises(SecretError, match="chmod 700"):
        SecretStore(str(creds), ["TOKEN"]).load(["TOKEN"])


def test_boot_is_refused_when_the_credentials_dir_is_inside_a_readable_root(
    make_policy: PolicyFactory, workspace: Path
) -> None:
    inside = make_policy(f'credentials_dir = "{workspace}/creds"')
    problem = check_credentials_placement(inside)
    assert problem is not None
    assert problem.startswith(
        f"the credentials dir {workspace}/creds lies inside the readable root {workspace}"
    )
    assert check_credentials_placement(make_policy()) is None
