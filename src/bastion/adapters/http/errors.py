"""Errors are raised anywhere as :class:`ApiError` and rendered here, in one place, as
``{"error": {"code", "message"}}`` with a stable code."""

from __future__ import annotations

import logging

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bastion.errors import StoreError

log = logging.getLogger("bastion.http")


class ApiError(Exception):
    def __init__(
        self, status: int, code: str, message: str, *, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}


def unauthenticated(
    message: str = "an API key is required (X-API-Key or Authorization: Bearer)", code: str = "missing_key"
) -> ApiError:
    return ApiError(401, code, message, headers={"WWW-Authenticate": 'Bearer realm="bastion"'})


def forbidden(message: str, code: str = "forbidden") -> ApiError:
    return ApiError(403, code, message)


def not_found(message: str = "no such resource") -> ApiError:
    return ApiError(404, "not_found", message)


def invalid(message: str, code: str = "invalid_call") -> ApiError:
    return ApiError(422, code, message)


def too_large(limit: int) -> ApiError:
    return ApiError(413, "body_too_large", f"the request body is larger than {limit} bytes")


def rate_limited(retry_after: int, reply: str = "Please slow down.") -> ApiError:
    """429 with the cooldown reply (``[gateway] cooldown_reply``) and when to retry."""
    return ApiError(
        429,
        "rate_limited",
        f"{reply} Too many requests for this key: retry in {retry_after} s",
        headers={"Retry-After": str(retry_after)},
    )


_HTTP_CODES = {
    400: "bad_request",
    401: "missing_key",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    429: "rate_limited",
}


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


async def render_api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.code, exc.message, exc.headers)


async def render_http_exception(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = _HTTP_CODES.get(exc.status_code, "http_error")
    return error_response(exc.status_code, code, str(exc.detail), dict(exc.headers or {}))


async def render_unexpected(request: Request, exc: Exception) -> Response:
    """Never leak internals: log them, with the request id, and answer a bare 500."""
    rid = getattr(request.state, "request_id", "-")
    log.error("request %s failed: %s: %s", rid, type(exc).__name__, exc, exc_info=exc)
    return error_response(500, "internal", f"internal error (request id {rid})")


async def render_store_error(request: Request, exc: Exception) -> Response:
    """The state store (SQLite file, PostgreSQL server) is unavailable: nothing was allowed;
    say so plainly, with how to fix it, instead of a bare 500."""
    assert isinstance(exc, StoreError)
    rid = getattr(request.state, "request_id", "-")
    log.error("request %s: state unavailable: %s", rid, exc)
    hint = f" ({exc.hint})" if exc.hint else ""
    return error_response(
        503, "state_unavailable", f"Bastion's state store is unavailable{hint}", {"Retry-After": "5"}
    )


EXCEPTION_HANDLERS = {
    ApiError: render_api_error,
    HTTPException: render_http_exception,
    StoreError: render_store_error,
    Exception: render_unexpected,
}
