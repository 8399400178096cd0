"""The egress proxy: one HTTP/1.1 proxy per sandboxed run, on a Unix socket.

``CONNECT host:port`` (HTTPS) and absolute-URI requests (plain HTTP) are decided by the
run's EgressGate before anything is dialled. Refused: a 403 whose body is the reason.
Allowed: a blind tunnel (CONNECT) or one forwarded request (plain HTTP), to the checked
address. A CONNECT to a held secret's host, once a person approved it, is intercepted:
TLS is terminated with the run's CA so the placeholder in the headers can be swapped for
the value, and a new TLS connection, verified as usual, goes to the real host.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import time
from urllib.parse import urlsplit

from bastion.exec.egress.decide import EgressGate, Verdict
from bastion.exec.egress.echo import EchoMask, echo_forms, identity_only, scannable
from bastion.exec.egress.held import substitute
from bastion.exec.egress.http1 import (
    MAX_HEAD,
    Head,
    HeadError,
    encode_head,
    read_head,
    response,
    upstream_headers,
)
from bastion.exec.egress.net import Dialer, Streams
from bastion.exec.egress.tls import RunCA
from bastion.policy.urls import Target, UrlError, parse_target

_CHUNK = 262144
_DEFAULT_PORT = {"http": 80, "https": 443}
ESTABLISHED = b"HTTP/1.1 200 Connection established\r\n\r\n"
SSH_PORT = 22


class Refused(Exception):
    """Answer the client with ``status`` and ``message`` and close."""

    def __init__(self, status: int, reason: str, message: str) -> None:
        super().__init__(message)
        self.status, self.reason, self.message = status, reason, message


def _target(text: str, scheme: str) -> Target:
    try:
        target = parse_target(text)
    except UrlError as exc:
        raise Refused(400, "Bad Request", f"cannot read the destination {text[:200]!r}: {exc}") from None
    if target.has_userinfo:
        raise Refused(400, "Bad Request", "credentials in the destination are not forwarded")
    if target.scheme not in (None, scheme):
        raise Refused(400, "Bad Request", f"only {scheme}:// is proxied here")
    return target


def _authority(host: str, port: int, scheme: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return shown if port == _DEFAULT_PORT[scheme] else f"{shown}:{port}"


def _check_host_header(head: Head, host: str, port: int, scheme: str) -> None:
    """A ``Host`` naming another site than the one decided is refused, not rewritten
    silently (a shared front end would route the request - and a held secret - there)."""
    for value in head.get("host"):
        try:
            named = parse_target(value)
        except UrlError:
            raise Refused(400, "Bad Request", f"bad Host header {value[:200]!r}") from None
        if (named.host, named.port or _DEFAULT_PORT[scheme]) != (host, port):
            raise Refused(
                403,
                "Forbidden",
                f"the Host header names {value[:200]}, but this request goes to {host}:{port}",
            )


async def _copy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, count: list[int]) -> None:
    with contextlib.suppress(ConnectionError, OSError):
        while data := await reader.read(_CHUNK):
            count[0] += len(data)
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()


async def _copy_masked(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, count: list[int], mask: EchoMask
) -> None:
    """The response with held values masked; one the mask cannot read is refused (502)
    before a byte of it reaches the client."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        raise Refused(502, "Bad Gateway", "the origin's response head is unreadable") from None
    if not scannable(head):
        raise Refused(502, "Bad Gateway", "the origin compressed an answer that may echo a held secret")
    count[0] += len(head)
    writer.write(mask.feed(head))
    with contextlib.suppress(ConnectionError, OSError):
        while data := await reader.read(_CHUNK):
            count[0] += len(data)
            writer.write(mask.feed(data))
            await writer.drain()
        writer.write(mask.flush())
        await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()


