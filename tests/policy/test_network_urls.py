"""parse_target and address_class: every spelling of a destination reads as what it reaches."""

from __future__ import annotations

import ipaddress

import pytest

from bastion.policy.network import Target, UrlError, address_class, parse_target


def parsed(text: str, **kwargs: frozenset[str]) -> tuple[str | None, str, int | None, str | None]:
    target = parse_target(text, **kwargs)
    address = None if target.address is None else str(target.address)
    return target.scheme, target.host, target.port, address


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://u:p@Example.COM.:443/x", ("https", "example.com", 443, None)),
        ("HTTPS://PyPI.org/simple/", ("https", "pypi.org", None, None)),
        ("pypi.org", (None, "pypi.org", None, None)),
        ("pypi.org:443", (None, "pypi.org", 443, None)),
        ("pypi.org/simple?x=1#y", (None, "pypi.org", None, None)),
        ("git@github.com:org/repo.git", (None, "github.com", None, None)),
        ("github.com:org/repo.git", (None, "github.com", None, None)),
        ("[::1]:8080", (None, "::1", 8080, "::1")),
        ("http://[::1]:8080/x", ("http", "::1", 8080, "::1")),
        ("http://example.com:0080/", ("http", "example.com", 80, None)),
        ("http://a_b.example.com/", ("http", "a_b.example.com", None, None)),
    ],
)
def test_urls_bare_hosts_and_scp_remotes_parse_to_scheme_host_port(
    text: str, expected: tuple[str | None, str, int | None, str | None]
) -> None:
    assert parsed(text) == expected


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("http://127.0.0.1/", "127.0.0.1"),
        ("http://2130706433/", "127.0.0.1"),  # decimal
        ("http://0177.0.0.1/", "127.0.0.1"),  # octal
        ("http://0x7f.1/", "127.0.0.1"),  # hex + short
        ("http://0x7f000001/", "127.0.0.1"),
        ("http://127.1/", "127.0.0.1"),  # short form
        ("http://127.0.1/", "127.0.0.1"),
        ("http://0/", "0.0.0.0"),
        ("http://0x/", "0.0.0.0"),  # WHATWG: "0x" is zero
        ("http://0xA9.0xFE.0xA9.0xFE/", "169.254.169.254"),
        ("http://025177524776/", "169.254.169.254"),  # octal 32-bit
        ("http://127.0.0.1./", "127.0.0.1"),  # trailing dot
        ("http://１２７.０.０.１/", "127.0.0.1"),  # fullwidth digits, UTS46-mapped
        ("http://127。0。0。1/", "127.0.0.1"),  # ideographic full stops
        ("http://[::ffff:127.0.0.1]/", "127.0.0.1"),  # IPv4-mapped, dotted
        ("http://[::ffff:7f00:1]/", "127.0.0.1"),  # IPv4-mapped, hex
        ("http://[0:0:0:0:0:ffff:7f00:0001]/", "127.0.0.1"),
        ("http://[::1]/", "::1"),
        ("http://[0:0:0:0:0:0:0:1]/", "::1"),
        ("http://[FE80::1%25eth0]:80/", "fe80::1"),  # RFC 6874 zone id
        ("http://[fe80::1%eth0]/", "fe80::1"),
        ("fe80::1%eth0", "fe80::1"),  # bare IPv6 with zone
        ("::1", "::1"),
        ("::ffff:10.0.0.1", "10.0.0.1"),
        ("http://[64:ff9b::7f00:1]/", "64:ff9b::7f00:1"),  # NAT64 stays IPv6, classified by v4
    ],
)
def test_every_ip_spelling_normalises_to_its_canonical_address(text: str, address: str) -> None:
    target = parse_target(text)
    assert target.address == ipaddress.ip_address(address)
    assert target.host == address


@pytest.mark.parametrize(
    ("text", "host"),
    [
        ("http://ⓔxample.com/", "example.com"),  # UTS46 maps the circled letter
        ("http://Bücher.DE./", "xn--bcher-kva.de"),
        ("http://faß.de/", "xn--fa-hia.de"),  # IDNA 2008, non-transitional
        ("http://例え。テスト/", "xn--r8jz45g.xn--zckzah"),
        ("http://XN--BCHER-KVA.de/", "xn--bcher-kva.de"),
    ],
)
def test_unicode_hosts_are_idna_encoded_and_lowercased(text: str, host: str) -> None:
    assert parse_target(text).host == host


def test_userinfo_is_dropped_from_the_host_but_remembered() -> None:
    target = parse_target("http://pypi.org@127.0.0.1/")
    assert (target.host, target.has_userinfo) == ("127.0.0.1", True)
    assert parse_target("https://pypi.org/").has_userinfo is False


def test_fragment_ends_the_authority_before_a_later_at_sign() -> None:
    assert parse_target("http://127.0.0.1#@pypi.org/").host == "127.0.0.1"
    assert parse_target("http://127.0.0.1/?q=@pypi.org").host == "127.0.0.1"


