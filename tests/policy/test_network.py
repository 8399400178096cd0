"""decide_target: what the network policy says about a destination, and why."""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

import pytest

from bastion.policy.decision import Decision, Reason
from bastion.policy.network import (
    METADATA_HOSTS,
    NetworkRules,
    Resolver,
    StaticResolver,
    SystemResolver,
    Target,
    decide_target,
    host_matches,
    host_pattern_error,
    parse_target,
)

SOURCE = "/p/policy.toml:12"
RULES = NetworkRules(
    allow_hosts=("pypi.org", "*.github.com", "Bücher.de", "203.0.113.7", "198.51.100.0/24"),
    deny_hosts=("evil.example", "*.bad.example", "8.8.4.0/24"),
    source=SOURCE,
)
PRIVATE_OK = NetworkRules(allow_hosts=("*",), allow_private=True, source=SOURCE)

Outcome = tuple[Decision | None, tuple[tuple[str, str, str], ...]]


def outcome(text: str, rules: NetworkRules = RULES, resolver: Resolver | None = None) -> Outcome:
    """Decision plus (rule, source, matched) of every reason."""
    decision, reasons, _ = decide_target(text, rules, resolver)
    return decision, tuple((r.rule, r.source, r.matched) for r in reasons)


def deny(rule: str, matched: str, source: str = SOURCE) -> Outcome:
    return Decision.DENY, ((rule, source, matched),)


def hardline(matched: str) -> Outcome:
    return deny("hardline.metadata", matched, "built-in")


def private(matched: str) -> Outcome:
    return deny("network.private", matched)


def allowed(pattern: str) -> Outcome:
    return Decision.ALLOW, (("network.allow_hosts", SOURCE, pattern),)


def unlisted(host: str) -> Outcome:
    return None, (("network.unlisted", SOURCE, host),)


# --- Allow lists, wildcards, deny lists ------------------------------------------------


def test_an_allowed_host_is_allowed_with_the_matching_entry() -> None:
    decision, reasons, target = decide_target("https://pypi.org/simple/", RULES, None)
    assert decision is Decision.ALLOW
    assert reasons == (
        Reason(
            Decision.ALLOW,
            "network.allow_hosts",
            SOURCE,
            "pypi.org",
            "pypi.org matches [network] allow_hosts entry 'pypi.org'",
        ),
    )
    assert target == Target("https", "pypi.org", None, None, "https://pypi.org/simple/")


@pytest.mark.parametrize(
    "text", ["https://PyPI.ORG/", "https://pypi.org./", "pypi.org", "pypi.org:443", "PYPI.org."]
)
def test_allow_entries_match_after_case_and_trailing_dot_normalisation(text: str) -> None:
    assert outcome(text) == allowed("pypi.org")


@pytest.mark.parametrize("text", ["https://api.github.com/", "https://a.b.github.com/x", "x.github.com"])
def test_a_wildcard_entry_matches_subdomains(text: str) -> None:
    assert outcome(text) == allowed("*.github.com")


def test_a_wildcard_entry_does_not_match_its_apex_or_lookalikes() -> None:
    assert outcome("https://github.com/") == unlisted("github.com")
    assert outcome("https://evilgithub.com/") == unlisted("evilgithub.com")
    assert outcome("https://github.com.evil.example/") == unlisted("github.com.evil.example")


def test_exact_entries_do_not_match_subdomains() -> None:
    assert outcome("https://www.pypi.org/") == unlisted("www.pypi.org")


def test_unicode_allow_entries_match_their_idna_spelling_and_vice_versa() -> None:
    assert outcome("https://xn--bcher-kva.de/") == allowed("Bücher.de")
    assert outcome("https://BÜCHER.de/") == allowed("Bücher.de")


def test_a_host_not_in_any_list_gets_no_opinion_and_a_reason_saying_so() -> None:
    decision, reasons, _ = decide_target("https://example.org/", RULES, None)
    assert decision is None
    assert reasons == (
        Reason(
            Decision.ASK,
            "network.unlisted",
            SOURCE,
            "example.org",
            "example.org is not in [network] allow_hosts",
        ),
    )


def test_a_denied_host_is_denied_with_the_matching_entry() -> None:
    assert outcome("https://evil.example/") == deny("network.deny_hosts", "evil.example")
    assert outcome("https://x.bad.example/") == deny("network.deny_hosts", "*.bad.example")


