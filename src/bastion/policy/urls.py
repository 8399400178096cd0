"""Strict parsing of network targets (URLs, bare hosts, scp-like git remotes).

The gate must read a target exactly as the most permissive client would, or refuse it:
a parser that disagrees with the fetcher is how SSRF filters get bypassed. So hosts are
normalised the way browsers (WHATWG URL) and ``inet_aton`` do it - IDNA/UTS46 mapping,
``0x7f.1``-style IPv4 numbers, IPv4-mapped IPv6 unwrapped - and every construct on which
parsers are known to disagree (backslashes, several ``@``, percent-encoded hosts,
``http:host`` without slashes) is rejected rather than guessed.

The second half classifies destinations (metadata, loopback, private, …), including an
IPv4 carried inside IPv6 (NAT64, 6to4, Teredo, IPv4-compatible), since that is where
the packets end up. ``bastion.policy.network`` re-exports the public names.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import unicodedata
from dataclasses import dataclass

import idna

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

DEFAULT_SCHEMES: frozenset[str] = frozenset({"http", "https"})
MAX_TARGET_LENGTH = 8192

# Schemes that must never be read as "host:port" or "host:path" even without "//".
_KNOWN_SCHEMES = frozenset(
    {"http", "https", "ws", "wss", "ftp", "ftps", "sftp", "file", "gopher", "javascript"}
    | {"data", "mailto", "about", "blob", "vbscript", "ssh", "git", "tel", "ldap", "ldaps"}
    | {"dict", "smb", "telnet", "jar", "view-source"}
)
_SCHEME_RE = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
# C0/C1 controls, ASCII whitespace and the backslash (WHATWG reads it as "/", urllib does not).
_BAD_ASCII_RE = re.compile(r"[\x00-\x20\x7f-\x9f\\]")
_BAD_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zs", "Zl", "Zp"})
_PORT_RE = re.compile(r"[0-9]{1,5}")
_BARE_IPV6_RE = re.compile(r"[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(%[A-Za-z0-9._~\-]+)?")
_ZONE_RE = re.compile(r"[A-Za-z0-9._~\-]+")
_LABEL_RE = re.compile(r"[a-z0-9_\-]{1,63}")
# WHATWG "ends in a number": such a host must parse as IPv4 or it is invalid.
_NUMERIC_LABEL_RE = re.compile(r"[0-9]+|0x[0-9a-f]*")
_OCTAL_RE = re.compile(r"0[0-7]+")
_DECIMAL_RE = re.compile(r"[0-9]+")
_HEX_RE = re.compile(r"[0-9a-f]*")
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_DOTTED_QUAD_RE = re.compile(rf"{_OCTET}(?:\.{_OCTET}){{3}}")  # already canonical


class UrlError(ValueError):
    """A target that cannot be parsed safely; the message says why."""


class SchemeError(UrlError):
    """A syntactically fine target whose scheme is not allowed."""

    def __init__(self, scheme: str, allowed: frozenset[str]) -> None:
        names = ", ".join(sorted(allowed)) or "none"
        super().__init__(f"scheme {scheme!r} is not allowed (allowed: {names})")
        self.scheme = scheme


@dataclass(frozen=True, slots=True)
class Target:
    """A parsed destination. ``host`` is normalised; ``address`` is set for IP literals."""

    scheme: str | None
    host: str
    port: int | None
    address: IPAddress | None
    original: str
    #: True when the text carried ``user[:password]@`` (dropped from ``host``).
    has_userinfo: bool = False


def parse_target(text: str, *, allowed_schemes: frozenset[str] = DEFAULT_SCHEMES) -> Target:
    """Parse a URL, ``host[:port]``, ``[v6]:port`` or ``user@host:path``; raise UrlError."""
    if not isinstance(text, str):
        raise UrlError(f"a network target must be text, not {type(text).__name__}")
    if not text:
        raise UrlError("empty network target")
    if len(text) > MAX_TARGET_LENGTH:
        raise UrlError(f"network target longer than {MAX_TARGET_LENGTH} characters")
    _check_characters(text)

    if _BARE_IPV6_RE.fullmatch(text):  # "::1", "fe80::1%eth0": no port possible
        host, address = _bracketed_host(text)
        return Target(None, host, None, address, text)

    scheme: str | None = None
    rest = text
    match = _SCHEME_RE.match(text)
    if match:
        name = match.group(1).lower()
        after = text[match.end() :]
        if after.startswith("//"):
            scheme, rest = name, after[2:]
        elif name in allowed_schemes or name in _KNOWN_SCHEMES:
            if name not in allowed_schemes:
                raise SchemeError(name, allowed_schemes)
            # "http:evil.com" and "http:/evil.com" are http://evil.com to a browser only.
            raise UrlError(f"'{name}:' must be followed by '//' and a host")
        elif not _PORT_RE.match(after) and "." not in name:
            raise SchemeError(name, allowed_schemes)  # javascript:, data:, mailto:, …
    elif text.startswith("//"):
        raise UrlError("a target starting with '//' needs a scheme")
    if scheme is not None and scheme not in allowed_schemes:
        raise SchemeError(scheme, allowed_schemes)
    return _parse_authority(text, scheme, rest)


def _parse_authority(text: str, scheme: str | None, rest: str) -> Target:
    end = len(rest)
    for stop in "/?#":
        found = rest.find(stop)
        if found != -1 and found < end:
            end = found
    authority = rest[:end]
    userinfo = None
    if "@" in authority:
        userinfo, _, authority = authority.rpartition("@")
        if "@" in userinfo:
            raise UrlError("more than one '@' before the host")
        if scheme is None and ":" in userinfo:
            # git reads "a.com:x@b.com" as host a.com, a URL parser as host b.com.
            raise UrlError("ambiguous target: '@' after ':' and no scheme")
    address: IPAddress | None
    if authority.startswith("["):
        close = authority.find("]")
        if close == -1:
            raise UrlError("unclosed '[' in the host")
        host, address = _bracketed_host(authority[1:close])
        tail = authority[close + 1 :]
        if tail and not tail.startswith(":"):
            raise UrlError(f"unexpected {tail[:20]!r} after ']'")
    elif authority.count(":") > 1:
        raise UrlError("an IPv6 address must be in brackets, e.g. [::1]")
    else:
        raw, sep, tail = authority.partition(":")
        tail = sep + tail
        host, address = _normalise_host(raw)
    port = None
    if tail:
        digits = tail[1:]
        if _DECIMAL_RE.fullmatch(digits):
            if len(digits) > 5 or not 0 < int(digits) < 65536:
                raise UrlError(f"port {digits[:20]} is out of range 1-65535")
            port = int(digits)
        elif scheme is not None or not digits:
            raise UrlError(f"bad port {digits[:20]!r}")
        # else: scp-like "host:org/repo.git" - the rest is a path, there is no port
    return Target(scheme, host, port, address, text, userinfo is not None)


def _check_characters(text: str) -> None:
    bad = _BAD_ASCII_RE.search(text)
    if bad:
        what = "backslash" if bad.group() == "\\" else f"control or space character {bad.group()!r}"
        raise UrlError(f"{what} at position {bad.start()} is not allowed in a network target")
    if not text.isascii():
        for position, char in enumerate(text):
            if unicodedata.category(char) in _BAD_CATEGORIES:
                raise UrlError(
                    f"invisible, control or space character U+{ord(char):04X} "
                    f"at position {position} is not allowed in a network target"
                )


def _bracketed_host(inner: str) -> tuple[str, IPAddress]:
    """An IPv6 literal (zone id allowed, dropped) → canonical text and address."""
    if inner[:1] in ("v", "V"):
        raise UrlError("IPvFuture addresses are not supported")
    literal, percent, zone = inner.partition("%")
    if percent:
        zone = zone[2:] if zone.startswith("25") else zone  # RFC 6874 writes "%" as "%25"
        if not _ZONE_RE.fullmatch(zone):
            raise UrlError(f"bad IPv6 zone id {zone[:20]!r}")
    try:
        v6 = ipaddress.IPv6Address(literal)
    except ValueError:
        raise UrlError(f"{inner[:60]!r} is not a valid IPv6 address") from None
    # ::ffff:a.b.c.d is a.b.c.d on a dual-stack socket: decide on the IPv4 address.
    address: IPAddress = v6 if v6.ipv4_mapped is None else v6.ipv4_mapped
    return str(address), address


def normalise_host(raw: str) -> tuple[str, IPAddress | None]:
    """Normalise a bare host (no port, no brackets) for matching; raise UrlError."""
    if raw.startswith("[") and raw.endswith("]"):
        return _bracketed_host(raw[1:-1])
    if ":" in raw and _BARE_IPV6_RE.fullmatch(raw):
        return _bracketed_host(raw)
    return _normalise_host(raw)


def _normalise_host(raw: str) -> tuple[str, IPAddress | None]:
    if not raw:
        raise UrlError("empty host")
    if "%" in raw:
        raise UrlError("percent-encoding is not allowed in a host")  # browsers decode it
    if not raw.isascii():
        try:
            raw = idna.encode(raw, uts46=True, transitional=False).decode("ascii")
        except (UnicodeError, ValueError) as error:  # idna.IDNAError is a UnicodeError
            raise UrlError(f"{raw[:60]!r} is not a valid international name: {error}") from None
    host = raw.lower()
    if host.endswith("."):
        host = host[:-1]
    if not host or len(host) > 253:
        raise UrlError(f"host {raw[:60]!r} has an invalid length")
    if _DOTTED_QUAD_RE.fullmatch(host):  # fast path for the common, canonical spelling
        return host, ipaddress.IPv4Address(socket.inet_aton(host))
    labels = host.split(".")
    if _NUMERIC_LABEL_RE.fullmatch(labels[-1]):
        v4 = _parse_ipv4(labels)
        return str(v4), v4
    for label in labels:
        if not _LABEL_RE.fullmatch(label):
            raise UrlError(f"{raw[:60]!r} is not a valid host name")
        if label.startswith("xn--"):
            try:
                idna.decode(label)
            except (UnicodeError, ValueError):
                raise UrlError(f"{label!r} is not a valid IDNA label") from None
    return host, None


def _parse_ipv4(parts: list[str]) -> ipaddress.IPv4Address:
    """IPv4 numbers exactly as WHATWG / inet_aton read them: 127.1, 0x7f.1, 0177.0.0.1."""
    text = ".".join(parts)
    if len(parts) > 4:
        raise UrlError(f"{text!r} ends in a number but is not an IPv4 address")
    numbers = []
    for part in parts:
        if part.startswith("0x"):
            ok, base, digits = bool(_HEX_RE.fullmatch(part[2:])), 16, part[2:] or "0"
        elif len(part) > 1 and part.startswith("0"):
            ok, base, digits = bool(_OCTAL_RE.fullmatch(part)), 8, part
        else:
            ok, base, digits = bool(_DECIMAL_RE.fullmatch(part)), 10, part
        if not ok:
            raise UrlError(f"{text!r} ends in a number but is not an IPv4 address")
        numbers.append(int(digits, base))
    *head, last = numbers
    if any(n > 255 for n in head) or last >= 256 ** (5 - len(numbers)):
        raise UrlError(f"{text!r} is an out-of-range IPv4 address")
    value = last
    for index, number in enumerate(head):
        value += number << (8 * (3 - index))
    return ipaddress.IPv4Address(value)


# --- What kind of destination an address or name is ---------------------------------

#: Names of cloud instance-metadata services (compared after normalisation).
METADATA_HOSTS: frozenset[str] = frozenset(
    {
        "metadata.google.internal",  # GCP
        "metadata.goog",  # GCP
        "metadata",  # GCP short name via search domain
        "instance-data",  # AWS
        "instance-data.ec2.internal",  # AWS us-east-1; other regions: instance-data.*.internal
        "metadata.tencentyun.com",  # Tencent Cloud
        "metadata.platformequinix.com",  # Equinix Metal
        "metadata.packet.net",  # Equinix Metal (legacy)
    }
)
#: Metadata endpoints by address; checked before any class, so allow_private never opens them.
METADATA_ADDRESSES: frozenset[IPAddress] = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254",  # AWS, GCP, Azure, OpenStack, Oracle, DigitalOcean, …
        "169.254.170.2",  # AWS ECS task metadata / credentials
        "169.254.170.23",  # AWS EKS pod identity agent
        "169.254.0.23",  # Tencent Cloud
        "100.100.100.200",  # Alibaba Cloud
        "192.0.0.192",  # Oracle Cloud
        "168.63.129.16",  # Azure WireServer (hands out host/extension configuration)
        "fd00:ec2::254",  # AWS IMDS over IPv6
        "fd00:ec2::23",  # AWS EKS pod identity over IPv6
        "fd20:ce::254",  # GCP metadata over IPv6
    )
)
# RFC 6761: these names are loopback whatever DNS says.
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})


def _table(version: int, rows: tuple[tuple[str, str], ...]) -> tuple[tuple[int, int, str], ...]:
    """(network as int, netmask as int, class) rows for fast integer matching."""
    nets = [(ipaddress.ip_network(n), c) for n, c in rows]
    assert all(n.version == version for n, _ in nets)
    return tuple((int(n.network_address), int(n.netmask), c) for n, c in nets)


_V4_CLASSES = _table(
    4,
    (
        ("0.0.0.0/8", "unspecified"),  # 0.0.0.0 reaches localhost on Linux
        ("127.0.0.0/8", "loopback"),
        ("10.0.0.0/8", "private"),
        ("172.16.0.0/12", "private"),
        ("192.168.0.0/16", "private"),
        ("169.254.0.0/16", "link-local"),
        ("100.64.0.0/10", "cgnat"),
        ("224.0.0.0/4", "multicast"),
        ("255.255.255.255/32", "broadcast"),
        ("240.0.0.0/4", "reserved"),
        ("192.0.0.0/24", "reserved"),  # IETF protocol assignments
        ("192.0.2.0/24", "reserved"),  # documentation
        ("198.51.100.0/24", "reserved"),
        ("203.0.113.0/24", "reserved"),
        ("198.18.0.0/15", "reserved"),  # benchmarking
    ),
)
_V6_CLASSES = _table(
    6,
    (
        ("::/128", "unspecified"),
        ("::1/128", "loopback"),
        ("fe80::/10", "link-local"),
        ("fec0::/10", "private"),  # deprecated site-local
        ("fc00::/7", "unique-local"),
        ("ff00::/8", "multicast"),
        ("100::/64", "reserved"),  # discard
        ("2001:db8::/32", "reserved"),  # documentation
        ("3fff::/20", "reserved"),  # documentation
    ),
)
# IPv6 ranges whose low 32 bits carry an IPv4 address that is where the packets end up.
_EMBEDS_V4 = _table(
    6,
    (
        ("::/96", "ipv4-compatible"),  # deprecated
        ("64:ff9b::/96", "nat64"),  # well-known prefix
        ("64:ff9b:1::/48", "nat64"),  # local-use
    ),
)
_METADATA_V4 = frozenset(int(a) for a in METADATA_ADDRESSES if a.version == 4)
_METADATA_V6 = frozenset(int(a) for a in METADATA_ADDRESSES if a.version == 6)


def address_class(addr: IPAddress) -> str | None:
    """Class of a non-public address ("loopback", "metadata", …) or None when public."""
    found = classify(addr)
    return None if found is None else found[0]


def classify(addr: IPAddress) -> tuple[str, IPAddress] | None:
    """(class, the address that has it) - an IPv4 embedded in IPv6 (NAT64, 6to4, …) counts."""
    value = int(addr)  # integer compares: ipaddress objects hash and compare slowly
    if addr.version == 4:
        if value in _METADATA_V4:
            return "metadata", addr
        for network, mask, cls in _V4_CLASSES:
            if value & mask == network:
                return cls, addr
        return None
    assert isinstance(addr, ipaddress.IPv6Address)
    if addr.scope_id is not None:
        addr = ipaddress.IPv6Address(value)
    if value in _METADATA_V6:
        return "metadata", addr
    if addr.ipv4_mapped is not None:
        return classify(addr.ipv4_mapped)
    for network, mask, cls in _V6_CLASSES:
        if value & mask == network:
            return cls, addr
    embedded: list[ipaddress.IPv4Address] = []
    if any(value & mask == network for network, mask, _ in _EMBEDS_V4):
        embedded.append(ipaddress.IPv4Address(value & 0xFFFFFFFF))
    if addr.sixtofour is not None:
        embedded.append(addr.sixtofour)
    if addr.teredo is not None:
        embedded += addr.teredo
    for inner in embedded:
        found = classify(inner)
        if found is not None:
            return found
    return None


def _embeds_v4(addr: ipaddress.IPv6Address) -> bool:
    return any(addr in network for network in _EMBEDS_V4)


def is_metadata_host(host: str) -> bool:
    """A normalised host name that names a metadata service (AWS: instance-data.*.internal)."""
    return host in METADATA_HOSTS or (host.startswith("instance-data.") and host.endswith(".internal"))