def test_target_keeps_the_original_text() -> None:
    assert parse_target("HTTP://X.com") == Target("http", "x.com", None, None, "HTTP://X.com")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("   ", "control or space"),
        ("http://exa mple.com/", "control or space"),
        (" http://example.com", "control or space"),
        ("http://example.com\x00.evil/", "control or space"),
        ("http://example.com\t/", "control or space"),
        ("http://exa\u200bmple.com/", "invisible"),  # zero-width space
        ("http://exa\u00a0mple.com/", "invisible"),  # no-break space
        ("http://pypi.org\\@evil/", "backslash"),
        ("http://", "empty host"),
        ("http:///path", "empty host"),
        ("http://:80/", "empty host"),
        ("http://[::1", "unclosed"),
        ("http://[::1]x/", "after ']'"),
        ("http://[127.0.0.1]/", "not a valid IPv6"),
        ("http://[v1.x]/", "IPvFuture"),
        ("http://[fe80::1%25]/", "zone"),
        ("http://::1/", "must be in brackets"),
        ("http://example.com:99999/", "out of range"),
        ("http://example.com:0/", "out of range"),
        ("http://example.com:123456/", "out of range"),
        ("http://example.com:/", "bad port"),
        ("http://example.com:http/", "bad port"),
        ("pypi.org:99999", "out of range"),
        ("http://a@b@127.0.0.1/", "more than one '@'"),
        ("a.com:x@b.com/", "ambiguous"),
        ("http://%31%32%37.0.0.1/", "percent-encoding"),
        ("http://exa*mple.com/", "not a valid host name"),
        ("http://a..b.com/", "not a valid host name"),
        ("http://x.com../", "not a valid host name"),
        ("http://" + "a" * 64 + ".com/", "not a valid host name"),
        ("http://" + "a." * 130 + "com/", "invalid length"),
        ("http://1.2.3.4.5/", "not an IPv4 address"),
        ("http://example.1/", "not an IPv4 address"),
        ("http://08.0.0.1/", "not an IPv4 address"),  # 8 is not octal
        ("http://256.0.0.1/", "out-of-range"),
        ("http://1.2.65536/", "out-of-range"),
        ("http://4294967296/", "out-of-range"),
        ("http://xn--zz.com/", "not a valid IDNA label"),
        ("http://a_b.ⓔxample.com/", "not a valid international name"),
        ("http:evil.com", "must be followed by '//'"),
        ("http:/evil.com", "must be followed by '//'"),
        ("//evil.com/x", "needs a scheme"),
        ("x" * 9000, "longer than"),
    ],
)
def test_malformed_targets_are_rejected_with_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(UrlError, match=message.replace("[", r"\[").replace("*", r"\*")):
        parse_target(text)


@pytest.mark.parametrize(
    "text",
    [
        "ftp://example.com/",
        "file:///etc/passwd",
        "file:/etc/passwd",
        "gopher://127.0.0.1:25/",
        "javascript:alert(1)",
        "data:text/html,<script>",
        "mailto:a@b.com",
        "unknownscheme:whatever",
        "localhost:repo",  # an unknown word before ':' is a scheme, not a host
    ],
)
def test_schemes_outside_the_allowed_set_are_rejected(text: str) -> None:
    with pytest.raises(UrlError, match="is not allowed"):
        parse_target(text)


def test_allowed_schemes_can_be_widened() -> None:
    assert parsed("ftp://example.com/", allowed_schemes=frozenset({"ftp"})) == (
        "ftp",
        "example.com",
        None,
        None,
    )
    with pytest.raises(UrlError, match="not allowed"):
        parse_target("https://example.com/", allowed_schemes=frozenset({"ftp"}))


def test_non_text_input_is_a_url_error() -> None:
    with pytest.raises(UrlError, match="must be text"):
        parse_target(b"http://x.com")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("address", "cls"),
    [
        ("169.254.169.254", "metadata"),
        ("169.254.170.2", "metadata"),
        ("100.100.100.200", "metadata"),
        ("192.0.0.192", "metadata"),
        ("fd00:ec2::254", "metadata"),
        ("64:ff9b::a9fe:a9fe", "metadata"),  # NAT64 of 169.254.169.254
        ("::ffff:169.254.169.254", "metadata"),
        ("127.0.0.1", "loopback"),
        ("127.255.255.254", "loopback"),
        ("::1", "loopback"),
        ("::127.0.0.1", "loopback"),  # IPv4-compatible
        ("64:ff9b::7f00:1", "loopback"),  # NAT64
        ("64:ff9b:1::7f00:1", "loopback"),  # local-use NAT64
        ("2002:7f00:1::", "loopback"),  # 6to4
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("172.31.255.255", "private"),
        ("192.168.1.1", "private"),
        ("::ffff:192.168.1.1", "private"),
        ("169.254.1.1", "link-local"),
        ("fe80::1", "link-local"),
        ("100.64.0.1", "cgnat"),
        ("100.127.255.255", "cgnat"),
        ("fc00::1", "unique-local"),
        ("fd12:3456::1", "unique-local"),
        ("224.0.0.1", "multicast"),
        ("ff02::1", "multicast"),
        ("0.0.0.0", "unspecified"),
        ("0.1.2.3", "unspecified"),
        ("::", "unspecified"),
        ("255.255.255.255", "broadcast"),
        ("240.0.0.1", "reserved"),
        ("192.0.2.1", "reserved"),
        ("2001:db8::1", "reserved"),
    ],
)
def test_address_class_names_every_non_public_range(address: str, cls: str) -> None:
    assert address_class(ipaddress.ip_address(address)) == cls


@pytest.mark.parametrize(
    "address",
    ["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "64:ff9b::808:808"],
)
def test_public_addresses_have_no_class(address: str) -> None:
    assert address_class(ipaddress.ip_address(address)) is None


def test_a_zone_id_does_not_hide_a_metadata_address() -> None:
    assert address_class(ipaddress.IPv6Address("fd00:ec2::254%eth0")) == "metadata"