def test_deny_beats_allow() -> None:
    rules = NetworkRules(allow_hosts=("*.x.com",), deny_hosts=("secret.x.com",), source=SOURCE)
    assert outcome("https://secret.x.com/", rules) == deny("network.deny_hosts", "secret.x.com")
    assert outcome("https://ok.x.com/", rules) == allowed("*.x.com")


def test_ip_and_cidr_entries_match_literal_addresses_in_any_spelling() -> None:
    assert outcome("http://203.0.113.7/") == private("203.0.113.7")  # reserved range: blocked
    public = NetworkRules(allow_hosts=("93.184.216.34", "2606:4700::/32"), source=SOURCE)
    assert outcome("http://93.184.216.34/", public) == allowed("93.184.216.34")
    assert outcome("http://1572395042/", public) == allowed("93.184.216.34")
    assert outcome("http://[2606:4700::1111]/", public) == allowed("2606:4700::/32")
    assert outcome("http://8.8.4.4/") == deny("network.deny_hosts", "8.8.4.0/24")
    assert outcome("http://[::ffff:8.8.4.4]/") == deny("network.deny_hosts", "8.8.4.0/24")


def test_a_star_allow_entry_allows_every_public_host_but_not_private_ones() -> None:
    rules = NetworkRules(allow_hosts=("*",), source=SOURCE)
    assert outcome("https://anything.example/", rules) == allowed("*")
    assert outcome("http://8.8.8.8/", rules) == allowed("*")
    assert outcome("http://10.0.0.1/", rules) == private("10.0.0.1")


def test_a_star_deny_entry_denies_everything() -> None:
    rules = NetworkRules(allow_hosts=("pypi.org",), deny_hosts=("*",), source=SOURCE)
    assert outcome("https://pypi.org/", rules) == deny("network.deny_hosts", "*")
    assert outcome("http://8.8.8.8/", rules) == deny("network.deny_hosts", "*")


def test_credentials_in_the_url_are_ignored_for_matching_and_mentioned() -> None:
    decision, reasons, target = decide_target("https://me:tok@pypi.org/", RULES, None)
    assert (decision, target is not None and target.host) == (Decision.ALLOW, "pypi.org")
    assert reasons[0].message.endswith("(credentials in the URL are ignored)")


# --- Private and metadata destinations ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "matched"),
    [
        ("http://127.0.0.1/", "127.0.0.1"),
        ("http://2130706433/", "127.0.0.1"),
        ("http://0177.0.0.1/", "127.0.0.1"),
        ("http://0x7f.1/", "127.0.0.1"),
        ("http://127.1:8080/", "127.0.0.1"),
        ("http://0.0.0.0/", "0.0.0.0"),
        ("http://0/", "0.0.0.0"),
        ("http://[::1]:8080/", "::1"),
        ("[::1]:8080", "::1"),
        ("http://[::ffff:127.0.0.1]/", "127.0.0.1"),
        ("http://[::ffff:7f00:1]/", "127.0.0.1"),
        ("http://[64:ff9b::7f00:1]/", "64:ff9b::7f00:1"),
        ("http://[::127.0.0.1]/", "::7f00:1"),
        ("http://[fe80::1%25eth0]/", "fe80::1"),
        ("fe80::1%eth0", "fe80::1"),
        ("http://[fd12:3456::1]/", "fd12:3456::1"),
        ("http://10.0.0.1/", "10.0.0.1"),
        ("http://192.168.0.1./", "192.168.0.1"),
        ("http://172.16.5.4/", "172.16.5.4"),
        ("http://100.64.0.1/", "100.64.0.1"),
        ("http://169.254.1.1/", "169.254.1.1"),
        ("http://pypi.org@127.0.0.1/", "127.0.0.1"),
        ("http://127.0.0.1#@pypi.org/", "127.0.0.1"),
        ("http://localhost:8000/", "localhost"),
        ("http://LOCALHOST./", "localhost"),
        ("http://app.localhost/", "app.localhost"),
        ("localhost:5432", "localhost"),
    ],
)
def test_private_destinations_are_denied_in_every_spelling(text: str, matched: str) -> None:
    assert outcome(text) == private(matched)


