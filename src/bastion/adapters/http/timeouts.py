"""Read timeouts for the gateway: no client holds a connection by sending slowly.

The request head must be complete within ``head_timeout`` of the connection (or of the
previous response: ``protocol``), and the body within ``body_timeout`` of the head (here:
uvicorn has no read timeout for a body at all).
"""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bastion.adapters.http.errors import ApiError
from bastion.adapters.http.protocol import HEAD_TIMEOUT, MAX_HEAD_BYTES, head_deadline_protocol

#: Seconds for the whole request body once the head is in.
BODY_TIMEOUT = 30.0
#: Seconds an idle keep-alive connection stays open.
KEEP_ALIVE = 5


def server_config(
    app: ASGIApp, *, head_timeout: float = HEAD_TIMEOUT, parser: str = "auto", **options: Any
) -> uvicorn.Config:
    """The uvicorn config every gateway runs with (``bastion serve`` and the tests); the
    protocol is ``protocol.head_deadline_protocol``'s."""
    options.setdefault("timeout_keep_alive", KEEP_ALIVE)
    options.setdefault("h11_max_incomplete_event_size", MAX_HEAD_BYTES)
    return uvicorn.Config(app, http=head_deadline_protocol(head_timeout, parser=parser), **options)


def body_timeout_error(seconds: float) -> ApiError:
    return ApiError(408, "body_timeout", f"the request body took longer than {seconds:g} s")


class BodyTimeoutMiddleware:
    """408 when the request body is not complete within ``seconds`` of the head. Only the
    body is timed: a later ``receive`` (waiting for a disconnect, as SSE does) is not."""

    def __init__(self, app: ASGIApp, seconds: float = BODY_TIMEOUT) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.seconds
        complete = False

        async def timed() -> Message:
            nonlocal complete
            if complete:
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise body_timeout_error(self.seconds) from None
            if message["type"] != "http.request" or not message.get("more_body", False):
                complete = True
            return message

        await self.app(scope, timed, send)
