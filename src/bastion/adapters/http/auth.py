"""Who is calling and what they may do: API keys in a header, or an approvals-page login.

Which role may do what is data (:data:`PERMISSIONS`); every route names one permission, and
:func:`unsafe_routes` lets the daemon refuse to start if an agent key could reach an
approval endpoint.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from starlette.requests import Request

from bastion.adapters.http.errors import forbidden, unauthenticated
from bastion.keys.model import ApiKey, Role
from bastion.keys.store import KeyStore, verify
from bastion.state.web_sessions import GatewayState, WebSession

COOKIE = "bastion_session"
CSRF_HEADER = "x-csrf-token"

A, P, D = Role.AGENT, Role.APPROVER, Role.ADMIN
PERMISSIONS: Mapping[str, frozenset[Role]] = MappingProxyType(
    {
        "decide": frozenset({A, D}),
        "request": frozenset({A, D}),
        "read_request": frozenset({A, P, D}),  # an agent only the requests it created
        "list_requests": frozenset({P, D}),
        "answer": frozenset({P, D}),
        "settings": frozenset({P, D}),  # change the mode, roots, granted folders; revoke grants
        "events": frozenset({P, D}),
        "policy_check": frozenset({P, D}),
        "logs": frozenset({D}),
        "docs": frozenset({A, P, D}),
    }
)
#: Permissions that answer a parked call or change what is allowed: never reachable with an
#: agent key (an agent that could change its own mode would need no answer).
APPROVAL_PERMISSIONS = frozenset({"answer", "settings"})


@dataclass(frozen=True, slots=True)
class Principal:
    key: ApiKey
    session: WebSession | None = None  # set when authenticated by the page's cookie

    @property
    def role(self) -> Role:
        return self.key.role


def presented_key(request: Request) -> str | None:
    key = request.headers.get("x-api-key")
    if key:
        return key
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def authenticate(request: Request, keys: KeyStore, state: GatewayState, *, now: float) -> Principal:
    """A header key (no CSRF needed), else the login cookie; 401 when neither is valid."""
    key = presented_key(request)
    if key is not None:
        record = verify(keys, key)
        if record is None:
            raise unauthenticated("the API key is not valid (wrong, malformed or revoked)", "invalid_key")
        return Principal(record)
    token = request.cookies.get(COOKIE)
    if token:
        session = state.session(token, now=now)
        record = keys.get(session.key_id) if session else None
        if session is not None and record is not None and record.active:
            return Principal(record, session)
        raise unauthenticated("the login has expired: log in again", "invalid_session")
    raise unauthenticated()


def check_csrf(principal: Principal, request: Request, form_token: str | None = None) -> None:
    """A cookie-authenticated change must carry the login's CSRF token."""
    if principal.session is None or request.method in ("GET", "HEAD"):
        return
    given = form_token or request.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(given.encode(), principal.session.csrf.encode()):
        raise forbidden("missing or wrong CSRF token: reload the page", "csrf")


def authorize(principal: Principal, permission: str) -> None:
    if principal.role not in PERMISSIONS[permission]:
        raise forbidden(
            f"a key with role {principal.role.value!r} may not do this "
            f"(needs {' or '.join(sorted(r.value for r in PERMISSIONS[permission]))})"
        )


def unsafe_routes(
    routes: Iterable[tuple[str, str]], permissions: Mapping[str, frozenset[Role]] = PERMISSIONS
) -> list[str]:
    """Routes ``(path, permission)`` through which an agent key could answer a request."""
    bad = []
    for path, permission in routes:
        approval = permission in APPROVAL_PERMISSIONS or path.endswith(("/approve", "/deny", "/answer"))
        if approval and Role.AGENT in permissions.get(permission, frozenset()):
            bad.append(path)
    return bad
