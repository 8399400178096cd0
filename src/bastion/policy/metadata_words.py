"""A cloud metadata endpoint named anywhere in a command's arguments.

The network policy denies the metadata service when it is a command's destination (a URL
host, ``/dev/tcp/…``, ``--resolve``). A program the tables do not model reaches it through an
argument of its own shape: ``pip download --index-url http://169.254.169.254/``, ``aws s3 ls
--endpoint-url …``, ``ssh -o ProxyCommand='nc 169.254.169.254 80'``. A command that is not a
pure reader and names a metadata address or name in any word is denied as if it connected
(a pure reader only prints or searches text: ``grep 169.254.169.254 access.log``).
"""

from __future__ import annotations

import ipaddress
import re

from bastion.policy.urls import METADATA_ADDRESSES, is_metadata_host
from bastion.policy.wildcard_dns import embedded_address

_V4 = frozenset(int(a) for a in METADATA_ADDRESSES if a.version == 4)
_V6 = frozenset(int(a) for a in METADATA_ADDRESSES if a.version == 6)
#: Dotted quads, IPv6 with "::" or many groups, whole 32-bit integers (decimal or hex), names.
_TOKEN = re.compile(
    r"(?<![\w.])(?:\d{1,3}(?:\.\d{1,3}){3}|0[xX][0-9a-fA-F]{1,8}|\d{9,10}"
    r"|[0-9a-fA-F]{0,4}(?::[0-9a-fA-F]{0,4}){2,7}|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)(?![\w])"
)


def metadata_word(argv: tuple[str, ...]) -> str | None:
    """The first metadata address or name spelled in ``argv``'s arguments, if any."""
    for word in argv[1:]:
        if not any(c.isdigit() for c in word) and "metadata" not in word and "instance-data" not in word:
            continue  # the common case: no address, no metadata name
        for found in _TOKEN.finditer(word):
            if _is_metadata(found.group(0)):
                return found.group(0)
    return None


def _is_metadata(token: str) -> bool:
    try:
        if token.isdigit() or token[:2].lower() == "0x":
            return int(token, 0) in _V4
        address = ipaddress.ip_address(token.strip("[]"))
    except ValueError:
        spelled = embedded_address(token)  # 169.254.169.254.nip.io
        if spelled is not None:
            return int(spelled) in (_V4 if spelled.version == 4 else _V6)
        return is_metadata_host(token.lower().rstrip("."))
    return int(address) in (_V4 if address.version == 4 else _V6)
