"""Echo masking: a held secret's value never comes back into the sandbox.

The proxy puts a held value into the request headers; an origin that echoes what it
received (a debugging endpoint, a token-introspection answer, an error page quoting the
header) would hand the value to the sandbox. Every response to a request that carried a
value is scanned for it, and for the forms a server is likely to echo (the Basic
credentials as sent, URL and JSON escaping), each replaced by as many ``*`` so lengths,
``Content-Length`` and chunk sizes stay right.

A body the proxy cannot scan is refused rather than passed: the request asks for
``Accept-Encoding: identity``, and a response that is compressed anyway is cut off.
What stays out of reach: an origin that splits a value across transfer chunks, or
re-encodes it some other way (this guards against echoes, not a hostile origin, which a
held secret's host is assumed not to be).
"""

from __future__ import annotations

import base64
import binascii
import json
import urllib.parse
from collections.abc import Iterable, Sequence

from bastion.exec.egress.held import Header, HeldSecret

_IDENTITY = frozenset({"", "identity"})


def echo_forms(held: Sequence[HeldSecret], sent: Sequence[Header]) -> tuple[bytes, ...]:
    """The byte strings to mask: each value, its escaped forms, and the payload of any
    ``Authorization: Basic`` header as it went out (it holds a value in base64)."""
    forms: set[bytes] = set()
    for secret in held:
        value = secret.value
        for form in (value, urllib.parse.quote(value, safe=""), json.dumps(value)[1:-1]):
            if form:
                forms.add(form.encode("utf-8"))
    values = [s.value for s in held]
    for name, header in sent:
        scheme, _, payload = header.partition(" ")
        if name.lower() == "authorization" and scheme.lower() == "basic" and payload.strip():
            try:
                plain = base64.b64decode(payload.strip(), validate=True).decode("utf-8", "replace")
            except binascii.Error:
                continue
            if any(v and v in plain for v in values):
                forms.add(payload.strip().encode("ascii"))
    return tuple(sorted(forms, key=len, reverse=True))


class EchoMask:
    """Streaming replacement of ``forms`` by ``*``s: ``feed`` returns what is safe to pass
    on now, holding back the last few bytes that could start a form; ``flush`` the rest."""

    def __init__(self, forms: Iterable[bytes]) -> None:
        self.forms = tuple(f for f in forms if f)
        self._keep = max((len(f) for f in self.forms), default=1) - 1
        self._buffer = b""

    def feed(self, data: bytes) -> bytes:
        buffer = self._mask(self._buffer + data)
        if self._keep == 0:
            self._buffer = b""
            return buffer
        cut = max(len(buffer) - self._keep, 0)
        self._buffer = buffer[cut:]
        return buffer[:cut]

    def flush(self) -> bytes:
        rest, self._buffer = self._mask(self._buffer), b""
        return rest

    def _mask(self, data: bytes) -> bytes:
        for form in self.forms:
            if form in data:
                data = data.replace(form, b"*" * len(form))
        return data


def identity_only(headers: Sequence[Header]) -> list[Header]:
    """The request headers asking for an uncompressed answer (so it can be scanned)."""
    kept = [(k, v) for k, v in headers if k.lower() != "accept-encoding"]
    return [*kept, ("Accept-Encoding", "identity")]


def scannable(response_head: bytes) -> bool:
    """Does this response head promise a body the mask can read (no content coding)?"""
    text = response_head.decode("latin-1")
    for line in text.split("\r\n")[1:]:
        name, colon, value = line.partition(":")
        codings = value.split(",") if colon and name.strip().lower() == "content-encoding" else []
        if any(v.strip().lower() not in _IDENTITY for v in codings):
            return False
    return True
