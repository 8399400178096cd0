"""The ledger's set-up-once primitives give exactly the bytes of the standard calls."""

from __future__ import annotations

import hashlib
import hmac
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bastion.audit.fast import KeyedSha256, acyclic_encode

_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)

_ENCODERS = [
    json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False),
    json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str),
    json.JSONEncoder(separators=(",", ":"), ensure_ascii=False),
    json.JSONEncoder(sort_keys=True),
    json.JSONEncoder(sort_keys=True, default=str),
]


@given(st.binary(min_size=0, max_size=200), st.binary(max_size=3000))
@settings(max_examples=300, deadline=None)
def test_the_keyed_sha256_is_hmac_sha256_for_any_key_and_message(key: bytes, message: bytes) -> None:
    mac = KeyedSha256(key)
    expected = hmac.new(key, message, hashlib.sha256)
    assert (mac.hexdigest(message), mac.digest(message)) == (expected.hexdigest(), expected.digest())


def test_the_keyed_sha256_gives_the_same_digest_every_time_it_is_used() -> None:
    mac = KeyedSha256(b"k" * 32)
    assert len({mac.hexdigest(b"same") for _ in range(3)}) == 1
    assert mac.hexdigest(b"a") != mac.hexdigest(b"b")


def test_the_keyed_sha256_never_shows_its_key() -> None:
    assert "k" * 8 not in repr(KeyedSha256(b"k" * 32))


@given(_JSON_VALUES | st.sets(st.integers(), max_size=3) | st.builds(object))
@settings(max_examples=400, deadline=None)
def test_an_encoder_set_up_once_writes_or_refuses_what_its_encode_does(value: object) -> None:
    for encoder in _ENCODERS:
        try:
            expected = ("ok", encoder.encode(value))
        except (TypeError, ValueError) as exc:
            expected = (type(exc).__name__, str(exc))
        try:
            got = ("ok", acyclic_encode(encoder)(value))
        except (TypeError, ValueError) as exc:
            got = (type(exc).__name__, str(exc))
        assert got == expected