def test_the_private_reason_names_the_class_and_the_way_out() -> None:
    _, reasons, _ = decide_target("http://100.64.0.1/", RULES, None)
    assert reasons[0].message == (
        "100.64.0.1 is a carrier-grade NAT (100.64.0.0/10) address; "
        "private destinations need [network] allow_private = true"
    )
    _, reasons, _ = decide_target("http://[64:ff9b::7f00:1]/", RULES, None)
    assert "it embeds 127.0.0.1" in reasons[0].message


def test_an_allow_entry_does_not_open_a_private_address_without_allow_private() -> None:
    rules = NetworkRules(allow_hosts=("10.0.0.5", "localhost"), source=SOURCE)
    assert outcome("http://10.0.0.5/", rules) == private("10.0.0.5")
    assert outcome("http://localhost/", rules) == private("localhost")


def test_allow_private_lifts_the_block_but_does_not_itself_allow() -> None:
    rules = NetworkRules(allow_private=True, allow_hosts=("10.0.0.5",), source=SOURCE)
    assert outcome("http://10.0.0.5/", rules) == allowed("10.0.0.5")
    assert outcome("http://10.0.0.6/", rules) == unlisted("10.0.0.6")
    assert outcome("http://127.0.0.1/", rules) == unlisted("127.0.0.1")


@pytest.mark.parametrize(
    ("text", "matched"),
    [
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254"),
        ("http://2852039166/", "169.254.169.254"),
        ("http://0xa9.0xfe.0xa9.0xfe/", "169.254.169.254"),
        ("http://0251.0376.0251.0376/", "169.254.169.254"),
        ("http://169.254.43518/", "169.254.169.254"),
        ("http://[::ffff:169.254.169.254]/", "169.254.169.254"),
        ("http://[::ffff:a9fe:a9fe]/", "169.254.169.254"),
        ("http://[64:ff9b::a9fe:a9fe]/", "64:ff9b::a9fe:a9fe"),
        ("http://169.254.170.2/v2/credentials", "169.254.170.2"),
        ("http://[fd00:ec2::254]/", "fd00:ec2::254"),
        ("http://100.100.100.200/", "100.100.100.200"),
        ("http://192.0.0.192/", "192.0.0.192"),
        ("http://metadata.google.internal/computeMetadata/v1/", "metadata.google.internal"),
        ("http://METADATA.google.internal./", "metadata.google.internal"),
        ("http://metadata/", "metadata"),
        ("http://metadata.goog/", "metadata.goog"),
        ("http://instance-data/", "instance-data"),
        ("http://instance-data.us-west-2.compute.internal/", "instance-data.us-west-2.compute.internal"),
        ("http://user@169.254.169.254/", "169.254.169.254"),
    ],
)
def test_metadata_endpoints_are_denied_even_with_allow_private_and_allow_star(
    text: str, matched: str
) -> None:
    assert outcome(text, PRIVATE_OK) == hardline(matched)
    assert outcome(text) == hardline(matched)


def test_metadata_beats_an_explicit_allow_entry() -> None:
    rules = NetworkRules(allow_hosts=("metadata.google.internal", "169.254.169.254"), allow_private=True)
    assert outcome("http://metadata.google.internal/", rules) == hardline("metadata.google.internal")
    assert outcome("http://169.254.169.254/", rules) == hardline("169.254.169.254")


def test_the_metadata_reason_says_what_it_is() -> None:
    _, reasons, _ = decide_target("http://169.254.169.254/", RULES, None)
    assert reasons[0].message == (
        "169.254.169.254 is a cloud metadata endpoint; it is never reachable by tool calls"
    )


def test_metadata_hosts_lists_the_well_known_names() -> None:
    assert {"metadata.google.internal", "metadata.goog", "instance-data"} <= METADATA_HOSTS


# --- Resolution -----------------------------------------------------------------------------

DNS = StaticResolver(
    {
        "pypi.org": ["151.101.0.223"],
        "rebind.github.com": ["10.0.0.7"],
        "imds.github.com": ["169.254.169.254"],
        "mapped.github.com": ["::ffff:127.0.0.1"],
        "mixed.github.com": ["140.82.112.3", "192.168.1.9"],
        "example.org": ["127.0.0.1"],
        "blocked.github.com": ["8.8.4.4"],
    }
)


