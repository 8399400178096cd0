"""``bastion agents``, ``bastion launch``, ``bastion resume``: translation only."""

from __future__ import annotations

import json
import os
import sys
from typing import Annotated

import typer

from bastion.errors import BastionError
from bastion.launch.launcher import Ports, launch, resume, survey_known
from bastion.launch.sessions import SessionStore
from bastion.policy.ceiling import NO_CEILING, Ceiling

_BYPASS_HELP = "Replace the ceiling with never_ask,unrestricted,allowed for this run only."
_CEILING_HELP = "APPROVAL,FILESYSTEM,NETWORK for this command only (overrides the policy's)."


def _policy_ceiling() -> tuple[Ceiling, str]:
    from bastion.configuration import load_policy

    policy = load_policy(cwd=os.getcwd(), env=os.environ)
    if policy.ceiling is None:
        return NO_CEILING, "no [ceiling]: Bastion adds no restriction"
    return policy.ceiling, policy.ceiling_source


def _ceiling(option: str | None) -> tuple[Ceiling, str]:
    if option is None:
        return _policy_ceiling()
    try:
        return Ceiling.parse(option), "--ceiling"
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--ceiling") from exc


def _fail(exc: BastionError) -> typer.Exit:
    typer.echo(f"bastion: {exc}", err=True)
    if exc.hint:
        typer.echo(f"  hint: {exc.hint}", err=True)
    return typer.Exit(2)


def _store() -> SessionStore:
    from bastion.state import open_stores_from_env

    return open_stores_from_env().sessions


def _ports() -> Ports:
    """The real I/O. The audit ledger plugs in here: ``Ports(on_event=<ledger append>)``."""
    return Ports()


def _refuse_bypass(bypass: bool, what: str) -> None:
    if bypass:
        typer.echo(f"bastion: --bypass-permissions is refused with {what}: it starts nothing",
                   err=True)
        raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    @app.command("agents")
    def agents_cmd(
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
        ceiling: Annotated[str | None, typer.Option("--ceiling", help=_CEILING_HELP)] = None,
        bypass: Annotated[bool, typer.Option("--bypass-permissions", hidden=True)] = False,
    ) -> None:
        """List known agent CLIs on PATH and the flags each would get under the ceiling."""
        _refuse_bypass(bypass, "agents")
        try:
            value, source = _ceiling(ceiling)
            reports = survey_known(value, _ports())
        except BastionError as exc:
            raise _fail(exc) from exc
        if as_json:
            typer.echo(json.dumps([r.as_json() for r in reports], indent=2))
            return
        typer.echo(f"ceiling {value.text()} ({source})")
        for r in reports:
            state = "starts with " + (" ".join(r.mapping.flags) or "no flag") \
                if r.mapping.started else "not started"
            typer.echo(f"\n{r.agent} {r.version} ({r.path}): {state}")
            for line in (*r.mapping.notes, *(f"assumption: {a}" for a in r.mapping.assumptions)):
                typer.echo(f"  - {line}")

    @app.command("launch", context_settings={"allow_extra_args": True,
                                             "ignore_unknown_options": True},
                 add_help_option=False)
    def launch_cmd(
        ctx: typer.Context,
        agents: Annotated[str | None, typer.Argument(help="AGENT[,AGENT…] tried in order.")] = None,
        ceiling: Annotated[str | None, typer.Option("--ceiling", help=_CEILING_HELP)] = None,
        bypass: Annotated[bool, typer.Option("--bypass-permissions", help=_BYPASS_HELP)] = False,
        parent: Annotated[str | None, typer.Option(
            "--parent", help="Start a child of this session: its ceiling or a stricter one.")] = None,
        show_help: Annotated[bool, typer.Option("--help", help="Show this message.")] = False,
    ) -> None:
        """Start an agent under the ceiling: bastion launch AGENT[,AGENT…] [-- AGENT_ARGS…]."""
        if show_help or agents is None:
            _refuse_bypass(bypass, "--help")
            typer.echo(ctx.get_help())
            raise typer.Exit(0 if show_help else 2)
        names = [a.strip() for a in agents.split(",") if a.strip()]
        try:
            value, source = _ceiling(ceiling)
            store = _store()
            if parent is not None and ceiling is None:  # a child inherits: never looser than it
                saved = store.load(parent).ceiling
                value, source = value.meet(saved), f"{source}; child of session {parent}"
            outcome = launch(names, value, source, list(ctx.args), store=store, ports=_ports(),
                             cwd=os.getcwd(), bypass=bypass, parent=parent,
                             refresh=None if ceiling else lambda: _policy_ceiling()[0])
        except BastionError as exc:
            raise _fail(exc) from exc
        sys.stderr.write(f"bastion: session {outcome.session.id}\n")
        raise typer.Exit(outcome.exit_code)

    @app.command("resume", add_help_option=False)
    def resume_cmd(
        ctx: typer.Context,
        session: Annotated[str | None, typer.Argument(help="Session id from `bastion launch`.")] = None,
        ceiling: Annotated[str | None, typer.Option("--ceiling", help=_CEILING_HELP)] = None,
        bypass: Annotated[bool, typer.Option("--bypass-permissions", help=_BYPASS_HELP)] = False,
        show_help: Annotated[bool, typer.Option("--help", help="Show this message.")] = False,
    ) -> None:
        """Run a saved session again; refused if that would raise its ceiling."""
        if show_help or session is None:
            _refuse_bypass(bypass, "--help")
            typer.echo(ctx.get_help())
            raise typer.Exit(0 if show_help else 2)
        try:
            current, source = _policy_ceiling()
            requested = _ceiling(ceiling)[0] if ceiling else None
            outcome = resume(session, current, source, store=_store(), ports=_ports(),
                             requested=requested, bypass=bypass,
                             refresh=lambda: _policy_ceiling()[0])
        except BastionError as exc:
            raise _fail(exc) from exc
        raise typer.Exit(outcome.exit_code)