class EgressProxy:
    def __init__(
        self, gate: EgressGate, dialer: Dialer, ca: RunCA, upstream_tls: ssl.SSLContext | None = None
    ) -> None:
        self.gate = gate
        self.dialer = dialer
        self.ca = ca
        self.upstream_tls = upstream_tls or ssl.create_default_context()
        self.tasks: set[asyncio.Task[None]] = set()

    async def serve(self, path: str) -> asyncio.AbstractServer:
        return await asyncio.start_unix_server(self.handle, path=path, limit=MAX_HEAD)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self.tasks.add(task)
        try:
            head = await read_head(reader)
            if head is None:
                return
            if head.method == "CONNECT":
                await self._connect(head, reader, writer)
            else:
                await self._plain(head, reader, writer)
        except HeadError as exc:
            await self._refuse(writer, Refused(400, "Bad Request", str(exc)))
        except Refused as exc:
            await self._refuse(writer, exc)
        except (ConnectionError, OSError, ssl.SSLError):
            pass  # the client went away (or broke TLS): nothing to answer
        except Exception as exc:  # a bug here is a refusal the client can read, never a pass
            await self._refuse(
                writer, Refused(502, "Bad Gateway", f"bastion egress: internal error: {exc!r}")
            )
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
            if task is not None:
                self.tasks.discard(task)

    async def _refuse(self, writer: asyncio.StreamWriter, refused: Refused) -> None:
        with contextlib.suppress(ConnectionError, OSError, RuntimeError):
            writer.write(response(refused.status, refused.reason, refused.message + "\n"))
            await writer.drain()

    async def _decide(self, scheme: str, host: str, port: int, method: str) -> Verdict:
        verdict = await self.gate.decide(scheme, host, port, method)
        if not verdict.allowed:
            text = f"bastion egress: {host}:{port} refused: {verdict.evaluation.message}"
            raise Refused(403, "Forbidden", text)
        return verdict

    async def _dial(self, verdict: Verdict, port: int) -> Streams:
        assert verdict.address is not None
        try:
            return await self.dialer.open(verdict.address, port)
        except OSError as exc:
            self.gate.record(verdict, sent=0, received=0, duration=0.0, failed=f"connect failed: {exc}")
            raise Refused(502, "Bad Gateway", f"cannot connect to {verdict.address}:{port}: {exc}") from None

    async def _connect(self, head: Head, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        target = _target(head.target, "https")
        if target.port is None:
            raise Refused(400, "Bad Request", "CONNECT needs host:port")
        verdict = await self._decide("https", target.host, target.port, "CONNECT")
        if verdict.held and target.port != SSH_PORT:  # ssh has no header to carry a secret
            writer.write(ESTABLISHED)
            await writer.drain()
            await writer.start_tls(self.ca.server_context(target.host))
            inner = await read_head(reader)
            if inner is not None:
                await self._forward(inner, reader, writer, verdict, "https", target.host, target.port)
            return
        up_reader, up_writer = await self._dial(verdict, target.port)
        start = time.monotonic()
        writer.write(ESTABLISHED)
        await writer.drain()
        sent, received = [0], [0]
        try:
            await asyncio.gather(_copy(reader, up_writer, sent), _copy(up_reader, writer, received))
        finally:
            up_writer.close()
            self.gate.record(verdict, sent=sent[0], received=received[0], duration=time.monotonic() - start)

    async def _plain(self, head: Head, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not head.target.lower().startswith("http://"):
            raise Refused(400, "Bad Request", "this is a proxy: send an absolute http:// URL or CONNECT")
        target = _target(head.target, "http")
        port = target.port or 80
        verdict = await self._decide("http", target.host, port, head.method)
        await self._forward(head, reader, writer, verdict, "http", target.host, port)

    async def _forward(
        self,
        head: Head,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        verdict: Verdict,
        scheme: str,
        host: str,
        port: int,
    ) -> None:
        """One request to the origin, placeholders swapped for a held host; then the
        response back, byte for byte, until the origin closes."""
        if head.method == "CONNECT":
            raise Refused(400, "Bad Request", "CONNECT inside a tunnel")
        if head.target.lower().startswith(("http://", "https://")):
            found = _target(head.target, scheme)
            if (found.host, found.port or _DEFAULT_PORT[scheme]) != (host, port):
                raise Refused(403, "Forbidden", f"{head.target[:200]} is not {host}:{port}")
            parts = urlsplit(head.target)
            path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        else:
            path = head.target
        _check_host_header(head, host, port, scheme)
        headers, _ = substitute(upstream_headers(head, _authority(host, port, scheme)), verdict.held)
        mask = None
        if verdict.held:  # the answer could carry a value back: scan it (uncompressed)
            headers = identity_only(headers)
            mask = EchoMask(echo_forms(verdict.held, headers))
        up_reader, up_writer = await self._dial(verdict, port)
        start = time.monotonic()
        sent, received = [0], [0]
        failed: str | None = None
        try:
            if scheme == "https":
                await up_writer.start_tls(self.upstream_tls, server_hostname=host)
            data = encode_head(head.method, path, headers)
            up_writer.write(data)
            sent[0] += len(data)
            await up_writer.drain()
            upload = asyncio.ensure_future(_copy(reader, up_writer, sent))
            try:
                if mask is None:
                    await _copy(up_reader, writer, received)
                else:
                    await _copy_masked(up_reader, writer, received, mask)
            finally:
                upload.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await upload
        except ssl.SSLError as exc:  # before a byte of the request went out
            failed = f"TLS to {host} failed: {exc.reason}"
            raise Refused(502, "Bad Gateway", failed) from None
        except (ConnectionError, OSError) as exc:
            failed = f"connection lost: {type(exc).__name__}"
            raise
        finally:
            up_writer.close()
            self.gate.record(
                verdict, sent=sent[0], received=received[0], duration=time.monotonic() - start, failed=failed
            )
