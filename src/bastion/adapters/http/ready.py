"""``GET /ready``: is this daemon able to decide, park and record calls right now?

Behind a key (any role: 401 without one). Each part is checked for real and reported with
its reason: the policy (loaded, or the error that broke the last reload), the approval store
(a read), the ledger (a read of its newest record), and the sandbox (bubblewrap can start a
sandbox here, or why not; a daemon whose policy never runs anything contained does not need
it, but a missing sandbox is still reported). 200 when every required part is ready, 503
with the failing parts otherwise: load balancers and ``systemctl`` readiness scripts read
the status, people read the reasons.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import JSONResponse

from bastion.adapters.http.auth import Principal
from bastion.adapters.http.context import context_of


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    detail: str
    required: bool = True

    def to_json(self) -> dict[str, object]:
        return {"ok": self.ok, "detail": self.detail, "required": self.required}


def run_check(name: str, probe: Callable[[], str], *, required: bool = True) -> Check:
    """``probe`` returns what it found; an exception is the reason it is not ready."""
    try:
        return Check(name, True, probe(), required)
    except Exception as exc:  # a readiness probe reports, never raises
        return Check(name, False, f"{type(exc).__name__}: {exc}", required)


def readiness(checks: list[Check]) -> tuple[int, dict[str, object]]:
    ready = all(c.ok for c in checks if c.required)
    body = {"ready": ready, "checks": {c.name: c.to_json() for c in checks}}
    return (200 if ready else 503), body


def _sandbox() -> str:
    from bastion.exec.select import bwrap_problem

    problem = bwrap_problem()
    if problem is not None:
        raise RuntimeError(problem)
    return "bubblewrap can start a sandbox"


async def ready(request: Request, principal: Principal) -> JSONResponse:
    """Routed through ``guarded("docs", …)``: any valid key, 401 without one."""
    ctx = context_of(request)
    error = ctx.holder.error
    keeper = ctx.holder.keeper

    def policy() -> str:
        if error is not None:
            raise RuntimeError(f"the policy failed to load (every call is denied): {error}")
        sources = keeper.policy.sources
        return f"loaded from {', '.join(sources)}" if sources else "built-in defaults"

    def store() -> str:
        pending = ctx.service.pending(None, 1)
        return f"readable ({len(pending)} recent request{'s' if len(pending) != 1 else ''} seen)"

    def ledger() -> str:
        first = ctx.service.ledger.events(limit=1)
        return "readable" if first else "readable (empty)"

    checks = [
        run_check("policy", policy),
        run_check("store", store),
        run_check("ledger", ledger),
        run_check("sandbox", _sandbox, required=bool(ctx.settings.sandboxed)),
    ]
    status, body = readiness(checks)
    return JSONResponse(body, status_code=status)
