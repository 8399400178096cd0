"""The approvals page: a login with an approver key, pending requests live, history.

Plain forms that work without JavaScript (they answer and redirect back); ``app.js``
turns them into fetches and adds requests as the event feed announces them.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from bastion.adapters.http import cards, render
from bastion.adapters.http.auth import COOKIE, Principal, authorize, check_csrf
from bastion.adapters.http.context import context_of, principal_for
from bastion.adapters.http.errors import ApiError, rate_limited
from bastion.adapters.http.service import request_object
from bastion.approval.state import RequestState
from bastion.keys.model import Role
from bastion.keys.store import verify

PAGE_ROLES = (Role.APPROVER, Role.ADMIN)


async def form(request: Request) -> dict[str, str]:
    raw = (await request.body()).decode("utf-8", errors="replace")
    return {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}


def logged_in(request: Request, permission: str) -> Principal | None:
    """The login behind the cookie, or None (then the page shows the login form)."""
    if COOKIE not in request.cookies:
        return None
    try:
        principal = principal_for(request, permission, csrf=False)
    except ApiError as exc:
        if exc.status == 401:
            return None
        raise
    return principal if principal.session is not None else None


def _html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(
        text,
        status_code=status,
        headers={
            "Cache-Control": "no-store",
            "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; form-action 'self'",
            "X-Frame-Options": "DENY",
            "Referrer-Policy": "no-referrer",
        },
    )


async def index(request: Request) -> Response:
    principal = logged_in(request, "list_requests")
    if principal is None:
        return _html(render.login())
    ctx = context_of(request)
    assert principal.session is not None
    requests = list(reversed(ctx.service.pending([RequestState.PENDING], 200)))
    return _html(cards.pending(requests, csrf=principal.session.csrf, now=ctx.now()))


async def history(request: Request) -> Response:
    principal = logged_in(request, "list_requests")
    if principal is None:
        return RedirectResponse("/", status_code=303)
    assert principal.session is not None
    ctx = context_of(request)
    records = ctx.service.history(limit=100)
    names = {key.id: key.label or key.id for key in ctx.keys.list(include_revoked=True)}
    return _html(render.history(records, csrf=principal.session.csrf, names=names))


async def settings(request: Request) -> Response:
    principal = logged_in(request, "list_requests")
    if principal is None:
        return RedirectResponse("/", status_code=303)
    assert principal.session is not None
    data = context_of(request).service.settings()
    can_revoke = principal.role in PAGE_ROLES
    return _html(render.settings(data, csrf=principal.session.csrf, can_revoke=can_revoke))


async def revoke(request: Request) -> Response:
    principal = logged_in(request, "answer")
    if principal is None:
        raise ApiError(401, "invalid_session", "log in first")
    check_csrf(principal, request, (await form(request)).get("csrf"))
    authorize(principal, "answer")
    context_of(request).service.revoke_grant(request.path_params["id"], key_id=principal.key.id)
    return RedirectResponse("/settings", status_code=303)


async def login(request: Request) -> Response:
    ctx = context_of(request)
    client = request.client.host if request.client else "-"
    retry = ctx.login_limiter.check(f"login:{client}")
    if retry:
        raise rate_limited(retry, ctx.gateway.cooldown_reply)
    key = (await form(request)).get("key", "").strip()
    record = verify(ctx.keys, key) if key else None
    if record is None:
        return _html(render.login("That key is not valid."), 401)
    if record.role not in PAGE_ROLES:
        return _html(render.login("That key cannot answer requests: use an approver key."), 403)
    request.state.key_id = record.id
    token, _ = ctx.state.open_session(record.id, now=ctx.now(), ttl=ctx.settings.session_ttl)
    response = RedirectResponse("/", status_code=303)
    response.set_cookie(
        COOKIE,
        token,
        max_age=int(ctx.settings.session_ttl),
        path="/",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response


async def logout(request: Request) -> Response:
    principal = logged_in(request, "list_requests")
    response = RedirectResponse("/", status_code=303)
    if principal is not None:
        check_csrf(principal, request, (await form(request)).get("csrf"))
        context_of(request).state.close_session(request.cookies[COOKIE])
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
    return response


async def card(request: Request) -> Response:
    principal = logged_in(request, "list_requests")
    if principal is None or principal.session is None:
        raise ApiError(401, "invalid_session", "log in first")
    ctx = context_of(request)
    found = ctx.service.get(request.path_params["id"])
    return _html(cards.card(found, csrf=principal.session.csrf, now=ctx.now()))


async def answer(request: Request) -> Response:
    """One form, four buttons: ``action`` is approve_once, approve_always,
    approve_uncontained or deny."""
    ctx = context_of(request)
    principal = logged_in(request, "answer")
    if principal is None:
        raise ApiError(401, "invalid_session", "log in first")
    fields = await form(request)
    check_csrf(principal, request, fields.get("csrf"))
    authorize(principal, "answer")
    action = fields.get("action", "")
    if action not in ("approve_once", "approve_always", "approve_uncontained", "deny"):
        raise ApiError(
            422, "invalid_body", "action must be approve_once, approve_always, approve_uncontained or deny"
        )
    feedback = fields.get("feedback", "").strip()[:2000] or None
    done = ctx.service.answer(
        request.path_params["id"],
        key_id=principal.key.id,
        approve=action != "deny",
        always=action == "approve_always",
        pattern=fields.get("cover") or None,
        scope=fields.get("scope") or "project",
        feedback=feedback if action == "deny" else None,
        uncontained=action == "approve_uncontained",
    )
    if "application/json" in request.headers.get("accept", ""):
        return JSONResponse(request_object(done))
    return RedirectResponse("/", status_code=303)
