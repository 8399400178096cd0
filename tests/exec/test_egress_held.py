"""Held secrets: the placeholder goes out, the value comes back only in the proxy."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bastion.exec.egress.held import PLACEHOLDER_PREFIX, held_for, hold, load_held, substitute
from bastion.exec.secrets import SecretError
from bastion.exec.settings import SecretHold

SECRET = "s3cr3t-value"
TOKEN = hold("T", SECRET, ["api.example.com", "*.uploads.example.com"], token=lambda n: "cd" * n)


def test_the_placeholder_is_the_prefix_and_fresh_random_hex() -> None:
    first, second = hold("T", SECRET, ["a.example"]), hold("T", SECRET, ["a.example"])
    assert first.placeholder.startswith(PLACEHOLDER_PREFIX) and len(first.placeholder) == 13 + 32
    assert first.placeholder != second.placeholder


def test_the_value_is_not_in_the_repr() -> None:
    assert SECRET not in repr(TOKEN) and TOKEN.placeholder in repr(TOKEN)


@pytest.mark.parametrize(
    ("host", "applies"),
    [
        ("api.example.com", True),
        ("a.uploads.example.com", True),
        ("uploads.example.com", False),  # "*." is subdomains only
        ("api.example.com.evil.test", False),
        ("evil-api.example.com", False),
        ("example.com", False),
        ("1.2.3.4", False),
        ("", False),
    ],
)
def test_a_held_secret_applies_to_its_hosts_only(host: str, applies: bool) -> None:
    assert (TOKEN.applies_to(host), held_for(host, [TOKEN]) == (TOKEN,)) == (applies, applies)


def test_bearer_and_basic_credentials_get_the_value() -> None:
    basic = base64.b64encode(f"me:{TOKEN.placeholder}".encode()).decode()
    headers = [
        ("Authorization", f"Basic {basic}"),
        ("X-Api-Key", f"k={TOKEN.placeholder};"),
        ("Accept", "*/*"),
    ]
    out, changed = substitute(headers, [TOKEN])
    assert out == [
        ("Authorization", "Basic " + base64.b64encode(f"me:{SECRET}".encode()).decode()),
        ("X-Api-Key", f"k={SECRET};"),
        ("Accept", "*/*"),
    ]
    assert changed == 2


def test_malformed_basic_credentials_pass_unchanged() -> None:
    headers = [("Authorization", "Basic !!!not-base64"), ("Authorization", "Basic " + "//79")]
    assert substitute(headers, [TOKEN]) == (headers, 0)


@settings(max_examples=200, derandomize=True)
@given(st.lists(st.tuples(st.text(min_size=1, max_size=20), st.text(max_size=60)), max_size=6))
def test_headers_without_the_placeholder_are_never_changed(headers: list[tuple[str, str]]) -> None:
    headers = [(k, v.replace(TOKEN.placeholder, "")) for k, v in headers]
    assert substitute(headers, [TOKEN]) == (headers, 0)


@settings(max_examples=200, derandomize=True)
@given(st.text(max_size=40), st.text(max_size=40))
def test_every_placeholder_in_a_header_is_replaced(before: str, after: str) -> None:
    value = before + TOKEN.placeholder + after + TOKEN.placeholder
    ((_, out),), changed = substitute([("X-Key", value)], [TOKEN])
    assert (TOKEN.placeholder in out, out.count(SECRET) >= 2, changed) == (False, True, 1)


def test_without_held_secrets_nothing_is_substituted() -> None:
    headers = [("X-Key", TOKEN.placeholder)]
    assert substitute(headers, []) == (headers, 0)


@pytest.mark.parametrize("value", ["a\r\nX-Evil: 1", "a\nb", "a\x00b"])
def test_a_value_that_could_forge_a_header_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="line break or NUL"):
        hold("T", value, ["a.example"])


def test_held_secrets_load_from_the_credentials_dir_with_fresh_placeholders(tmp_path: Path) -> None:
    creds = tmp_path / "creds"
    creds.mkdir(mode=0o700)
    (creds / "GH_TOKEN").write_text("ghp_value\n")
    (creds / "BAD").write_text("two\nlines\n")
    (secret,) = load_held(str(creds), [SecretHold("GH_TOKEN", ("api.github.com",))])
    assert (secret.name, secret.value, secret.hosts) == ("GH_TOKEN", "ghp_value", ("api.github.com",))
    assert secret.placeholder.startswith(PLACEHOLDER_PREFIX)
    with pytest.raises(SecretError, match="'BAD' contains a line break") as info:
        load_held(str(creds), [SecretHold("BAD", ("a.example",))])
    assert "two" not in str(info.value)
    with pytest.raises(SecretError, match="'NOPE' cannot be read"):
        load_held(str(creds), [SecretHold("NOPE", ("a.example",))])
