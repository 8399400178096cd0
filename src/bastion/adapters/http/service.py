"""What the routes do, without HTTP: decide, park, wait, answer, list, read the ledger.

One instance per daemon process. Parking runs ``Gatekeeper.request`` as a task that lives
on after the HTTP response: the request is answered later from anywhere (this daemon, the
CLI, another process) and the task records the resolution in the ledger.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections import OrderedDict
from typing import Any

from starlette.concurrency import run_in_threadpool

from bastion.adapters.http.errors import ApiError, invalid, not_found
from bastion.adapters.http.resolver import LoopSafeResolver
from bastion.adapters.http.settings_view import settings_object
from bastion.approval.clock import Clock, SystemClock
from bastion.approval.model import ApprovalRequest, Scope, iso
from bastion.approval.outcome import resolved
from bastion.approval.queue import AnswerError
from bastion.approval.state import RequestState
from bastion.audit.events import EventKind, LedgerRecord
from bastion.call.model import ToolCall
from bastion.errors import PolicyError
from bastion.lifecycle import PolicyWatch
from bastion.policy.amend import ChangeError
from bastion.policy.decision import Evaluation
from bastion.policy_edit import SettingsEditor, change_from
from bastion.runtime import Gatekeeper
from bastion.state.web_sessions import GatewayState

log = logging.getLogger("bastion.http")

RESULTS_KEPT = 4096
FINAL_GRACE = 1.0  # seconds a long-poll waits for this process's task to record the answer


def request_object(request: ApprovalRequest, final: Evaluation | None = None) -> dict[str, Any]:
    """The contract's request object, then detail keys for people and pages."""
    evaluation = final or (
        request.evaluation if not request.state.final else resolved(request, request.evaluation)
    )
    return {
        "id": request.id,
        "state": request.state.value,
        "decision": evaluation.decision.label,
        "evaluation": evaluation.to_json(),
        "feedback": request.feedback,
        "created": iso(request.created),
        "expires": iso(request.expires),
        "tool": request.tool,
        "summary": request.summary,
        "reason": request.reason,
        "offer": request.offer,
        "session": request.session,
        "agent": request.agent,
        "resolver": request.resolver,
        "resolved": iso(request.resolved_at),
        "approver": request.approver,
    }


def decided_object(evaluation: Evaluation, now: float) -> dict[str, Any]:
    """A ``POST /v1/requests`` that did not park: decided at once, nothing to wait for."""
    return {
        "id": None,
        "state": "decided",
        "decision": evaluation.decision.label,
        "evaluation": evaluation.to_json(),
        "feedback": None,
        "created": iso(now),
        "expires": None,
    }