def test_an_allowed_name_resolving_to_public_addresses_stays_allowed() -> None:
    assert outcome("https://pypi.org/", resolver=DNS) == allowed("pypi.org")


def test_an_allowed_name_resolving_to_a_private_address_is_denied() -> None:
    decision, reasons, _ = decide_target("https://rebind.github.com/", RULES, DNS)
    assert decision is Decision.DENY
    assert reasons == (
        Reason(
            Decision.DENY,
            "network.private",
            SOURCE,
            "10.0.0.7",
            "rebind.github.com resolves to 10.0.0.7, a private-network address; "
            "private destinations need [network] allow_private = true",
        ),
    )


def test_any_one_blocked_address_among_several_denies() -> None:
    assert outcome("https://mixed.github.com/", resolver=DNS) == private("192.168.1.9")


def test_resolved_ipv4_mapped_addresses_are_unwrapped() -> None:
    assert outcome("https://mapped.github.com/", resolver=DNS) == private("127.0.0.1")


def test_an_unlisted_name_resolving_to_a_private_address_is_denied() -> None:
    assert outcome("https://example.org/", resolver=DNS) == private("127.0.0.1")


def test_a_name_resolving_to_metadata_is_denied_even_with_allow_private() -> None:
    assert outcome("https://imds.github.com/", PRIVATE_OK, DNS) == hardline("169.254.169.254")


def test_allow_private_accepts_a_name_resolving_to_a_private_address() -> None:
    assert outcome("https://rebind.github.com/", PRIVATE_OK, DNS) == allowed("*")


def test_a_resolved_address_in_a_deny_cidr_is_denied() -> None:
    assert outcome("https://blocked.github.com/", resolver=DNS) == deny("network.deny_hosts", "8.8.4.0/24")


def test_resolution_failure_leaves_the_decision_unchanged() -> None:
    assert outcome("https://nowhere.github.com/", resolver=DNS) == allowed("*.github.com")
    assert outcome("https://nowhere.example/", resolver=DNS) == unlisted("nowhere.example")


def test_no_resolver_means_no_resolution() -> None:
    assert outcome("https://rebind.github.com/") == allowed("*.github.com")


class CountingResolver:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def resolve(self, host: str) -> Sequence[ipaddress.IPv4Address | ipaddress.IPv6Address]:
        self.calls.append(host)
        return [ipaddress.IPv4Address("10.0.0.1")]


def test_literals_and_already_denied_names_are_never_resolved() -> None:
    counting = CountingResolver()
    for text in ("http://8.8.8.8/", "http://10.0.0.1/", "https://evil.example/", "ftp://x.com"):
        decide_target(text, RULES, counting)
    assert counting.calls == []
    assert outcome("https://pypi.org/", resolver=counting) == private("10.0.0.1")
    assert counting.calls == ["pypi.org"]


class BrokenResolver:
    def resolve(self, host: str) -> Sequence[ipaddress.IPv4Address | ipaddress.IPv6Address]:
        raise RuntimeError("boom")


def test_a_resolver_that_crashes_denies_instead_of_allowing() -> None:
    assert outcome("https://pypi.org/", resolver=BrokenResolver()) == deny(
        "network.resolve", "pypi.org", "built-in"
    )


def test_static_resolver_normalises_keys_and_refuses_unknown_names() -> None:
    resolver = StaticResolver({"PyPI.org.": ["151.101.0.223"]})
    assert list(resolver.resolve("pypi.org")) == [ipaddress.IPv4Address("151.101.0.223")]
    with pytest.raises(OSError, match="cannot resolve"):
        resolver.resolve("other.org")


def test_system_resolver_resolves_localhost_without_network() -> None:
    addresses = SystemResolver().resolve("localhost")
    assert addresses and all(a.is_loopback for a in addresses)


def test_system_resolver_turns_a_bad_name_into_os_error() -> None:
    with pytest.raises(OSError):
        SystemResolver().resolve("a" * 300 + ".invalid")


