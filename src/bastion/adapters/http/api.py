"""The ``/v1`` JSON API: translation between HTTP and :class:`GatewayService` only."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from bastion.adapters.http.auth import Principal
from bastion.adapters.http.context import Context, context_of
from bastion.adapters.http.errors import ApiError, invalid, not_found
from bastion.adapters.http.events import stream
from bastion.adapters.http.service import decided_object, request_object
from bastion.approval.state import RequestState
from bastion.call import strict_json
from bastion.call.model import ToolCall
from bastion.configuration import load_policy_text
from bastion.errors import BastionError, CallError, PolicyError
from bastion.keys.model import Role
from bastion.policy.model import parse_duration

MAX_FEEDBACK = 2000
MAX_LIST = 1000


def parse_json(raw: bytes) -> Any:
    """The body as strict JSON; 400 ``malformed_json`` when it is not."""
    try:
        return strict_json.loads(raw)
    except CallError as exc:  # not JSON, duplicate keys, NaN/Infinity, too deep: the input's fault
        raise ApiError(400, "malformed_json", f"the body is not strict JSON: {exc}") from None


async def json_body(request: Request, *, optional: bool = False) -> Any:
    raw = await request.body()
    if not raw.strip() and optional:
        return {}
    return parse_json(raw)


def _check_lengths(data: Mapping[str, Any], ctx: Context) -> None:
    limits = ctx.gateway
    for key in ("session", "turn", "agent"):
        value = data.get(key)
        if isinstance(value, str) and len(value) > limits.max_session_id_chars:
            raise invalid(f"'{key}' is longer than {limits.max_session_id_chars} characters", "too_long")
    args = data.get("args")
    command = args.get("command") if isinstance(args, Mapping) else None
    if isinstance(command, str) and len(command) > limits.max_command_chars:
        raise invalid(f"the command is longer than {limits.max_command_chars} characters", "too_long")


async def read_call(request: Request) -> ToolCall:
    """A ToolCall from the body (:func:`call_of`)."""
    return call_of(await json_body(request), context_of(request))


def call_of(data: Any, ctx: Context) -> ToolCall:
    """A ToolCall from the parsed body. ``interactive`` defaults to true here: a caller of the
    gateway is the kind of caller a person can be asked for (send false to say otherwise)."""
    if not isinstance(data, dict):
        raise invalid("a tool call must be a JSON object")
    _check_lengths(data, ctx)
    data.setdefault("interactive", True)
    try:
        return ToolCall.from_json(data, default_cwd=ctx.settings.cwd)
    except CallError as exc:
        raise invalid(str(exc)) from None


async def decide(request: Request, principal: Principal) -> object:
    call = await read_call(request)
    return (await context_of(request).service.decide(call)).to_json()


async def create_request(request: Request, principal: Principal) -> object:
    ctx = context_of(request)
    call = await read_call(request)
    evaluation, parked = await ctx.service.submit(call, key_id=principal.key.id)
    if parked is None:
        assert evaluation is not None
        return decided_object(evaluation, ctx.now())
    current = ctx.service.get(parked.id)
    return JSONResponse(request_object(current, ctx.service.final_of(current)), status_code=202)


def _number(request: Request, name: str, default: float, *, low: float, high: float) -> float:
    text = request.query_params.get(name)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        raise invalid(f"query parameter {name!r} must be a number", "invalid_query") from None
    if not math.isfinite(value):
        raise invalid(f"query parameter {name!r} must be a finite number", "invalid_query")
    return min(max(value, low), high)


async def get_request(request: Request, principal: Principal) -> object:
    ctx = context_of(request)
    request_id = request.path_params["id"]
    found = ctx.service.get(request_id)
    if principal.role is Role.AGENT and ctx.service.owner(found.id) != principal.key.id:
        raise not_found(f"no request {request_id!r}")  # an agent sees only its own
    longest = max(ctx.gateway.timeout_seconds - 1.0, 0.0)
    wait = _number(request, "wait", 0.0, low=0.0, high=longest)
    if wait > 0:
        found = await ctx.service.wait(found.id, wait)
    return request_object(found, ctx.service.final_of(found))


async def list_requests(request: Request, principal: Principal) -> object:
    ctx = context_of(request)
    wanted = request.query_params.get("state", "pending")
    if wanted == "all":
        states = None
    else:
        try:
            states = [RequestState(s) for s in wanted.split(",")]
        except ValueError:
            choices = ", ".join(["all", *(s.value for s in RequestState)])
            raise invalid(f"state must be one of {choices}", "invalid_query") from None
    limit = int(_number(request, "limit", 100, low=1, high=MAX_LIST))
    return {
        "requests": [request_object(r, ctx.service.final_of(r)) for r in ctx.service.pending(states, limit)]
    }


def _fields(data: Any, allowed: dict[str, type | tuple[type, ...]]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise invalid("the body must be a JSON object", "invalid_body")
    unknown = set(data) - set(allowed)
    if unknown:
        raise invalid(f"unknown field(s): {', '.join(sorted(unknown))}", "invalid_body")
    for key, kind in allowed.items():
        if key in data and data[key] is not None and not isinstance(data[key], kind):
            raise invalid(f"'{key}' has the wrong type", "invalid_body")
    return data


async def approve(request: Request, principal: Principal) -> object:
    ctx = context_of(request)
    fields: dict[str, type | tuple[type, ...]] = {
        "always": bool,
        "pattern": str,
        "scope": str,
        "uncontained": bool,
    }
    body = _fields(await json_body(request, optional=True), fields)
    done = ctx.service.answer(
        request.path_params["id"],
        key_id=principal.key.id,
        approve=True,
        always=bool(body.get("always")),
        pattern=body.get("pattern"),
        scope=body.get("scope") or "project",
        uncontained=bool(body.get("uncontained")),
    )
    return request_object(done)


async def deny(request: Request, principal: Principal) -> object:
    ctx = context_of(request)
    body = _fields(await json_body(request, optional=True), {"feedback": str})
    feedback = (body.get("feedback") or "").strip() or None
    if feedback is not None and len(feedback) > MAX_FEEDBACK:
        raise invalid(f"feedback is longer than {MAX_FEEDBACK} characters", "too_long")
    done = ctx.service.answer(
        request.path_params["id"], key_id=principal.key.id, approve=False, feedback=feedback
    )
    return request_object(done)


async def events(request: Request, principal: Principal) -> object:
    hub = context_of(request).hub
    return StreamingResponse(
        stream(hub, hub.subscribe()),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def _since(text: str | None, now: float) -> float | None:
    """``since``: seconds since the epoch, an ISO-8601 time, or a duration ago (``1h``)."""
    if not text:
        return None
    for parse in (
        float,
        lambda t: now - parse_duration(t),
        lambda t: datetime.fromisoformat(t.replace("Z", "+00:00")).timestamp(),
    ):
        try:
            return float(parse(text))
        except ValueError:
            continue
    raise invalid("since must be epoch seconds, an ISO-8601 time or a duration like '1h'", "invalid_query")


async def logs(request: Request, principal: Principal) -> object:
    ctx = context_of(request)
    q = request.query_params
    decision = q.get("decision")
    if decision is not None and decision not in ("allow", "ask", "deny"):
        raise invalid("decision must be allow, ask or deny", "invalid_query")
    after = int(_number(request, "after_seq", 0, low=0, high=2**62))
    limit = int(_number(request, "limit", 100, low=1, high=MAX_LIST))
    records = ctx.service.ledger.events(
        session=q.get("session"),
        since=_since(q.get("since"), ctx.now()),
        decision=decision,
        after_seq=after,
        limit=limit,
    )
    return {"events": [r.to_json() for r in records], "next_after_seq": records[-1].seq if records else after}


async def policy_check(request: Request, principal: Principal) -> object:
    ctx = context_of(request)
    body = _fields(await json_body(request), {"text": str, "path": str})
    if not isinstance(body.get("text"), str):
        raise invalid("'text' (the policy's TOML) is required", "invalid_body")
    try:
        load_policy_text(body["text"], cwd=ctx.settings.cwd, env=ctx.settings.env, path=body.get("path"))
    except PolicyError as exc:
        return {
            "ok": False,
            "error": {"file": exc.file, "line": exc.line, "key": exc.key, "message": exc.detail},
        }
    except BastionError as exc:
        return {"ok": False, "error": {"file": "", "line": None, "key": "", "message": str(exc)}}
    return {"ok": True, "error": None}


async def settings(request: Request, principal: Principal) -> object:
    return context_of(request).service.settings()


async def change_settings(request: Request, principal: Principal) -> object:
    """``POST /v1/settings``: a JSON object of settings to change (bastion.policy_edit)."""
    data = await json_body(request)
    service = context_of(request).service
    return await run_in_threadpool(service.change_settings, data, key_id=principal.key.id)


async def revoke_grant(request: Request, principal: Principal) -> object:
    grant_id = request.path_params["id"]
    context_of(request).service.revoke_grant(grant_id, key_id=principal.key.id)
    return {"revoked": grant_id}


async def health(request: Request) -> Response:
    return JSONResponse({"status": "ok"})