class GatewayService:
    def __init__(
        self,
        holder: PolicyWatch,
        state: GatewayState,
        resolver: LoopSafeResolver,
        *,
        clock: Clock | None = None,
    ) -> None:
        self.holder = holder
        self.resolver = resolver
        self.state = state
        self.clock: Clock = clock or SystemClock()
        first = holder.base
        self.store = first.store
        self.ledger = first.ledger
        self.editor = SettingsEditor(holder, first.ledger, first.store, self.clock)
        self._tasks: dict[str, asyncio.Task[Evaluation]] = {}
        self._finals: OrderedDict[str, Evaluation] = OrderedDict()

    # -- deciding ------------------------------------------------------------------------
    async def decide(self, call: ToolCall) -> Evaluation:
        """Inline, unless the decision needs a host lookup: then again in a worker thread."""
        return await self._decide(self.holder.keeper, call)

    async def _decide(self, keeper: Gatekeeper, call: ToolCall) -> Evaluation:
        evaluation = self.decided_inline(keeper, call)
        if evaluation is None:
            evaluation = await self.decided_in_thread(keeper, call)
        return evaluation

    def decided_inline(self, keeper: Gatekeeper, call: ToolCall) -> Evaluation | None:
        """The decision on the event loop, or None when it needed an uncached host name."""
        with self.resolver.cached_only() as probe:
            evaluation = keeper.decide(call)
        return None if probe.missed else evaluation

    async def decided_in_thread(self, keeper: Gatekeeper, call: ToolCall) -> Evaluation:
        """The decision in a worker thread, where host names are looked up."""
        return await run_in_threadpool(keeper.decide, call)

    async def submit(
        self, call: ToolCall, *, key_id: str
    ) -> tuple[Evaluation | None, ApprovalRequest | None]:
        """Decide; on ASK park and return the request (its task waits on), else the answer."""
        keeper = self.holder.keeper
        # Decide once first (lookups, if any, in a worker thread): the decision ``request``
        # repeats on the event loop then finds every host name in the resolver's cache.
        await self._decide(keeper, call)
        parked: asyncio.Future[ApprovalRequest] = asyncio.get_running_loop().create_future()

        def on_parked(request: ApprovalRequest) -> None:
            self.state.set_owner(request.id, key_id, now=self.clock.now())
            if not parked.done():
                parked.set_result(request)

        task = asyncio.ensure_future(keeper.request(call, on_parked=on_parked))
        either: set[asyncio.Future[Any]] = {task, parked}
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        if parked.done():
            request = parked.result()
            self._tasks[request.id] = task
            task.add_done_callback(functools.partial(self._settled, request.id))
            return None, request
        parked.cancel()
        return task.result(), None

    def _settled(self, request_id: str, task: asyncio.Task[Evaluation]) -> None:
        self._tasks.pop(request_id, None)
        if not task.cancelled() and task.exception() is None:
            self._finals[request_id] = task.result()
            while len(self._finals) > RESULTS_KEPT:
                self._finals.popitem(last=False)

    # -- reading and waiting -------------------------------------------------------------
    def get(self, request_id: str) -> ApprovalRequest:
        request = self.store.get_request(request_id)
        if request is None:
            raise not_found(f"no request {request_id!r}")
        return request

    def owner(self, request_id: str) -> str | None:
        return self.state.owner(request_id)

    def final_of(self, request: ApprovalRequest) -> Evaluation | None:
        """The exact Evaluation this process's waiter returned (and recorded), if known."""
        return self._finals.get(request.id)

    async def wait(self, request_id: str, seconds: float) -> ApprovalRequest:
        """Until the request is final, or ``seconds`` pass; expires it when its time is up."""
        deadline = self.clock.now() + max(seconds, 0.0)
        watch = self.store.watch(request_id)
        try:
            while True:
                request = self.get(request_id)
                now = self.clock.now()
                if request.state.final:
                    await self._settle_here(request_id)
                    return request
                if now >= request.expires:
                    self.holder.keeper.queue.expire(request_id, now)  # recorded too
                    continue
                if now >= deadline:
                    return request
                step = min(deadline - now, request.expires - now, self.store.poll_interval)
                await self.clock.wait(watch.event, step)
                watch.event.clear()
        finally:
            watch.close()

    async def _settle_here(self, request_id: str) -> None:
        task = self._tasks.get(request_id)
        if task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait({task}, timeout=FINAL_GRACE)

    def pending(self, states: list[RequestState] | None, limit: int) -> list[ApprovalRequest]:
        return self.store.list_requests(states)[:limit]

    def history(self, *, limit: int = 50, since: float | None = None) -> list[LedgerRecord]:
        """Recent resolutions of parked requests, newest first."""
        start = since if since is not None else self.clock.now() - 7 * 86400
        records = self.ledger.events(since=start)
        return [r for r in reversed(records) if r.event.kind == EventKind.RESOLVED.value][:limit]

    # -- answering -----------------------------------------------------------------------
    def answer(
        self,
        request_id: str,
        *,
        key_id: str,
        approve: bool,
        always: bool = False,
        pattern: str | None = None,
        scope: str = "project",
        feedback: str | None = None,
        uncontained: bool = False,
    ) -> ApprovalRequest:
        request = self.get(request_id)
        if self.state.owner(request.id) == key_id:
            raise ApiError(403, "self_approval", "a request cannot be answered with the key that created it")
        try:
            chosen = Scope(scope)
        except ValueError:
            raise invalid(f"scope must be 'project' or 'session', not {scope!r}", "invalid_body") from None
        queue = self.holder.keeper.queue
        try:
            return queue.answer(
                request.id,
                approve=approve,
                always=always and approve,
                pattern=pattern,
                scope=chosen,
                feedback=feedback,
                resolver="person",
                approver=key_id,
                uncontained=uncontained,
            )
        except AnswerError as exc:
            if self.get(request.id).state.final:
                raise ApiError(409, "already_resolved", str(exc)) from exc
            raise invalid(f"{exc}" + (f" ({exc.hint})" if exc.hint else ""), "cannot_answer") from exc

    # -- settings ------------------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """The policy in force and the standing grants, each with its evidence."""
        grants = [(g, self.store.get_request(g.request_id) if g.request_id else None)
                  for g in self.store.list_grants()]  # fmt: skip
        # ``writes_to``: the person's own file, where a change made here is saved.
        return {**settings_object(self.holder.keeper.policy, grants), "writes_to": self.editor.own_file()}

    def change_settings(self, data: object, *, key_id: str) -> dict[str, Any]:
        """Apply a change (bastion.policy_edit): the settings in force after it, and what it
        did (the file written, grants revoked, notes where a later file still decides)."""
        try:
            applied = self.editor.apply(change_from(data, home=self.editor.home), approver=key_id)
        except ChangeError as exc:
            raise invalid(str(exc), "invalid_settings") from None
        except PolicyError as exc:
            raise invalid(
                f"nothing was written: with this change the policy would not load: {exc}", "invalid_settings"
            ) from None
        log.info("settings changed with key %s: %s", key_id, applied.to_json())
        return {**self.settings(), "change": applied.to_json()}

    def revoke_grant(self, grant_id: str, *, key_id: str) -> None:
        """Revoke a standing grant (recorded); the very next call it covered is decided again."""
        if grant_id not in {g.id for g in self.store.list_grants()}:
            raise not_found(f"no active grant {grant_id}")
        self.change_settings({"revoke_grants": [grant_id]}, key_id=key_id)

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=5)
