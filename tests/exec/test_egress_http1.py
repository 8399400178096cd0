"""The proxy's request-head reader: exact or refused, never guessed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bastion.exec.egress.http1 import Head, HeadError, parse_head, upstream_headers


def test_a_plain_head_parses_into_method_target_version_and_headers() -> None:
    head = parse_head(b"GET http://a.example/x HTTP/1.1\r\nHost: a.example\r\nX-A:  1 \r\n\r\n")
    assert head == Head("GET", "http://a.example/x", "HTTP/1.1", (("Host", "a.example"), ("X-A", "1")))


@pytest.mark.parametrize(
    "raw",
    [
        b"GET  http://a/ HTTP/1.1\r\n\r\n",  # two spaces
        b"GET http://a/ HTTP/1.1 extra\r\n\r\n",
        b"G(T http://a/ HTTP/1.1\r\n\r\n",
        b"GET http://a/ HTTP/1.1\r\nX :1\r\n\r\n",  # space before the colon (smuggling classic)
        b"GET http://a/ HTTP/1.1\r\nX\xff: 1\r\n\r\n",
        b"GET http://a/ HTTP/1.1\r\nX: a\rb\r\n\r\n",
        b"GET http://a/ HTTP/1.1\r\nX: a\x00\r\n\r\n",
    ],
)
def test_an_ambiguous_head_is_refused(raw: bytes) -> None:
    with pytest.raises(HeadError):
        parse_head(raw)


@settings(max_examples=300, derandomize=True)
@given(st.binary(max_size=300))
def test_any_bytes_either_parse_or_are_refused_never_crash(data: bytes) -> None:
    raw = data + b"\r\n\r\n"
    try:
        head = parse_head(raw)
    except HeadError:
        return
    assert all("\r" not in v and "\n" not in v for _, v in head.headers)


def test_hop_by_hop_headers_and_the_ones_connection_names_stay_with_the_proxy() -> None:
    head = parse_head(
        b"GET http://a.example/ HTTP/1.1\r\nHost: evil.example\r\nConnection: X-Secret\r\n"
        b"X-Secret: 1\r\nProxy-Authorization: Basic eA==\r\nTE: trailers\r\nAccept: */*\r\n\r\n"
    )
    assert upstream_headers(head, "a.example") == [
        ("Host", "a.example"),
        ("Accept", "*/*"),
        ("Connection", "close"),
    ]
