"""The ledger's keyed-once HMAC gives exactly the digests of the standard call."""

from __future__ import annotations

import hashlib
import hmac

from hypothesis import given, settings
from hypothesis import strategies as st

from bastion.audit.fast import KeyedSha256


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
