"""``create_app(settings)``: the Starlette application of one gateway daemon."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator, Callable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.types import Receive, Scope, Send

from bastion.adapters.http.boot import check_boot
from bastion.adapters.http.context import Context
from bastion.adapters.http.decide_path import DecideEndpoint
from bastion.adapters.http.errors import EXCEPTION_HANDLERS
from bastion.adapters.http.events import EventHub
from bastion.adapters.http.middleware import BodyLimitMiddleware, RequestIdMiddleware
from bastion.adapters.http.resolver import LoopSafeResolver
from bastion.adapters.http.routes import route_permissions, routes
from bastion.adapters.http.service import GatewayService, request_object
from bastion.adapters.http.settings import GatewaySettings, ServerSettings
from bastion.adapters.http.timeouts import BodyTimeoutMiddleware
from bastion.construct import GateOptions
from bastion.keys.sqlite import KEYS_FILE
from bastion.keys.store import KeyStore
from bastion.lifecycle import PolicyWatch
from bastion.policy.network import SystemResolver
from bastion.state import Stores, open_stores, state_url_for
from bastion.state.web_sessions import GatewayState

__all__ = ["GatewayApp", "create_app"]

log = logging.getLogger("bastion.http")

LOGIN_ATTEMPTS_PER_MINUTE = 10


def create_app(settings: ServerSettings, *, keys: KeyStore | None = None) -> GatewayApp:
    """Load the policy (PolicyError when it does not load), open the stores, check the
    boot refusals (BootRefused) and return the application."""
    resolver = LoopSafeResolver(settings.resolver or SystemResolver())  # one cache for the daemon's life
    options = GateOptions(resolver=resolver, sandboxed=settings.sandboxed)
    holder = PolicyWatch(settings.policy_path, cwd=settings.cwd, env=settings.env, options=options)
    policy = holder.base.policy
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
    state = (
        stores.gateway_state()
        if stores.url
        else GatewayState.beside(keys, os.path.join(policy.state_dir, KEYS_FILE))
    )
    ctx = _context(settings, gateway, holder, stores, keys, state, resolver)
    app = GatewayApp(
        routes=routes(),
        middleware=_middleware(settings, gateway),
        lifespan=_lifespan(ctx, stores),
        exception_handlers=dict(EXCEPTION_HANDLERS),
    )
    app.state.ctx = ctx
    # With CORS configured, the decide route keeps Starlette's stack (the CORS middleware).
    app.decide = None if gateway.cors else DecideEndpoint(ctx)
    return app


class GatewayApp(Starlette):
    """Starlette, except ``POST /v1/decide``: answered by ``decide`` (the same answers as the
    route, without Starlette's layers) when it is set."""

    decide: DecideEndpoint | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            self.decide is not None
            and scope["type"] == "http"
            and scope["path"] == "/v1/decide"
            and scope["method"] == "POST"
            and not scope.get("root_path")
        ):
            scope["app"] = self
            await self.decide(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def _context(
    settings: ServerSettings,
    gateway: GatewaySettings,
    holder: PolicyWatch,
    stores: Stores,
    keys: KeyStore,
    state: GatewayState,
    resolver: LoopSafeResolver,
) -> Context:
    service = GatewayService(holder, state, resolver)
    first = holder.base
    hub = EventHub(
        first.store,
        interval=settings.events_interval,
        now=time.time,
        expire=first.queue.expire_due,
        render=lambda r: request_object(r, service.final_of(r)),
    )
    return Context(
        settings=settings,
        gateway=gateway,
        keys=keys,
        state=state,
        holder=holder,
        service=service,
        hub=hub,
        limiter=stores.rate_limiter(gateway.rate_limit_per_minute),
        login_limiter=stores.rate_limiter(LOGIN_ATTEMPTS_PER_MINUTE, scope="login"),
    )


def _lifespan(
    ctx: Context, stores: Stores
) -> Callable[[Starlette], contextlib.AbstractAsyncContextManager[None]]:
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        reload = _reload_loop(ctx.holder, ctx.settings)
        tasks = [asyncio.create_task(ctx.hub.run()), asyncio.create_task(reload)]
        try:
            yield
        finally:
            ctx.hub.close()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await ctx.service.close()
            ctx.holder.close()
            ctx.state.close()
            ctx.keys.close()
            stores.close()

    return lifespan


def _middleware(settings: ServerSettings, gateway: GatewaySettings) -> list[Middleware]:
    middleware = [
        Middleware(RequestIdMiddleware),
        Middleware(BodyTimeoutMiddleware, seconds=settings.body_timeout),
        Middleware(BodyLimitMiddleware, max_bytes=gateway.max_body_bytes),
    ]
    if gateway.cors:
        cors = Middleware(
            CORSMiddleware,
            allow_origins=["*"] if gateway.allow_any_origin else list(gateway.cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["X-API-Key", "Authorization", "Content-Type", "X-Request-Id"],
            expose_headers=["X-Request-Id", "Retry-After"],
            max_age=600,
        )
        middleware.append(cors)
    return middleware


async def _reload_loop(holder: PolicyWatch, settings: ServerSettings) -> None:
    while True:
        await asyncio.sleep(settings.reload_interval)
        try:
            if holder.changed():
                await asyncio.to_thread(holder.reload)
        except Exception as exc:  # never let the watcher die: the next round tries again
            log.error("policy watcher: %s", exc)
