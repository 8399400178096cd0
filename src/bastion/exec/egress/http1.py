"""Just enough HTTP/1.1 for a proxy: read one request head strictly, write it back.

The proxy handles one request per client connection (it sends ``Connection: close``
upstream, so the server closes after its response and the client reconnects), and
copies bodies as bytes. Only the head is parsed, and strictly: a head the proxy cannot
read exactly as a server would is refused rather than guessed.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

from bastion.exec.egress.held import Header

#: The largest request head read (also the stream buffer size: flow control pauses at 2x).
MAX_HEAD = 262144
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_VERSION = re.compile(r"HTTP/1\.[01]")
#: Headers meant for the proxy (or one hop) that never go upstream.
HOP_HEADERS = frozenset({
    "connection", "proxy-connection", "keep-alive", "proxy-authorization", "proxy-authenticate",
    "te", "trailer", "upgrade",
})  # fmt: skip


class HeadError(ValueError):
    """A request head the proxy refuses (the message goes back in a 400)."""


@dataclass(frozen=True, slots=True)
class Head:
    method: str
    target: str
    version: str
    headers: tuple[Header, ...]

    def get(self, name: str) -> list[str]:
        return [v for k, v in self.headers if k.lower() == name]


async def read_head(reader: asyncio.StreamReader) -> Head | None:
    """The next request head; None at a clean end of stream."""
    try:
        raw = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as exc:
        if not exc.partial.strip():
            return None
        raise HeadError("the request head ended early") from None
    except asyncio.LimitOverrunError:
        raise HeadError(f"the request head is larger than {MAX_HEAD} bytes") from None
    return parse_head(raw)


def parse_head(raw: bytes) -> Head:
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        raise HeadError("the request head is not ASCII") from None
    lines = text[:-4].split("\r\n")
    if any("\n" in line or "\r" in line or "\x00" in line for line in lines):
        raise HeadError("bare CR or LF in the request head")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not _TOKEN.fullmatch(parts[0]) or not _VERSION.fullmatch(parts[2]):
        raise HeadError(f"bad request line {lines[0][:200]!r}")
    if not parts[1] or any(c.isspace() for c in parts[1]):
        raise HeadError("bad request target")
    headers = []
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon or not _TOKEN.fullmatch(name):  # also refuses obs-fold continuation lines
            raise HeadError(f"bad header line {line[:200]!r}")
        headers.append((name, value.strip(" \t")))
    return Head(parts[0], parts[1], parts[2], tuple(headers))


def encode_head(method: str, target: str, headers: list[Header]) -> bytes:
    lines = [f"{method} {target} HTTP/1.1", *(f"{k}: {v}" for k, v in headers), "", ""]
    return "\r\n".join(lines).encode("latin-1")


def upstream_headers(head: Head, authority: str) -> list[Header]:
    """The head's headers for the origin: hop-by-hop ones dropped, ``Host`` the decided
    authority, ``Connection: close`` so one request is one connection."""
    named = {v.strip().lower() for v in head.get("connection") for v in v.split(",")}
    kept = [
        (k, v)
        for k, v in head.headers
        if k.lower() not in HOP_HEADERS and k.lower() not in named and k.lower() != "host"
    ]
    return [("Host", authority), *kept, ("Connection", "close")]


def response(status: int, reason: str, body: str) -> bytes:
    data = body.encode("utf-8")
    head = (
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(data)}\r\nConnection: close\r\nX-Bastion-Egress: refused\r\n\r\n"
    )
    return head.encode("ascii") + data
