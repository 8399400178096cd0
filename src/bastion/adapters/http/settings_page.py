"""``POST /settings``: the settings page's form, applied.

A plain form that works without JavaScript, protected like the page's other forms: the login
cookie (``SameSite=Strict``, so a cross-site post carries none) and the login's CSRF token
in a hidden field, checked before anything else. It translates the form into the same
change ``POST /v1/settings`` takes (only the values that differ from what is in force) and
the service applies it (bastion.policy_edit): the answer is the page again, with what was
saved and any later file that still decides, or the error and how to fix it.
"""

from __future__ import annotations

from html import escape

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from bastion.adapters.http import render
from bastion.adapters.http.auth import authorize, check_csrf
from bastion.adapters.http.context import context_of
from bastion.adapters.http.errors import ApiError
from bastion.adapters.http.page import PAGE_ROLES, _html, form, logged_in
from bastion.adapters.http.settings_form import changed_fields, saved


async def save(request: Request) -> Response:
    """``POST /settings``: the form, answered with the page."""
    principal = logged_in(request, "settings")
    if principal is None or principal.session is None:
        raise ApiError(401, "invalid_session", "log in first")
    fields = await form(request)
    check_csrf(principal, request, fields.get("csrf"))
    authorize(principal, "settings")
    ctx = context_of(request)
    csrf, can_revoke = principal.session.csrf, principal.role in PAGE_ROLES
    data = changed_fields(fields, ctx.service.settings())
    if not data:
        status = '<p role="status" class="saved">Nothing to save: every value is what is in force.</p>'
        return _html(render.settings(ctx.service.settings(), csrf=csrf, can_revoke=can_revoke, status=status))
    try:
        after = await run_in_threadpool(ctx.service.change_settings, data, key_id=principal.key.id)
    except ApiError as exc:
        if exc.status != 422:
            raise
        alert = f'<p role="alert" class="error">Not saved: {escape(exc.message)}</p>'
        page = render.settings(ctx.service.settings(), csrf=csrf, can_revoke=can_revoke, status=alert)
        return _html(page, 422)
    return _html(render.settings(after, csrf=csrf, can_revoke=can_revoke, status=saved(after["change"])))
