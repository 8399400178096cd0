"""Host names that are an address: public wildcard-DNS services answer a name that spells an
IP with that IP (``169.254.169.254.nip.io`` is the metadata service, ``app-10-0-0-1.sslip.io``
is ``10.0.0.1``), and a few names are loopback by definition (``localtest.me``, ``lvh.me``).
The network policy judges such a name as the address it spells, offline, before any lookup:
a resolver that is down, or a proxy that resolves elsewhere, cannot turn it into a public host.

The spellings each service documents: dotted (``1.2.3.4.nip.io``, with any labels before),
dashed (``app-1-2-3-4.nip.io``), eight hex digits (``0a000001.nip.io``), and sslip.io's
IPv6 with ``-`` for ``:`` (``--1.sslip.io`` is ``::1``).
"""

from __future__ import annotations

import ipaddress
import re

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

#: Services that answer ``<address>.<domain>`` with the address (and ``<name>-<address>``).
WILDCARD_DOMAINS: tuple[str, ...] = (
    "nip.io",
    "sslip.io",
    "xip.io",
    "traefik.me",
)

#: Names whose every subdomain is 127.0.0.1 (documented by the services that run them).
LOOPBACK_DOMAINS: tuple[str, ...] = (
    "localtest.me",
    "lvh.me",
    "vcap.me",
    "lacolhost.com",
)

_DASHED_V4 = re.compile(r"(?:^|-)(\d{1,3})-(\d{1,3})-(\d{1,3})-(\d{1,3})$")
_HEX_V4 = re.compile(r"^(?:.*-)?([0-9a-f]{8})$")
_LOOPBACK = ipaddress.ip_address("127.0.0.1")


def _below(host: str, domains: tuple[str, ...]) -> str | None:
    """The labels of ``host`` before one of ``domains`` ('' for the domain itself), or None."""
    for domain in domains:
        if host == domain:
            return ""
        if host.endswith("." + domain):
            return host[: -len(domain) - 1]
    return None


def embedded_address(host: str) -> IPAddress | None:
    """The address a wildcard-DNS name answers with, read from the name itself; None when
    ``host`` is no such name (or spells no address the service would answer)."""
    host = host.lower().rstrip(".")
    if _below(host, LOOPBACK_DOMAINS) is not None:
        return _LOOPBACK
    labels = _below(host, WILDCARD_DOMAINS)
    if not labels:
        return None
    parts = labels.split(".")
    if len(parts) >= 4:
        try:
            return ipaddress.ip_address(".".join(parts[-4:]))
        except ValueError:
            pass
    last = parts[-1]
    dashed = _DASHED_V4.search(last)
    if dashed is not None:
        try:
            return ipaddress.ip_address(".".join(dashed.groups()))
        except ValueError:
            return None
    hexed = _HEX_V4.match(last)
    if hexed is not None:
        return ipaddress.IPv4Address(int(hexed.group(1), 16))
    if "--" in last or last.count("-") >= 2:
        try:
            return ipaddress.ip_address(last.replace("-", ":"))
        except ValueError:
            return None
    return None