# --- Unparseable targets and schemes ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ("", "empty network target"),
        ("   ", "control or space character ' '"),
        ("http://exa\x00mple.com/", "control or space character '\\x00'"),
        ("http://", "empty host"),
        ("http://[::1", "unclosed '['"),
        ("http://example.com:99999/", "port 99999 is out of range 1-65535"),
        ("http://pypi.org\\@evil/", "backslash at position 15"),
        ("http://1.2.3.4.5/", "ends in a number but is not an IPv4 address"),
    ],
)
def test_unparseable_targets_are_denied_with_the_parse_error(text: str, detail: str) -> None:
    decision, reasons, target = decide_target(text, RULES, None)
    assert (decision, target, len(reasons)) == (Decision.DENY, None, 1)
    reason = reasons[0]
    assert (reason.rule, reason.source, reason.matched) == ("network.parse", "built-in", text)
    assert reason.message.startswith(f"cannot parse network target {text!r}: ")
    assert detail in reason.message


@pytest.mark.parametrize(
    ("text", "scheme"),
    [
        ("file:///etc/passwd", "file"),
        ("gopher://127.0.0.1:6379/_", "gopher"),
        ("ftp://pypi.org/", "ftp"),
        ("javascript:alert(1)", "javascript"),
        ("data:text/html,hi", "data"),
        ("FTP://pypi.org/", "ftp"),
    ],
)
def test_disallowed_schemes_are_denied(text: str, scheme: str) -> None:
    decision, reasons, target = decide_target(text, RULES, None)
    assert (decision, target) == (Decision.DENY, None)
    assert reasons == (
        Reason(
            Decision.DENY,
            "network.scheme",
            SOURCE,
            scheme,
            f"scheme {scheme!r} is not allowed (allowed: http, https)",
        ),
    )


def test_allowed_schemes_come_from_the_rules() -> None:
    rules = NetworkRules(allow_hosts=("pypi.org",), allowed_schemes=frozenset({"FTP"}))
    assert decide_target("ftp://pypi.org/", rules, None)[0] is Decision.ALLOW
    assert decide_target("https://pypi.org/", rules, None)[0] is Decision.DENY


def test_a_repeated_decision_returns_the_same_answer() -> None:
    first = decide_target("http://0x7f.1/", RULES, None)
    assert decide_target("http://0x7f.1/", RULES, None) == first


# --- Host patterns (loader validation) -------------------------------------------------


@pytest.mark.parametrize(
    "pattern",
    [
        "pypi.org",
        "*.github.com",
        "*",
        "Bücher.de",
        "pypi.org.",
        "10.0.0.0/8",
        "127.0.0.1",
        "::1",
        "[::1]",
        "fd00::/8",
    ],
)
def test_valid_host_patterns_have_no_error(pattern: str) -> None:
    assert host_pattern_error(pattern) is None


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("", "empty or contains spaces"),
        (" pypi.org", "empty or contains spaces"),
        ("py pi.org", "empty or contains spaces"),
        ("https://pypi.org", "is a URL: write only the host"),
        ("//pypi.org", "is a URL"),
        ("pypi.org:443", "has a port"),
        ("[::1]:443", "has a port"),
        ("*.*.x.com", "'*' is only allowed as a leading '*.' label"),
        ("a*.x.com", "'*' is only allowed as a leading '*.' label"),
        ("x.*", "'*' is only allowed as a leading '*.' label"),
        ("*.10.0.0.1", "wildcards apply to names"),
        ("10.0.0.1/8", "not a valid CIDR network"),
        ("10.0.0.0/33", "not a valid CIDR network"),
        ("pypi.org/simple", "not a valid CIDR network"),
        ("exa_mple..com", "not a valid host name"),
        ("1.2.3.4.5", "not an IPv4 address"),
    ],
)
def test_invalid_host_patterns_explain_what_is_wrong(pattern: str, message: str) -> None:
    error = host_pattern_error(pattern)
    assert error is not None and message in error


def test_rules_refuse_an_invalid_pattern_at_construction() -> None:
    with pytest.raises(ValueError, match="has a port"):
        NetworkRules(allow_hosts=("pypi.org:443",))


def test_rules_accept_lists_and_freeze_them() -> None:
    rules = NetworkRules(allow_hosts=["pypi.org"])  # type: ignore[arg-type]
    assert rules.allow_hosts == ("pypi.org",)
    assert rules == NetworkRules(allow_hosts=("pypi.org",))


def test_host_matches_applies_one_pattern_like_the_lists_do() -> None:
    target = parse_target("https://API.GitHub.com./x")
    assert host_matches("*.github.com", target)
    assert not host_matches("github.com", target)
    assert host_matches("10.0.0.0/8", parse_target("http://012.1/"))
