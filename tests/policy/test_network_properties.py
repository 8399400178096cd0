"""Properties: decide_target never raises and never allows what it cannot parse."""

from __future__ import annotations

import ipaddress

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bastion.policy.decision import Decision
from bastion.policy.network import (
    NetworkRules,
    StaticResolver,
    UrlError,
    address_class,
    decide_target,
    host_pattern_error,
    parse_target,
)

# "*" allows every parseable public host: the strongest test of "no allow by accident".
ALLOW_ALL = NetworkRules(allow_hosts=("*",))
RESOLVER = StaticResolver({"pypi.org": ["10.0.0.1"]})

url_parts = st.sampled_from(
    [
        *("http://", "https://", "ftp://", "//", "[", "]", "::", ":", "@", "#", "?", "/"),
        *("%25", "%", "0x", "0", "127", ".", "1", "ffff", "localhost", "pypi.org"),
        *("\\", " ", "\x00", "ⓔ", "xn--"),
    ]
)
urlish = st.lists(url_parts, max_size=12).map("".join)
targets = st.one_of(st.text(max_size=80), urlish)


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(targets, st.booleans())
def test_decide_target_never_raises_and_never_allows_unparseable_text(text: str, resolve: bool) -> None:
    decision, reasons, target = decide_target(text, ALLOW_ALL, RESOLVER if resolve else None)
    assert reasons, "every answer carries a reason"
    try:
        parsed = parse_target(text)
    except UrlError:
        assert decision is Decision.DENY
        assert target is None
        return
    assert target == parsed
    if decision is Decision.ALLOW:
        assert parsed.address is None or address_class(parsed.address) is None


@settings(max_examples=300)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_every_ipv4_spelling_decides_like_the_dotted_address(value: int) -> None:
    dotted = str(ipaddress.IPv4Address(value))
    expected = decide_target(f"http://{dotted}/", ALLOW_ALL, None)[0]
    for spelling in (str(value), hex(value), "0" + oct(value)[2:], f"[::ffff:{dotted}]"):
        assert decide_target(f"http://{spelling}/", ALLOW_ALL, None)[0] is expected, spelling


@settings(max_examples=300)
@given(st.integers(min_value=0, max_value=2**128 - 1))
def test_a_literal_ipv6_is_allowed_only_when_public(value: int) -> None:
    address = ipaddress.IPv6Address(value)
    decision = decide_target(f"http://[{address}]/", ALLOW_ALL, None)[0]
    assert (decision is Decision.ALLOW) == (address_class(address) is None)


@given(st.text(max_size=40))
def test_host_pattern_error_never_raises(pattern: str) -> None:
    error = host_pattern_error(pattern)
    assert error is None or isinstance(error, str)
