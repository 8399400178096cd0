"""Checkers: who gives the second opinion. Each takes the request JSON and a time limit and
returns a Verdict, or raises CheckerError (any failure: it never answers for the caller).

* ``CommandChecker``: an argv run without a shell; the request on stdin, the verdict on
  stdout; killed with its whole process group at the timeout; exit status must be 0.
* ``HttpChecker``: the request POSTed as ``application/json``; a 200 whose body is the
  verdict; no proxies (the URL is dialled as written), no redirects followed.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import subprocess
from collections.abc import Mapping, Sequence
from typing import Any, Protocol
from urllib.parse import urlsplit

from bastion.errors import BastionError
from bastion.opinion.verdict import MAX_VERDICT_BYTES, MalformedVerdict, Verdict, parse_verdict


class CheckerError(BastionError):
    """The checker gave no verdict: it failed, timed out or answered something unreadable."""


class Checker(Protocol):
    #: How the checker is named in reasons (``command /usr/local/bin/check``, a URL).
    name: str

    def check(self, request: Mapping[str, Any], timeout: float) -> Verdict: ...


def encode(request: Mapping[str, Any]) -> bytes:
    return json.dumps(request, sort_keys=True, ensure_ascii=False, allow_nan=False).encode("utf-8")


class CommandChecker:
    def __init__(self, argv: Sequence[str], *, env: Mapping[str, str] | None = None) -> None:
        if not argv:
            raise ValueError("a command checker needs an argv")
        self.argv = tuple(argv)
        self.env = None if env is None else dict(env)
        self.name = f"command {self.argv[0]}"

    def check(self, request: Mapping[str, Any], timeout: float) -> Verdict:
        try:
            child = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=self.env,
                start_new_session=True,
            )
        except OSError as exc:
            raise CheckerError(f"cannot run {self.argv[0]}: {exc.strerror or exc}") from exc
        try:
            out, _ = child.communicate(encode(request), timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(child)
            raise CheckerError(f"no verdict within {timeout:g}s") from None
        except OSError as exc:  # it closed stdin early, and the rest
            _kill_group(child)
            raise CheckerError(f"it failed: {exc}") from exc
        if child.returncode != 0:
            raise CheckerError(f"it exited with status {child.returncode}")
        try:
            return parse_verdict(out)
        except MalformedVerdict as exc:
            raise CheckerError(f"malformed verdict: {exc}") from exc


def _kill_group(child: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signal.SIGKILL)
    child.communicate()


class HttpChecker:
    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"an HTTP checker needs an http:// or https:// URL, not {url!r}")
        self.url = url
        self.name = url
        self._parts = parts

    def check(self, request: Mapping[str, Any], timeout: float) -> Verdict:
        parts = self._parts
        kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection = kind(parts.hostname or "", parts.port, timeout=timeout)
        try:
            connection.request(
                "POST",
                path,
                body=encode(request),
                headers={"Content-Type": "application/json", "Accept": "application/json"},
            )
            response = connection.getresponse()
            try:
                if response.status != 200:
                    raise CheckerError(f"{self.url} answered HTTP {response.status}")
                body = response.read(MAX_VERDICT_BYTES + 1)
            finally:
                response.close()  # the response holds the socket too
        except (OSError, http.client.HTTPException, ValueError) as exc:  # timeouts are OSErrors
            raise CheckerError(f"{self.url} gave no verdict: {exc or type(exc).__name__}") from None
        finally:
            connection.close()
        try:
            return parse_verdict(body)
        except MalformedVerdict as exc:
            raise CheckerError(f"malformed verdict: {exc}") from exc
