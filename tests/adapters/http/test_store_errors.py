"""A state store that is down is a clear 503 with a hint, never a 200 and never a bare 500."""

from __future__ import annotations

import asyncio
import json

from starlette.requests import Request

from bastion.adapters.http.errors import EXCEPTION_HANDLERS
from bastion.errors import StoreError


def test_a_store_error_renders_as_503_state_unavailable_with_the_hint() -> None:
    error = StoreError("connection refused")
    error.hint = "is PostgreSQL running at postgresql://db/bastion?"
    request = Request({"type": "http", "method": "POST", "path": "/v1/decide", "headers": [], "state": {}})
    handler = EXCEPTION_HANDLERS[StoreError]
    response = asyncio.run(handler(request, error))
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    assert json.loads(bytes(response.body)) == {
        "error": {
            "code": "state_unavailable",
            "message": "Bastion's state store is unavailable (is PostgreSQL running at postgresql://db/bastion?)",
        }
    }
