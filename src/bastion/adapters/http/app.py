"""``create_app(settings)``: the Starlette application of one gateway daemon."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from bastion.adapters.http import api, page, ready
from bastion.adapters.http.boot import check_boot
from bastion.adapters.http.context import Context, Handler, guarded
from bastion.adapters.http.errors import EXCEPTION_HANDLERS
from bastion.adapters.http.events import EventHub
from bastion.adapters.http.middleware import BodyLimitMiddleware, RequestIdMiddleware
from bastion.adapters.http.openapi import Operation, document
from bastion.adapters.http.resolver import LoopSafeResolver
from bastion.adapters.http.service import GatewayService, request_object
from bastion.adapters.http.settings import ServerSettings
from bastion.adapters.http.timeouts import BodyTimeoutMiddleware
from bastion.construct import GateOptions
from bastion.keys.sqlite import KEYS_FILE
from bastion.keys.store import KeyStore
from bastion.lifecycle import PolicyWatch
from bastion.policy.network import SystemResolver
from bastion.state import open_stores, state_url_for
from bastion.state.web_sessions import GatewayState

log = logging.getLogger("bastion.http")

LOGIN_ATTEMPTS_PER_MINUTE = 10

API: list[tuple[Operation, Handler]] = [
    (Operation("POST", "/v1/decide", "decide", "Decide a tool call; nothing is parked or recorded",
               body="ToolCall", response="Evaluation"), api.decide),
    (Operation("POST", "/v1/requests", "request", "Decide and, on ASK, park the call (202)",
               body="ToolCall", response="Request", status=202), api.create_request),
    (Operation("GET", "/v1/requests", "list_requests", "List requests (newest first)", response="Object",
               query=(("state", "string", "pending (default), all, or states joined by commas"),
                      ("limit", "integer", "at most 1000"))), api.list_requests),
    (Operation("GET", "/v1/requests/{id}", "read_request", "A request; long-polls with ?wait=SECONDS",
               response="Request", query=(("wait", "number", "seconds to wait for an answer"),)),
     api.get_request),
    (Operation("POST", "/v1/requests/{id}/approve", "answer", "Approve once, or always (a scoped grant)",
               body="Approve", response="Request"), api.approve),
    (Operation("POST", "/v1/requests/{id}/deny", "answer", "Deny, with feedback for the agent",
               body="Deny", response="Request"), api.deny),
    (Operation("GET", "/v1/events", "events", "Server-Sent Events: 'request' and 'resolved'"), api.events),
    (Operation("GET", "/v1/logs", "logs", "Query the audit ledger", query=(
        ("session", "string", ""), ("since", "string", "epoch seconds, ISO-8601 or a duration ago"),
        ("decision", "string", "allow, ask or deny"), ("after_seq", "integer", ""),
        ("limit", "integer", "at most 1000"))), api.logs),
    (Operation("POST", "/v1/policy/check", "policy_check", "Validate a policy text", body="PolicyText",
               response="PolicyCheck"), api.policy_check),
    (Operation("GET", "/v1/settings", "list_requests", "The mode and ceiling in force (with where each came "
               "from), the roots and the standing grants with their evidence", response="Object"),
     api.settings),
    (Operation("POST", "/v1/grants/{id}/revoke", "answer", "Revoke a standing grant (approver role)",
               response="Object"), api.revoke_grant),
    (Operation("GET", "/ready", "docs", "Readiness behind a key: policy, store, ledger and sandbox, "
               "each with its reason (503 when a required part is not ready)", response="Object"),
     ready.ready),
]
OPERATIONS = [Operation("GET", "/health", None, "Liveness only"),
              *(op for op, _ in API),
              Operation("GET", "/v1/openapi.json", "docs", "This document")]
PAGE_ROUTES: list[tuple[str, str, Callable[[Request], Awaitable[Response]]]] = [
    ("GET", "/", page.index), ("GET", "/history", page.history), ("POST", "/login", page.login),
    ("POST", "/logout", page.logout), ("GET", "/cards/{id}", page.card),
    ("POST", "/requests/{id}/answer", page.answer), ("GET", "/settings", page.settings),
    ("POST", "/settings/grants/{id}/revoke", page.revoke),
]


def route_permissions() -> list[tuple[str, str]]:
    """Every authenticated route and its permission (page answers need ``answer``)."""
    return [(op.path, op.permission) for op in OPERATIONS if op.permission is not None] + \
        [("/requests/{id}/answer", "answer"), ("/cards/{id}", "list_requests"),
         ("/settings", "list_requests"), ("/settings/grants/{id}/revoke", "answer")]


async def _openapi(request: Request, principal: object) -> object:
    return document(OPERATIONS)


def _routes() -> list[BaseRoute]:
    routes: list[BaseRoute] = [Route("/health", api.health, methods=["GET"])]
    routes += [Route(op.path, guarded(op.permission or "docs", handler), methods=[op.method])
               for op, handler in API]
    routes.append(Route("/v1/openapi.json", guarded("docs", _openapi), methods=["GET"]))
    routes += [Route(path, handler, methods=[method]) for method, path, handler in PAGE_ROUTES]
    routes.append(Mount("/static", StaticFiles(packages=[("bastion.adapters.http", "static")]),
                        name="static"))
    return routes


def create_app(settings: ServerSettings, *, keys: KeyStore | None = None) -> Starlette:
    """Load the policy (PolicyError when it does not load), open the stores, check the
    boot refusals (BootRefused) and return the application."""
    resolver = LoopSafeResolver(settings.resolver or SystemResolver())  # one cache for the daemon's life
    options = GateOptions(resolver=resolver, sandboxed=settings.sandboxed)
    holder = PolicyWatch(settings.policy_path, cwd=settings.cwd, env=settings.env, options=options)
    first = holder.base
    policy = first.policy
    try:
        gateway = settings.gateway or holder.base_configuration.gateway
        stores = open_stores(state_url_for(holder.base_configuration.state, settings.env), policy.state_dir)
        keys = keys or stores.keys
        check_boot(settings.host, keys, route_permissions())
    except BaseException:
        holder.close()
        raise
    # On SQLite, logins and request owners live beside the keys on the same connection (a
    # second connection to keys.db in this process would drop the first one's locks).
    state = (stores.gateway_state() if stores.url
             else GatewayState.beside(keys, os.path.join(policy.state_dir, KEYS_FILE)))
    service = GatewayService(holder, state, resolver)
    hub = EventHub(first.store, interval=settings.events_interval, now=time.time,
                   expire=first.queue.expire_due, render=lambda r: request_object(r, service.final_of(r)))
    ctx = Context(settings=settings, gateway=gateway, keys=keys, state=state, holder=holder,
                  service=service, hub=hub, limiter=stores.rate_limiter(gateway.rate_limit_per_minute),
                  login_limiter=stores.rate_limiter(LOGIN_ATTEMPTS_PER_MINUTE, scope="login"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        tasks = [asyncio.create_task(hub.run()), asyncio.create_task(_reload_loop(holder, settings))]
        try:
            yield
        finally:
            hub.close()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await service.close()
            holder.close()
            state.close()
            keys.close()
            stores.close()

    middleware = [Middleware(RequestIdMiddleware),
                  Middleware(BodyTimeoutMiddleware, seconds=settings.body_timeout),
                  Middleware(BodyLimitMiddleware, max_bytes=gateway.max_body_bytes)]
    if gateway.cors_origins:
        middleware.append(Middleware(
            CORSMiddleware, allow_origins=list(gateway.cors_origins), allow_methods=["GET", "POST"],
            allow_headers=["X-API-Key", "Authorization", "Content-Type", "X-Request-Id"],
            expose_headers=["X-Request-Id", "Retry-After"], max_age=600))
    app = Starlette(routes=_routes(), middleware=middleware, lifespan=lifespan,
                    exception_handlers=dict(EXCEPTION_HANDLERS))
    app.state.ctx = ctx
    return app


async def _reload_loop(holder: PolicyWatch, settings: ServerSettings) -> None:
    while True:
        await asyncio.sleep(settings.reload_interval)
        try:
            if holder.changed():
                await asyncio.to_thread(holder.reload)
        except Exception as exc:  # never let the watcher die: the next round tries again
            log.error("policy watcher: %s", exc)
