"""Held credentials: the sandbox sees a placeholder, the proxy puts the value back.

A held secret's value never enters the sandbox. Its variable holds ``BASTION_HELD_<hex>``
instead; the egress proxy replaces that placeholder in the request headers (including
inside ``Authorization: Basic``) of requests to the secret's hosts, and only once a person
has approved the first request to that host. Anywhere else the placeholder goes out as it
is: it is worthless.
"""

from __future__ import annotations

import base64
import binascii
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from bastion.exec.secrets import SecretError, SecretStore
from bastion.exec.settings import SecretHold
from bastion.policy.network import host_matches, parse_target
from bastion.policy.urls import UrlError

PLACEHOLDER_PREFIX = "BASTION_HELD_"
Header = tuple[str, str]


@dataclass(frozen=True, slots=True)
class HeldSecret:
    name: str
    hosts: tuple[str, ...]
    placeholder: str
    value: str = field(repr=False)

    def applies_to(self, host: str) -> bool:
        """Is ``host`` (a normalised name or address) one of this secret's hosts?"""
        try:
            target = parse_target(host)
        except UrlError:
            return False
        return any(host_matches(pattern, target) for pattern in self.hosts)


def hold(
    name: str, value: str, hosts: Iterable[str], *, token: Callable[[int], str] = secrets.token_hex
) -> HeldSecret:
    """A held secret with a fresh placeholder (``token`` is injectable for tests). A value
    with a line break could add headers of its own once swapped in: refused."""
    if any(c in value for c in "\r\n\x00"):
        raise ValueError(f"held secret {name!r} contains a line break or NUL: it cannot go into a header")
    return HeldSecret(name, tuple(hosts), PLACEHOLDER_PREFIX + token(16), value)


def load_held(credentials_dir: str, holds: Iterable[SecretHold]) -> tuple[HeldSecret, ...]:
    """The policy's held secrets (``policy.exec.held``), read from the credentials dir,
    each with a fresh placeholder. Only this reads them: held names are never among the
    injectable ``[exec] secrets``. Raises SecretError naming the secret (never its value)."""
    bindings = list(holds)
    store = SecretStore(credentials_dir, [h.name for h in bindings])
    values = store.load(h.name for h in bindings)
    try:
        return tuple(hold(h.name, values[h.name], h.hosts) for h in bindings)
    except ValueError as exc:
        raise SecretError(str(exc)) from None


def held_for(host: str, held: Sequence[HeldSecret]) -> tuple[HeldSecret, ...]:
    return tuple(h for h in held if h.applies_to(host))


def _swap(text: str, held: Sequence[HeldSecret]) -> str:
    for secret in held:
        text = text.replace(secret.placeholder, secret.value)
    return text


def _swap_basic(value: str, held: Sequence[HeldSecret]) -> str:
    scheme, _, encoded = value.partition(" ")
    if scheme.lower() != "basic":
        return value
    try:
        plain = base64.b64decode(encoded.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return value
    swapped = _swap(plain, held)
    if swapped == plain:
        return value
    return f"{scheme} {base64.b64encode(swapped.encode('utf-8')).decode('ascii')}"


def substitute(headers: Sequence[Header], held: Sequence[HeldSecret]) -> tuple[list[Header], int]:
    """The headers with every placeholder of ``held`` replaced, and how many headers changed."""
    out: list[Header] = []
    changed = 0
    for name, value in headers:
        new = _swap(value, held)
        if name.lower() in ("authorization", "proxy-authorization"):
            new = _swap_basic(new, held)
        changed += new != value
        out.append((name, new))
    return out, changed
