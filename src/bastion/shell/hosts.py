"""Find the network destination in a word: a URL, ``user@host:path`` or a bare host."""

from __future__ import annotations

import re
import urllib.parse
from urllib.parse import urlsplit

_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")
_SCP = re.compile(r"^(?:[^@/:\s]+@)?(\[[0-9a-fA-F:]+\]|[A-Za-z0-9_.-]+):(?!//)")
_HOSTNAME = re.compile(
    r"^(?:[^@/\s]+@)?([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+|localhost|"
    r"\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]+\])(?::\d+)?$"
)


def url_host(value: str) -> str | None:
    """The host of ``scheme://…`` (git+ssh, s3, http…), lower-cased."""
    if not _URL.match(value):
        return None
    try:
        host = urlsplit(value).hostname
    except ValueError:
        return None
    return host or None


def scp_host(value: str) -> str | None:
    """The host of ``[user@]host:path`` (scp, rsync, git)."""
    if _URL.match(value) or value.startswith(("/", "./", "~")):
        return None
    m = _SCP.match(value)
    if m is None:
        return None
    host = m.group(1).strip("[]")
    return host if len(host) > 1 else None  # `C:` is a drive, not a host


def bare_host(value: str) -> str | None:
    """``example.com``, ``user@example.com``, ``10.0.0.1``, ``localhost``."""
    m = _HOSTNAME.match(value)
    return m.group(1).strip("[]").lower() if m else None


def any_host(value: str) -> str | None:
    return url_host(value) or scp_host(value)


def file_url_path(value: str) -> str | None:
    """The local path a ``file:`` URL names (``file:///etc/passwd``, ``file://localhost/x``),
    percent-decoded; None for anything else."""
    if value[:5].lower() != "file:":
        return None
    rest = value[5:]
    if rest.startswith("//"):
        authority, slash, path = rest[2:].partition("/")
        if authority.lower() not in ("", "localhost"):
            return None  # a file URL naming another machine: not a local path
        rest = slash + path
    return urllib.parse.unquote(rest.partition("?")[0].partition("#")[0]) or None
