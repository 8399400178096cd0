"""The network policy: is this fetch target allowed, denied, or left to the mode?

Order (fixed): unparseable or bad scheme → DENY; cloud metadata name/address → DENY
(hardline, nothing overrides); ``deny_hosts`` → DENY; literal address in a blocked class
without ``allow_private`` → DENY; ``allow_hosts`` → ALLOW; otherwise no opinion (None).
A host *name* that would be allowed or left open is resolved (when a resolver is given)
and denied if any address it resolves to is metadata, denied or blocked. Resolution
failure is not a reason to deny: the connection cannot be made either, and the fetch tool
re-checks the address it actually connects to (DNS can change between check and use).
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bastion.policy.decision import Decision, Reason
from bastion.policy.urls import (
    DEFAULT_SCHEMES,
    LOOPBACK_NAMES,
    METADATA_ADDRESSES,
    METADATA_HOSTS,
    IPAddress,
    SchemeError,
    Target,
    UrlError,
    address_class,
    classify,
    is_metadata_host,
    normalise_host,
    parse_target,
)
from bastion.policy.wildcard_dns import embedded_address

__all__ = [
    "METADATA_ADDRESSES",
    "METADATA_HOSTS",
    "NetworkRules",
    "Resolver",
    "StaticResolver",
    "SystemResolver",
    "Target",
    "UrlError",
    "address_class",
    "decide_target",
    "host_matches",
    "host_pattern_error",
    "parse_target",
]

BUILT_IN = "built-in"
Result = tuple[Decision | None, tuple[Reason, ...], Target | None]

_CLASS_TEXT = {
    "loopback": "a loopback address",
    "private": "a private-network address",
    "link-local": "a link-local address",
    "cgnat": "a carrier-grade NAT (100.64.0.0/10) address",
    "unique-local": "a unique-local IPv6 address",
    "multicast": "a multicast address",
    "unspecified": "an unspecified (0.0.0.0 / ::) address",
    "reserved": "a reserved address",
    "broadcast": "the broadcast address",
    "metadata": "a cloud metadata endpoint",
}
_PRIVATE_HINT = "private destinations need [network] allow_private = true"


class Resolver(Protocol):
    def resolve(self, host: str) -> Sequence[IPAddress]:
        """Addresses for a normalised host name; raise OSError when it cannot resolve."""
        ...


def _unwrap(addr: IPAddress) -> IPAddress:
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        return addr.ipv4_mapped
    return addr


class SystemResolver:
    """The operating system's resolver (``getaddrinfo``), with a short per-instance cache:
    a decision only needs to know whether a name points somewhere blocked, and the fetch
    tool re-checks the address it actually connects to (DNS rebinding is caught there)."""

    def __init__(self, ttl: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._ttl = ttl
        self._clock = clock
        self._cache: dict[str, tuple[float, Sequence[IPAddress]]] = {}
        self._lock = threading.Lock()

    def resolve(self, host: str) -> Sequence[IPAddress]:
        now = self._clock()
        with self._lock:
            hit = self._cache.get(host)
        if hit is not None and now - hit[0] < self._ttl:
            return hit[1]
        found = self._lookup(host)
        with self._lock:
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[host] = (now, found)
        return found

    def _lookup(self, host: str) -> Sequence[IPAddress]:
        try:
            infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
        except (UnicodeError, ValueError) as error:
            raise OSError(f"cannot resolve {host!r}: {error}") from error
        found: dict[IPAddress, None] = {}
        for *_, sockaddr in infos:
            text = str(sockaddr[0]).partition("%")[0]  # drop an IPv6 zone id
            found[_unwrap(ipaddress.ip_address(text))] = None
        return tuple(found)


class StaticResolver:
    """A fixed host → addresses table for tests; an unknown host raises OSError."""

    def __init__(self, table: Mapping[str, Sequence[str]]) -> None:
        self._table = {
            normalise_host(host)[0]: tuple(_unwrap(ipaddress.ip_address(a)) for a in addresses)
            for host, addresses in table.items()
        }

    def resolve(self, host: str) -> Sequence[IPAddress]:
        try:
            return self._table[host]
        except KeyError:
            raise OSError(f"cannot resolve {host!r}") from None


@dataclass(frozen=True, slots=True)
class _Patterns:
    exact: dict[str, str]  # normalised host → pattern as written
    suffixes: tuple[tuple[str, str], ...]  # (".x.com", "*.x.com")
    networks: tuple[tuple[IPNetwork, str], ...]
    star: str | None  # "*" as written, when present

    def match(self, host: str, address: IPAddress | None) -> str | None:
        if self.star is not None:
            return self.star
        hit = self.exact.get(host)
        if hit is not None:
            return hit
        if address is not None:
            return self.match_network(address)  # host is str(address): exact already tried
        for suffix, pattern in self.suffixes:
            if host.endswith(suffix):
                return pattern
        return None

    def match_address(self, address: IPAddress) -> str | None:
        return self.match_network(address) or self.exact.get(str(address))

    def match_network(self, address: IPAddress) -> str | None:
        for network, pattern in self.networks:
            if address.version == network.version and address in network:
                return pattern
        return None


def host_pattern_error(pattern: str) -> str | None:
    """None when ``pattern`` is a valid allow_hosts/deny_hosts entry, else why not.

    Valid: "pypi.org", "*.github.com" (subdomains only, not the apex), "*" (every host
    and address - in deny_hosts it blocks all network), an IP ("10.1.2.3", "::1") or a
    CIDR network ("10.0.0.0/8", "fd00::/8"). No schemes, ports, paths or inner wildcards.
    """
    try:
        _compile_one(pattern)
    except (UrlError, ValueError, TypeError) as error:
        return str(error)
    return None


IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


def _compile_one(pattern: str) -> tuple[str, str | IPNetwork]:
    """("exact" | "suffix" | "network" | "star", normalised value); raises ValueError."""
    if not isinstance(pattern, str):
        raise TypeError(f"host pattern must be a string, not {type(pattern).__name__}")
    shown = repr(pattern[:80])
    if not pattern or pattern != pattern.strip() or any(c.isspace() for c in pattern):
        raise ValueError(f"host pattern {shown} is empty or contains spaces")
    if "://" in pattern or pattern.startswith("//"):
        raise ValueError(f"host pattern {shown} is a URL: write only the host, e.g. 'pypi.org'")
    if pattern == "*":
        return "star", pattern
    if "/" in pattern:
        try:
            return "network", ipaddress.ip_network(pattern.strip("[]"), strict=True)
        except ValueError as error:
            raise ValueError(f"host pattern {shown} is not a valid CIDR network: {error}") from None
    if pattern.startswith("*."):
        if "*" in pattern[2:]:
            raise ValueError(f"host pattern {shown}: '*' is only allowed as a leading '*.' label")
        host, address = normalise_host(pattern[2:])
        if address is not None:
            raise ValueError(f"host pattern {shown}: wildcards apply to names, not addresses")
        return "suffix", "." + host
    if "*" in pattern:
        raise ValueError(f"host pattern {shown}: '*' is only allowed as a leading '*.' label")
    if pattern.count(":") == 1 or (pattern.startswith("[") and "]:" in pattern):
        raise ValueError(f"host pattern {shown} has a port: ports are not supported")
    host, address = normalise_host(pattern)
    return "exact", host if address is None else str(address)


def host_matches(pattern: str, target: Target) -> bool:
    """Does one valid allow/deny-style pattern match a parsed target? (for ``[[rule]]``s)"""
    return _compile((pattern,)).match(target.host, target.address) is not None


def _compile(patterns: tuple[str, ...]) -> _Patterns:
    exact: dict[str, str] = {}
    suffixes: list[tuple[str, str]] = []
    networks: list[tuple[IPNetwork, str]] = []
    star = None
    for pattern in patterns:
        kind, value = _compile_one(pattern)
        if kind == "star":
            star = pattern
        elif kind == "suffix":
            suffixes.append((str(value), pattern))
        elif kind == "network":
            assert not isinstance(value, str)
            networks.append((value, pattern))
        else:
            exact.setdefault(str(value), pattern)
    return _Patterns(exact, tuple(suffixes), tuple(networks), star)


_MEMO_LIMIT = 4096


@dataclass(frozen=True, slots=True)
class NetworkRules:
    """The compiled ``[network]`` section. Invalid patterns raise ValueError here."""

    allow_hosts: tuple[str, ...] = ()
    deny_hosts: tuple[str, ...] = ()
    allow_private: bool = False
    allowed_schemes: frozenset[str] = DEFAULT_SCHEMES
    source: str = BUILT_IN
    _allow: _Patterns = field(init=False, repr=False, compare=False)
    _deny: _Patterns = field(init=False, repr=False, compare=False)
    # text → (static result, needs resolution); rules are immutable, so this is pure.
    _memo: dict[str, tuple[Result, bool]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "allow_hosts", tuple(self.allow_hosts))
        set_(self, "deny_hosts", tuple(self.deny_hosts))
        set_(self, "allowed_schemes", frozenset(s.lower() for s in self.allowed_schemes))
        set_(self, "_allow", _compile(self.allow_hosts))
        set_(self, "_deny", _compile(self.deny_hosts))
        set_(self, "_memo", {})


def decide_target(target_text: str, rules: NetworkRules, resolver: Resolver | None) -> Result:
    """(decision or None for "no opinion", reasons, parsed target or None if unparseable).

    ``resolver=None`` means do not resolve: only literal addresses are checked by class.
    """
    memo = rules._memo
    cached = memo.get(target_text) if isinstance(target_text, str) else None
    if cached is None:
        cached = _decide_static(target_text, rules)
        if isinstance(target_text, str):
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            memo[target_text] = cached
    result, needs_resolution = cached
    if needs_resolution and resolver is not None and result[2] is not None:
        return _check_resolved(result, result[2], rules, resolver)
    return result


def _kind(address: IPAddress | None, found: tuple[str, IPAddress | None] | None) -> tuple[str | None, str]:
    """(class, "a loopback address") - naming the embedded IPv4 when that decided."""
    if found is None:
        return None, "a public address"
    cls, via = found
    if via is not None and via != address:
        return cls, f"{_CLASS_TEXT[cls]} (it embeds {via})"
    return cls, _CLASS_TEXT[cls]


def _deny(rule: str, source: str, matched: str, message: str, target: Target | None) -> Result:
    return Decision.DENY, (Reason(Decision.DENY, rule, source, matched, message),), target


def _decide_static(text: str, rules: NetworkRules) -> tuple[Result, bool]:
    try:
        target = parse_target(text, allowed_schemes=rules.allowed_schemes)
    except SchemeError as error:
        return _deny("network.scheme", rules.source, error.scheme, str(error), None), False
    except UrlError as error:
        shown = repr(text[:200]) if isinstance(text, str) else type(text).__name__
        message = f"cannot parse network target {shown}: {error}"
        return _deny("network.parse", BUILT_IN, str(text)[:200], message, None), False
    host, address = target.host, target.address
    named = address is None  # a name: looked up too (when a resolver is given)
    note = " (credentials in the URL are ignored)" if target.has_userinfo else ""
    found: tuple[str, IPAddress | None] | None = None
    if address is None and (spelled := embedded_address(host)) is not None:
        address = spelled  # 169.254.169.254.nip.io is that address, offline too
    if address is not None:
        found = classify(address)
    elif host in LOOPBACK_NAMES or host.endswith(".localhost"):
        found = ("loopback", None)  # RFC 6761: whatever DNS says
    cls, kind = _kind(address, found)
    if cls == "metadata" or is_metadata_host(host):
        kind = kind if cls == "metadata" else _CLASS_TEXT["metadata"]
        message = f"{host} is {kind}; it is never reachable by tool calls"
        return _deny("hardline.metadata", BUILT_IN, host, message, target), False
    pattern = rules._deny.match(host, address)
    if pattern is not None:
        message = f"{host} matches [network] deny_hosts entry {pattern!r}{note}"
        return _deny("network.deny_hosts", rules.source, pattern, message, target), False
    if cls is not None and not rules.allow_private:
        message = f"{host} is {kind}; {_PRIVATE_HINT}"
        return _deny("network.private", rules.source, host, message, target), False
    pattern = rules._allow.match(host, address)
    if pattern is not None:
        message = f"{host} matches [network] allow_hosts entry {pattern!r}{note}"
        allowed = Reason(Decision.ALLOW, "network.allow_hosts", rules.source, pattern, message)
        return (Decision.ALLOW, (allowed,), target), named
    # No opinion: the mode decides. The ASK reason tells a person/agent what would allow it.
    message = f"{host} is not in [network] allow_hosts{note}"
    unlisted = Reason(Decision.ASK, "network.unlisted", rules.source, host, message)
    return (None, (unlisted,), target), named


def _check_resolved(result: Result, target: Target, rules: NetworkRules, resolver: Resolver) -> Result:
    """Deny a name resolving to a metadata, denied or (without allow_private) blocked address."""
    host = target.host
    try:
        addresses = resolver.resolve(host)
    except OSError:
        return result  # cannot connect either; the fetch tool re-checks at connect time
    except Exception as error:  # a broken resolver must not turn into an allow
        message = f"resolving {host} failed unexpectedly: {type(error).__name__}: {error}"
        return _deny("network.resolve", BUILT_IN, host, message, target)
    for raw in addresses:
        addr = _unwrap(raw)
        cls, kind = _kind(addr, classify(addr))
        if cls == "metadata":
            message = f"{host} resolves to {addr}, {kind}"
            return _deny("hardline.metadata", BUILT_IN, str(addr), message, target)
        pattern = rules._deny.match_address(addr)
        if pattern is not None:
            message = f"{host} resolves to {addr}, matching [network] deny_hosts {pattern!r}"
            return _deny("network.deny_hosts", rules.source, pattern, message, target)
        if cls is not None and not rules.allow_private:
            message = f"{host} resolves to {addr}, {kind}; {_PRIVATE_HINT}"
            return _deny("network.private", rules.source, str(addr), message, target)
    return result
