"""``bastion approvals list|approve|deny``: answer parked calls from a terminal.

Also holds the small helpers the other state commands (grants, logs) share: where the
state database is, and how times are shown.
"""

from __future__ import annotations

import os
import time
from datetime import datetime
from typing import Annotated

import typer
from rich.console import Console
from rich.live import Live
from rich.table import Table

from bastion.adapters.cli.approver import KeyOption, approver_identity
from bastion.adapters.cli.common import JsonOption, WideOption, fail, print_json
from bastion.adapters.cli.tables import Column, Fit, build_table, print_rows
from bastion.approval import hints
from bastion.approval.clock import SystemClock
from bastion.approval.model import ApprovalRequest, Scope
from bastion.approval.queue import AnswerError, ApprovalQueue
from bastion.approval.state import RequestState
from bastion.approval.store import Store
from bastion.audit.resolutions import LedgerResolutions
from bastion.errors import BastionError
from bastion.policy.sources import state_dir_from
from bastion.runtime import DB_FILE
from bastion.state import Stores

#: Exit code when an answer cannot be applied (already resolved, expired, not grantable).
EXIT_CONFLICT = 1

approvals_app = typer.Typer(name="approvals", help="List and answer parked tool calls.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(approvals_app, name="approvals")


def db_path() -> str:
    """``$BASTION_STATE_DIR/bastion.db`` (default ``~/.local/state/bastion/bastion.db``)."""
    return os.path.join(state_dir_from(os.environ), DB_FILE)


def open_state() -> Stores:
    """The state that applies here (SQLite, or PostgreSQL by ``BASTION_STATE_URL`` / the
    policy's ``state_url``)."""
    from bastion.state import open_stores_from_env

    try:
        return open_stores_from_env()
    except BastionError as exc:
        fail(str(exc), hint="check BASTION_STATE_DIR points at a writable folder")


def open_store() -> Store:
    """The approval store of the state that applies here."""
    try:
        return open_state().approvals
    except BastionError as exc:
        fail(str(exc), hint="check BASTION_STATE_DIR points at a writable folder")


def open_queue(stores: Stores) -> ApprovalQueue:
    """The queue over ``stores``, recording every resolution it makes in their ledger."""
    return ApprovalQueue(stores.approvals, SystemClock(), recorder=LedgerResolutions(stores.ledger))


def local_time(ts: float | None) -> str:
    return "" if ts is None else datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M:%S")


def until(ts: float, now: float) -> str:
    left = int(ts - now)
    if left <= 0:
        return "due"
    return f"in {left // 60}m{left % 60:02d}s" if left >= 60 else f"in {left}s"


def runs_in(request: ApprovalRequest) -> str:
    """Where an approved call runs: the profile its decision carries (hosts included)."""
    profile = request.evaluation.profile
    if profile is not None:
        return f"sandbox: {profile.label}"
    return "as written (no sandbox)" if request.tool == "shell" else ""


def _rows(requests: list[ApprovalRequest], now: float) -> list[list[str]]:
    rows = []
    for r in requests:
        offer = r.offer
        if not offer["grantable"]:
            grant = "cannot be granted (hardline)"
        elif r.suggested_pattern:
            grant = f"--always [--pattern '{r.suggested_pattern}'] -- {r.id}"
        else:
            grant = f"--always -- {r.id}"
        expires = until(r.expires, now) if r.state is RequestState.PENDING else local_time(r.resolved_at)
        rows.append(
            [
                r.id,
                r.state.value,
                r.tool,
                r.summary,
                r.reason,
                runs_in(r),
                local_time(r.created),
                expires,
                grant if r.state is RequestState.PENDING else (r.grant_id or ""),
            ]
        )
    return rows


REQUEST_COLUMNS = (
    Column("id", key=True),
    Column("state", keep=8),
    Column("tool", keep=3),  # the summary starts with it
    Column("summary", fit=Fit.MIDDLE, keep=9, least=24),
    Column("reason", keep=5),
    Column("runs in", keep=7),
    Column("created", keep=4),
    Column("expires", keep=6),
    Column("grant", fit=Fit.MIDDLE, keep=2),
)


def _view(queue: ApprovalQueue, show_all: bool) -> Table:
    return build_table(REQUEST_COLUMNS, _rows(_snapshot(queue, show_all), time.time()))


def _snapshot(queue: ApprovalQueue, show_all: bool) -> list[ApprovalRequest]:
    queue.expire_due()  # a waiter that died cannot expire (nor record) its own request
    return queue.store.list_requests(None if show_all else [RequestState.PENDING])


@approvals_app.command("list")
def list_requests(
    show_all: Annotated[bool, typer.Option("--all", help="Every state, not only pending.")] = False,
    json_out: JsonOption = False,
    watch: Annotated[bool, typer.Option("--watch", help="Keep showing changes until Ctrl-C.")] = False,
    wide: WideOption = False,
) -> None:
    """Show pending requests (--all: every state)."""
    stores = open_state()
    try:
        queue = open_queue(stores)
        if not watch:
            requests = _snapshot(queue, show_all)
            if json_out:
                print_json([_contract(r) for r in requests])
            elif requests:
                rows = _rows(requests, time.time())
                print_rows(REQUEST_COLUMNS, rows, title="approval requests", wide=wide)
            else:
                Console(highlight=False).print("no pending requests" if not show_all else "no requests")
            return
        _watch(queue, show_all, json_out)
    except BastionError as exc:
        fail(str(exc), hint=exc.hint)
    finally:
        stores.close()


def _contract(r: ApprovalRequest) -> dict[str, object]:
    data = r.to_json()
    return {k: data[k] for k in ("id", "state", "tool", "summary", "reason", "created", "expires")}


def _watch(store: ApprovalQueue, show_all: bool, json_out: bool) -> None:
    last: object = None
    try:
        if json_out:  # one JSON array per line, each time the list changes
            while True:
                current = [_contract(r) for r in _snapshot(store, show_all)]
                if current != last:
                    print_json(current)
                    last = current
                time.sleep(0.5)
        with Live(_view(store, show_all), auto_refresh=False) as live:
            while True:
                time.sleep(0.5)
                live.update(_view(store, show_all), refresh=True)
    except KeyboardInterrupt:
        return


def _answer(
    request_id: str,
    *,
    key: str | None,
    approve: bool,
    always: bool = False,
    pattern: str | None = None,
    scope: Scope = Scope.PROJECT,
    feedback: str | None = None,
    uncontained: bool = False,
) -> ApprovalRequest:
    """Find the request, establish who answers (``--key`` or a terminal confirmation),
    then answer; the ledger gets the resolution with its approver."""
    stores = open_state()
    try:
        queue = open_queue(stores)
        request = queue.find(request_id)
        verb = ("approve always" if always else "approve") if approve else "deny"
        if uncontained:
            verb = "approve uncontained (run as written, outside the sandbox)"
        approver = approver_identity(
            key, what=f"{verb} request {request.id}: {request.summary}", token=request.id
        )
        return queue.answer(
            request.id,
            approve=approve,
            always=always,
            pattern=pattern,
            scope=scope,
            feedback=feedback,
            approver=approver,
            uncontained=uncontained,
        )
    except AnswerError as exc:
        fail(str(exc), hint=exc.hint, code=EXIT_CONFLICT)
    except BastionError as exc:
        fail(str(exc), hint=exc.hint)
    finally:
        stores.close()


@approvals_app.command("approve")
def approve(
    request_id: Annotated[str, typer.Argument(metavar="ID", help="Request id (or a unique prefix).")],
    always: Annotated[bool, typer.Option("--always", help="Also grant it from now on.")] = False,
    pattern: Annotated[
        str | None,
        typer.Option("--pattern", help="With --always: a command prefix to grant, e.g. 'git push origin *'."),
    ] = None,
    scope: Annotated[
        Scope, typer.Option("--scope", help="With --always: project or session.")
    ] = Scope.PROJECT,
    uncontained: Annotated[
        bool,
        typer.Option(
            "--uncontained",
            help="Approve uncontained: run this one call as written, outside the sandbox "
            "(never with --always).",
        ),
    ] = False,
    key: KeyOption = None,
    json_out: JsonOption = False,
) -> None:
    """Approve a parked call once, or always (a standing grant: the exact call by default).
    An approved call runs in the sandbox profile shown; --uncontained runs this one call
    as written instead, recorded with its approver. Needs --key KEY (an approver key) or a
    confirmation typed on a terminal."""
    if uncontained and always:
        fail("--uncontained is one call's answer, never a standing grant: drop --always")
    if pattern is not None and not always:
        fail("--pattern needs --always", hint=hints.approve(request_id, "--always", "--pattern '…'"))
    if scope is not Scope.PROJECT and not always:
        fail("--scope needs --always", hint=hints.approve(request_id, "--always", "--scope", scope.value))
    done = _answer(
        request_id,
        key=key,
        approve=True,
        always=always,
        pattern=pattern,
        scope=scope,
        uncontained=uncontained,
    )
    if json_out:
        print_json(done.to_json())
        return
    message = f"approved {done.id}{' uncontained' if uncontained else ''}: {done.summary}"
    if done.grant_id:
        message += (
            f"\nstanding grant {done.grant_id} ({scope.value}): revoke with '{hints.revoke(done.grant_id)}'"
        )
    Console(highlight=False).print(message, markup=False)


@approvals_app.command("deny")
def deny(
    request_id: Annotated[str, typer.Argument(metavar="ID", help="Request id (or a unique prefix).")],
    feedback: Annotated[
        str | None, typer.Option("--feedback", help="Told to the agent, e.g. 'use the stdlib instead'.")
    ] = None,
    key: KeyOption = None,
    json_out: JsonOption = False,
) -> None:
    """Deny a parked call, optionally telling the agent what to do instead. Needs --key KEY
    (an approver key) or a confirmation typed on a terminal."""
    done = _answer(request_id, key=key, approve=False, feedback=feedback)
    if json_out:
        print_json(done.to_json())
        return
    Console(highlight=False).print(f"denied {done.id}: {done.summary}", markup=False)
