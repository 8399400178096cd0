"""A held secret's value never comes back into the sandbox in an echoed response."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bastion.exec.egress.echo import EchoMask, echo_forms, identity_only, scannable
from bastion.exec.egress.held import hold
from bastion.policy.compiled import Policy
from tests.exec.egress_helpers import Upstream, start_upstream
from tests.exec.test_egress_proxy import POLICY, SECRET, body, exchange, get, keeper_for, session_for, status


@pytest.fixture
def upstream() -> Iterator[Upstream]:
    server = start_upstream("held.test")
    yield server
    server.close()


def _once(_: object) -> dict[str, str]:
    return {"kind": "once"}


def test_the_forms_are_the_value_its_escapes_and_the_basic_payload_as_sent() -> None:
    secret = hold("T", 'a/b"c', ["h.test"])
    basic = base64.b64encode(b'user:a/b"c').decode()

    forms = echo_forms([secret], [("Authorization", f"Basic {basic}"), ("X", "y")])

    assert set(forms) == {b'a/b"c', b"a%2Fb%22c", b'a/b\\"c', basic.encode()}


@given(
    before=st.binary(max_size=40),
    after=st.binary(max_size=40),
    cuts=st.lists(st.integers(min_value=0, max_value=120), max_size=6),
)
def test_a_value_is_masked_however_the_stream_is_cut(before: bytes, after: bytes, cuts: list[int]) -> None:
    value = b"s3cr3t-token-value-9f2"
    data = before + value + after + value
    mask = EchoMask([value])
    out = b""
    last = 0
    for cut in sorted(c for c in cuts if c <= len(data)):
        out += mask.feed(data[last:cut])
        last = cut
    out += mask.feed(data[last:]) + mask.flush()

    assert out == data.replace(value, b"*" * len(value))  # the same as masking it whole
    assert value not in out


def test_the_request_asks_for_an_uncompressed_answer_and_a_compressed_one_is_unscannable() -> None:
    headers = identity_only([("Accept-Encoding", "gzip, br"), ("X", "1")])

    assert headers == [("X", "1"), ("Accept-Encoding", "identity")]
    assert scannable(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n")
    assert scannable(b"HTTP/1.1 200 OK\r\nContent-Encoding: identity\r\n\r\n")
    assert not scannable(b"HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\n\r\n")


def test_an_origin_echoing_the_swapped_headers_sends_back_stars(
    make_policy: Callable[..., Policy], upstream: Upstream
) -> None:
    keeper = keeper_for(make_policy(POLICY), on_permission=_once)
    secret = hold("API_TOKEN", SECRET, ["held.test"])
    basic = base64.b64encode(f"me:{secret.placeholder}".encode()).decode()
    with session_for(keeper, upstream, held=[secret]) as egress:
        bearer = exchange(
            egress,
            get(
                "http://held.test/echo",
                f"Authorization: Bearer {secret.placeholder}",
                "Accept-Encoding: gzip",
            ),
        )
        basic_reply = exchange(egress, get("http://held.test/echo", f"Authorization: Basic {basic}"))

    assert status(bearer) == status(basic_reply) == "HTTP/1.1 200 OK"
    assert upstream.seen[0].headers["Authorization"] == f"Bearer {SECRET}"  # it did go out
    assert upstream.seen[0].headers["Accept-Encoding"] == "identity"
    echoed = json.loads(body(bearer))
    assert echoed["Authorization"] == "Bearer " + "*" * len(SECRET)
    assert f"X-Echo-Authorization: Bearer {'*' * len(SECRET)}" in bearer
    sent_basic = base64.b64encode(f"me:{SECRET}".encode()).decode()
    assert upstream.seen[1].headers["Authorization"] == f"Basic {sent_basic}"
    assert json.loads(body(basic_reply))["Authorization"] == "Basic " + "*" * len(sent_basic)
    assert SECRET not in bearer + basic_reply and sent_basic not in basic_reply


def test_a_compressed_answer_from_a_held_host_is_refused_not_passed(
    make_policy: Callable[..., Policy], upstream: Upstream
) -> None:
    keeper = keeper_for(make_policy(POLICY), on_permission=_once)
    secret = hold("API_TOKEN", SECRET, ["held.test"])
    with session_for(keeper, upstream, held=[secret]) as egress:
        reply = exchange(egress, get("http://held.test/echo?coding=gzip", f"X-Key: {secret.placeholder}"))

    assert status(reply) == "HTTP/1.1 502 Bad Gateway"
    assert "compressed" in body(reply) and SECRET not in reply
