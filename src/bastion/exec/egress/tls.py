"""The per-run certificate authority that lets the proxy open TLS to a held host.

Only connections to a held secret's hosts are intercepted (every other CONNECT is a
blind tunnel). For those the proxy answers the sandbox with a certificate for the host,
signed by a CA made for this run only: its key stays in Bastion's memory and private
directory, its certificate is trusted inside the sandbox alone (SSL_CERT_FILE and
friends point at a bundle of the system roots plus this CA). TLS itself is OpenSSL
through Python's ``ssl``; certificates are built with ``cryptography``.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import ssl
import threading

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

#: Where Debian-family systems keep the system roots; ssl's default path otherwise.
SYSTEM_BUNDLES = ("/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt")
_DAY = datetime.timedelta(days=1)


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _pem(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.PEM)


def _write(path: str, data: bytes, mode: int) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def system_bundle() -> bytes:
    """The system's trusted roots as PEM (empty when none are found)."""
    candidates = (*SYSTEM_BUNDLES, ssl.get_default_verify_paths().cafile or "")
    for path in candidates:
        if path and os.path.isfile(path):
            with open(path, "rb") as handle:
                return handle.read()
    return b""


class RunCA:
    """A CA for one run. ``public`` gets ``ca.crt`` and ``bundle.crt`` (not ``.pem``: that
    name means "credential" to the gate, and these are public); leaf keys go to
    ``private`` (never mounted into the sandbox)."""

    def __init__(self, public: str, private: str) -> None:
        self.private = private
        self._key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.UTC)
        self.cert = (
            x509.CertificateBuilder()
            .subject_name(_name("Bastion egress CA (one sandboxed run)"))
            .issuer_name(_name("Bastion egress CA (one sandboxed run)"))
            .public_key(self._key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + _DAY)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(
                x509.KeyUsage(
                    digital_signature=True,
                    key_cert_sign=True,
                    crl_sign=True,
                    content_commitment=False,
                    key_encipherment=False,
                    data_encipherment=False,
                    key_agreement=False,
                    encipher_only=False,
                    decipher_only=False,
                ),
                critical=True,
            )
            .sign(self._key, hashes.SHA256())
        )
        self.ca_file = os.path.join(public, "ca.crt")
        self.bundle_file = os.path.join(public, "bundle.crt")
        _write(self.ca_file, _pem(self.cert), 0o644)
        _write(self.bundle_file, system_bundle().rstrip(b"\n") + b"\n" + _pem(self.cert), 0o644)
        self._contexts: dict[str, ssl.SSLContext] = {}
        self._lock = threading.Lock()

    def server_context(self, host: str) -> ssl.SSLContext:
        """A TLS server context presenting a certificate for ``host`` (cached per host)."""
        with self._lock:
            context = self._contexts.get(host)
            if context is None:
                context = self._contexts[host] = self._leaf_context(host)
            return context

    def _leaf_context(self, host: str) -> ssl.SSLContext:
        key = ec.generate_private_key(ec.SECP256R1())
        try:
            alt: x509.GeneralName = x509.IPAddress(ipaddress.ip_address(host.strip("[]")))
        except ValueError:
            alt = x509.DNSName(host)
        now = datetime.datetime.now(datetime.UTC)
        cert = (
            x509.CertificateBuilder()
            .subject_name(_name(host[:64]))
            .issuer_name(self.cert.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + _DAY)
            .add_extension(x509.SubjectAlternativeName([alt]), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .sign(self._key, hashes.SHA256())
        )
        stem = os.path.join(self.private, f"leaf-{len(self._contexts)}")
        key_pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        _write(stem + ".key", key_pem, 0o600)
        _write(stem + ".pem", _pem(cert) + _pem(self.cert), 0o600)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.set_alpn_protocols(["http/1.1"])  # the proxy reads HTTP/1.1 only
        context.load_cert_chain(stem + ".pem", stem + ".key")
        return context
