"""The gateway's routes: the API table (its OpenAPI operations), the page, and the
permission each authenticated route needs (what the daemon's boot check reads)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from bastion.adapters.http import api, page, ready, settings_page
from bastion.adapters.http.context import Handler, guarded
from bastion.adapters.http.openapi import Operation, document

_LOGS_QUERY = (
    ("session", "string", ""),
    ("since", "string", "epoch seconds, ISO-8601 or a duration ago"),
    ("decision", "string", "allow, ask or deny"),
    ("after_seq", "integer", ""),
    ("limit", "integer", "at most 1000"),
)
_LIST_QUERY = (
    ("state", "string", "pending (default), all, or states joined by commas"),
    ("limit", "integer", "at most 1000"),
)
_SETTINGS = (
    "The mode and ceiling in force (with where each came from), the roots and the standing "
    "grants with their evidence"
)
_CHANGE = (
    "Change the mode, workspace roots or granted folders (written to the person's own policy "
    "file, checked merged, recorded, reloaded) or revoke grants (approver role)"
)
_READY = (
    "Readiness behind a key: policy, store, ledger and sandbox, each with its reason (503 when "
    "a required part is not ready)"
)

API: list[tuple[Operation, Handler]] = [
    (
        Operation(
            "POST",
            "/v1/decide",
            "decide",
            "Decide a tool call; nothing is parked or recorded",
            body="ToolCall",
            response="Evaluation",
        ),
        api.decide,
    ),
    (
        Operation(
            "POST",
            "/v1/requests",
            "request",
            "Decide and, on ASK, park the call (202)",
            body="ToolCall",
            response="Request",
            status=202,
        ),
        api.create_request,
    ),
    (
        Operation(
            "GET",
            "/v1/requests",
            "list_requests",
            "List requests (newest first)",
            response="Object",
            query=_LIST_QUERY,
        ),
        api.list_requests,
    ),
    (
        Operation(
            "GET",
            "/v1/requests/{id}",
            "read_request",
            "A request; long-polls with ?wait=SECONDS",
            response="Request",
            query=(("wait", "number", "seconds to wait for an answer"),),
        ),
        api.get_request,
    ),
    (
        Operation(
            "POST",
            "/v1/requests/{id}/approve",
            "answer",
            "Approve once, or always (a scoped grant)",
            body="Approve",
            response="Request",
        ),
        api.approve,
    ),
    (
        Operation(
            "POST",
            "/v1/requests/{id}/deny",
            "answer",
            "Deny, with feedback for the agent",
            body="Deny",
            response="Request",
        ),
        api.deny,
    ),
    (Operation("GET", "/v1/events", "events", "Server-Sent Events: 'request' and 'resolved'"), api.events),
    (Operation("GET", "/v1/logs", "logs", "Query the audit ledger", query=_LOGS_QUERY), api.logs),
    (
        Operation(
            "POST",
            "/v1/policy/check",
            "policy_check",
            "Validate a policy text",
            body="PolicyText",
            response="PolicyCheck",
        ),
        api.policy_check,
    ),
    (Operation("GET", "/v1/settings", "list_requests", _SETTINGS, response="Object"), api.settings),
    (Operation("POST", "/v1/settings", "settings", _CHANGE, body="SettingsChange"), api.change_settings),
    (
        Operation(
            "POST",
            "/v1/grants/{id}/revoke",
            "answer",
            "Revoke a standing grant (approver role)",
            response="Object",
        ),
        api.revoke_grant,
    ),
    (Operation("GET", "/ready", "docs", _READY, response="Object"), ready.ready),
]
OPERATIONS = [
    Operation("GET", "/health", None, "Liveness only"),
    *(op for op, _ in API),
    # Public like /health: it describes the routes and holds no secret, and a client needs it
    # before it has a key.
    Operation("GET", "/v1/openapi.json", None, "This document"),
]
PAGE_ROUTES: list[tuple[str, str, Callable[[Request], Awaitable[Response]]]] = [
    ("GET", "/", page.index),
    ("GET", "/history", page.history),
    ("POST", "/login", page.login),
    ("POST", "/logout", page.logout),
    ("GET", "/cards/{id}", page.card),
    ("POST", "/requests/{id}/answer", page.answer),
    ("GET", "/settings", page.settings),
    ("POST", "/settings", settings_page.save),
    ("POST", "/settings/grants/{id}/revoke", page.revoke),
]
#: The page's authenticated routes (its answers need ``answer``, like the API's).
_PAGE_PERMISSIONS = [
    ("/requests/{id}/answer", "answer"),
    ("/cards/{id}", "list_requests"),
    ("/settings", "list_requests"),
    ("/settings", "settings"),  # POST: the page's form
    ("/settings/grants/{id}/revoke", "answer"),
]


def route_permissions() -> list[tuple[str, str]]:
    """Every authenticated route and its permission (page answers need ``answer``)."""
    api_routes = [(op.path, op.permission) for op in OPERATIONS if op.permission is not None]
    return api_routes + _PAGE_PERMISSIONS


async def _openapi(request: Request) -> Response:
    return JSONResponse(document(OPERATIONS))


def routes() -> list[BaseRoute]:
    """The application's routes, each API route behind its permission."""
    out: list[BaseRoute] = [Route("/health", api.health, methods=["GET"])]
    out += [
        Route(op.path, guarded(op.permission or "docs", handler), methods=[op.method]) for op, handler in API
    ]
    out.append(Route("/v1/openapi.json", _openapi, methods=["GET"]))
    out += [Route(path, handler, methods=[method]) for method, path, handler in PAGE_ROUTES]
    static = StaticFiles(packages=[("bastion.adapters.http", "static")])
    out.append(Mount("/static", static, name="static"))
    return out
