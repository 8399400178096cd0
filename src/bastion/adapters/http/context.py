"""Everything a route needs, built once per daemon process by ``create_app``."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bastion.adapters.http.auth import Principal, authenticate, authorize, check_csrf
from bastion.adapters.http.errors import ApiError, rate_limited
from bastion.adapters.http.events import EventHub
from bastion.adapters.http.service import GatewayService
from bastion.adapters.http.settings import GatewaySettings, ServerSettings
from bastion.keys.store import KeyStore
from bastion.lifecycle import PolicyWatch
from bastion.state.ratelimit import RateLimiter
from bastion.state.web_sessions import GatewayState

log = logging.getLogger("bastion.http")

Handler = Callable[[Request, Principal], Awaitable[object]]


@dataclass
class Context:
    settings: ServerSettings
    gateway: GatewaySettings
    keys: KeyStore
    state: GatewayState
    holder: PolicyWatch
    service: GatewayService
    hub: EventHub
    limiter: RateLimiter
    login_limiter: RateLimiter
    now: Callable[[], float] = time.time
    #: ``gateway.timeout_seconds``, read once (the property parses the duration each time).
    timeout_seconds: float = field(init=False)

    def __post_init__(self) -> None:
        self.timeout_seconds = self.gateway.timeout_seconds


def context_of(request: Request) -> Context:
    ctx = request.app.state.ctx
    assert isinstance(ctx, Context)
    return ctx


def principal_for(
    request: Request, permission: str, *, csrf: bool = True, ctx: Context | None = None
) -> Principal:
    """Authenticate, count against the key's rate limit, then check role and (for a
    cookie login changing something) the CSRF header; page forms check their field.
    ``ctx``: the request's context when the caller holds it already."""
    ctx = ctx or context_of(request)
    principal = authenticate(request, ctx.keys, ctx.state, now=ctx.now())
    request.scope.setdefault("state", {})["key_id"] = principal.key.id  # request.state's dict
    retry = ctx.limiter.check(principal.key.id)
    if retry:
        raise rate_limited(retry, ctx.gateway.cooldown_reply)
    authorize(principal, permission)
    if csrf:
        check_csrf(principal, request)
    return principal


def guarded(permission: str, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """A route endpoint: auth, limits, the request timeout, and errors mapped to ApiError."""

    async def endpoint(request: Request) -> Response:
        principal = principal_for(request, permission)
        state = request.scope.setdefault("state", {})
        result = await bounded(context_of(request), state, handler(request, principal))
        return result if isinstance(result, Response) else JSONResponse(result)

    endpoint.__name__ = getattr(handler, "__name__", "endpoint")
    endpoint.permission = permission  # type: ignore[attr-defined]
    return endpoint


async def bounded(ctx: Context, state: Mapping[str, Any], work: Awaitable[object]) -> object:
    """``work``'s result within the request timeout (else 504); an ApiError as it is, any
    other exception logged with the request id and answered as a bare 500."""
    try:
        async with asyncio.timeout(ctx.timeout_seconds):
            return await work
    except TimeoutError:
        raise timed_out(ctx) from None
    except ApiError:
        raise
    except Exception as exc:
        raise internal(state, exc) from exc


def timed_out(ctx: Context) -> ApiError:
    return ApiError(504, "timeout", f"no answer within {ctx.gateway.request_timeout}")


def internal(state: Mapping[str, Any], exc: Exception) -> ApiError:
    """A handler's unexpected error: logged with the request id, answered as a bare 500."""
    rid = state.get("request_id", "-")
    log.error("request %s failed: %s: %s", rid, type(exc).__name__, exc, exc_info=exc)
    return ApiError(500, "internal", f"internal error (request id {rid})")
