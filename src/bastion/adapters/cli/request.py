"""``bastion request``: decide like ``check``, but park an ASK until a person answers.

Exit codes: 0 allow, 4 deny (including expired and cancelled), 3 when the policy leaves a
non-interactive ASK unresolved (``non_interactive_default = "ask"``), 2 usage/policy error.
"""

from __future__ import annotations

import dataclasses
import signal
from types import FrameType
from typing import Annotated

import typer
from rich.console import Console

from bastion.adapters.cli.check import FamilyArg, ValueArg, render
from bastion.adapters.cli.common import (
    CwdOption,
    JsonOption,
    NonInteractiveOption,
    PolicyOption,
    call_from_args,
    configuration_or_exit,
    fail,
    print_json,
    resolve_cwd,
    stderr,
)
from bastion.approval import hints
from bastion.approval.model import ApprovalRequest, iso
from bastion.construct import open_gatekeeper
from bastion.errors import BastionError, CallError

TimeoutOption = Annotated[
    float | None,
    typer.Option("--timeout", min=0.0, help="Wait at most S seconds (never longer than the policy's ttl)."),
]
SessionOption = Annotated[str | None, typer.Option("--session", help="Session id (limits, grants, logs).")]
AgentOption = Annotated[str | None, typer.Option("--agent", help="Agent name, for the ledger.")]
TurnOption = Annotated[str | None, typer.Option("--turn", help="Turn id (per-turn limits).")]


def register(app: typer.Typer) -> None:
    app.command(
        "request",
        help="Decide a call; on ask, park it until a person answers. "
        "Exit 0 allow, 4 deny or expired, 2 error.",
    )(request)


def _announce(request: ApprovalRequest) -> None:
    stderr.print(
        f"waiting for approval: request {request.id} (expires {iso(request.expires)})",
        markup=False,
        soft_wrap=True,
    )
    stderr.print(f"  {request.summary}", markup=False, soft_wrap=True)
    deny = hints.deny(request.id, "--feedback '…'")
    stderr.print(f"  answer with: {hints.approve(request.id)}  |  {deny}", markup=False, soft_wrap=True)


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # SIGTERM cancels the parked request like Ctrl-C


def request(
    family: FamilyArg = None,
    value: ValueArg = None,
    policy: PolicyOption = None,
    cwd: CwdOption = None,
    non_interactive: NonInteractiveOption = False,
    json_out: JsonOption = False,
    timeout: TimeoutOption = None,
    session: SessionOption = None,
    agent: AgentOption = None,
    turn: TurnOption = None,
) -> None:
    if family is None or value is None:
        fail("give FAMILY and ARG, e.g. bastion request shell 'git push origin main'")
    where = resolve_cwd(cwd)
    loaded = configuration_or_exit(policy, where, boot=True)
    try:
        call = call_from_args(family, value, cwd=where, interactive=not non_interactive)
    except CallError as exc:
        fail(str(exc))
    call = dataclasses.replace(call, session=session, agent=agent, turn=turn)
    try:
        keeper = open_gatekeeper(loaded)
    except BastionError as exc:
        fail(str(exc), hint="check BASTION_STATE_DIR points at a writable folder")
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        evaluation = keeper.request_sync(call, timeout=timeout, on_parked=_announce)
    except KeyboardInterrupt:
        stderr.print("cancelled: the request was withdrawn (a denial)")
        raise typer.Exit(4) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
        keeper.close()
    if json_out:
        print_json(evaluation.to_json())
    else:
        render(evaluation, Console(highlight=False))
    raise typer.Exit(evaluation.decision.exit_code)
