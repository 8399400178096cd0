"""``bastion agents``, ``bastion launch``, ``bastion resume``: translation only.

``launch`` and ``resume`` start an agent, so they run the one boot check every entry point
runs (:mod:`bastion.boot`) on the policy that applies, whether or not ``--ceiling`` replaces
its ceiling: a policy that does not load, or that no entry point may start on, starts nothing.

Each agent runs inside its ``agent:AGENT`` sandbox (``agent_sandbox``): an agent that cannot
be contained here is not started. ``--uncontained`` runs it on the host instead, and says so.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from typing import Annotated

import typer

from bastion.boot import check_boot
from bastion.errors import BastionError
from bastion.launch.launcher import Ports, launch, resume, survey_known
from bastion.launch.sessions import SessionStore
from bastion.policy.ceiling import NO_CEILING, Ceiling
from bastion.policy.compiled import Policy

_BYPASS_HELP = "Replace the ceiling with never_ask,unrestricted,allowed for this run only."
_CEILING_HELP = "APPROVAL,FILESYSTEM,NETWORK for this command only (overrides the policy's)."
_PARENT_HELP = "Start a child of this session: its ceiling or a stricter one."
_UNCONTAINED_HELP = "Run the agent on the host, not in its agent:AGENT sandbox (hooks still decide)."

CeilingOption = Annotated[str | None, typer.Option("--ceiling", help=_CEILING_HELP)]
HelpOption = Annotated[bool, typer.Option("--help", help="Show this message.")]
UncontainedOption = Annotated[bool, typer.Option("--uncontained", help=_UNCONTAINED_HELP)]


def _policy() -> Policy:
    from bastion.configuration import load_policy

    return load_policy(cwd=os.getcwd(), env=os.environ)


def _ceiling_of(policy: Policy) -> tuple[Ceiling, str]:
    if policy.ceiling is None:
        return NO_CEILING, "no [ceiling]: Bastion adds no restriction"
    return policy.ceiling, policy.ceiling_source


def _policy_ceiling() -> tuple[Ceiling, str]:
    return _ceiling_of(_policy())


def _booted_ceiling(option: str | None) -> tuple[Ceiling, str]:
    """The ceiling for an agent about to start, after the boot check on the policy."""
    policy = _policy()
    check_boot(policy)
    return _ceiling_of(policy) if option is None else _parsed(option)


def _ceiling(option: str | None) -> tuple[Ceiling, str]:
    return _policy_ceiling() if option is None else _parsed(option)


def _parsed(option: str) -> tuple[Ceiling, str]:
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


def _contained_ports(names: list[str], uncontained: bool) -> Ports:
    """Each agent started in its ``agent:AGENT`` sandbox, or on the host with a warning."""
    if uncontained:
        sys.stderr.write("bastion: --uncontained: the agent runs on the host, outside its sandbox\n")
        return _ports()
    from bastion.adapters.cli.agent_sandbox import ContainedRunner
    from bastion.adapters.hooks.policy_cache import load_cached_policy
    from bastion.launch.agents import locate, spec_for

    cwd = os.getcwd()
    found = {name: locate(spec_for(name), None) for name in names}
    agent_of = {path: name for name, path in found.items() if path is not None}
    loaded = load_cached_policy(None, cwd=cwd, env=os.environ)
    return Ports(run=ContainedRunner(loaded, dict(os.environ), agent_of, cwd))


def _refuse_bypass(bypass: bool, what: str) -> None:
    if bypass:
        typer.echo(f"bastion: --bypass-permissions is refused with {what}: it starts nothing", err=True)
        raise typer.Exit(2)


def _show_help(ctx: typer.Context, bypass: bool, asked: bool) -> typer.Exit:
    _refuse_bypass(bypass, "--help")
    typer.echo(ctx.get_help())
    return typer.Exit(0 if asked else 2)


def _hook_words(name: str) -> list[str]:
    """What Bastion's hook can make the agent do (its registry record): [] with no hook."""
    from bastion.agents.registry import BY_NAME

    record = BY_NAME.get(name)
    if record is None or record.hooks is None:
        return []
    return record.hooks.enforcement.words().split(", ")


def _hook_line(name: str) -> str:
    words = _hook_words(name)
    if not words:
        return f"hook: none; bastion launch {name} runs it in its agent:{name} sandbox"
    line = f"hook: bastion install {name} (its answers hold: {', '.join(words)})"
    if "rewrite" not in words:
        line += f"; calls it runs are not contained unless started with bastion launch {name}"
    return line


def _title(name: str) -> str:
    from bastion.agents.registry import BY_NAME

    record = BY_NAME.get(name)
    return record.title if record is not None else name


def agents_cmd(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    ceiling: CeilingOption = None,
    bypass: Annotated[bool, typer.Option("--bypass-permissions", hidden=True)] = False,
) -> None:
    """List known agent CLIs on PATH, the flags each would get under the ceiling and what
    Bastion's hook can do in it; then the known agents not on PATH."""
    _refuse_bypass(bypass, "agents")
    try:
        value, source = _ceiling(ceiling)
        reports = survey_known(value, _ports())
    except BastionError as exc:
        raise _fail(exc) from exc
    if as_json:
        rows = [{**r.as_json(), "title": _title(r.agent), "hook": _hook_words(r.agent)} for r in reports]
        typer.echo(json.dumps(rows, indent=2))
        return
    typer.echo(f"ceiling {value.text()} ({source})")
    for r in reports:
        flags = " ".join(r.mapping.flags) or "no flag"
        state = f"starts with {flags}" if r.mapping.started else "not started"
        typer.echo(f"\n{r.agent} {r.version} ({r.path}, {_title(r.agent)}): {state}")
        notes = (_hook_line(r.agent), *r.mapping.notes, *(f"assumption: {a}" for a in r.mapping.assumptions))
        for line in notes:
            typer.echo(f"  - {line}")
    _absent(r.agent for r in reports)


def _absent(found: Iterable[str]) -> None:
    """The registry's agents not on PATH, each with what Bastion would do for it."""
    from bastion.agents.registry import AGENTS

    seen = set(found)
    missing = [a for a in AGENTS if a.name not in seen]
    if missing:
        typer.echo("\nnot on PATH:")
    for record in missing:
        typer.echo(
            f"  {record.name} ({record.title}, checked with {record.verified}): {_hook_line(record.name)}"
        )


def launch_cmd(
    ctx: typer.Context,
    agents: Annotated[str | None, typer.Argument(help="AGENT[,AGENT…] tried in order.")] = None,
    ceiling: CeilingOption = None,
    bypass: Annotated[bool, typer.Option("--bypass-permissions", help=_BYPASS_HELP)] = False,
    parent: Annotated[str | None, typer.Option("--parent", help=_PARENT_HELP)] = None,
    uncontained: UncontainedOption = False,
    show_help: HelpOption = False,
) -> None:
    """Start an agent in its sandbox under the ceiling: bastion launch AGENT[,AGENT…] [-- AGENT_ARGS…]."""
    if show_help or agents is None:
        raise _show_help(ctx, bypass, show_help)
    names = [a.strip() for a in agents.split(",") if a.strip()]
    try:
        value, source = _booted_ceiling(ceiling)
        store = _store()
        if parent is not None and ceiling is None:  # a child inherits: never looser than it
            saved = store.load(parent).ceiling
            value, source = value.meet(saved), f"{source}; child of session {parent}"
        refresh = None if ceiling else lambda: _policy_ceiling()[0]
        outcome = launch(
            names,
            value,
            source,
            list(ctx.args),
            store=store,
            ports=_contained_ports(names, uncontained),
            cwd=os.getcwd(),
            bypass=bypass,
            parent=parent,
            refresh=refresh,
        )
    except BastionError as exc:
        raise _fail(exc) from exc
    sys.stderr.write(f"bastion: session {outcome.session.id}\n")
    raise typer.Exit(outcome.exit_code)


def resume_cmd(
    ctx: typer.Context,
    session: Annotated[str | None, typer.Argument(help="Session id from `bastion launch`.")] = None,
    ceiling: CeilingOption = None,
    bypass: Annotated[bool, typer.Option("--bypass-permissions", help=_BYPASS_HELP)] = False,
    uncontained: UncontainedOption = False,
    show_help: HelpOption = False,
) -> None:
    """Run a saved session again; refused if that would raise its ceiling."""
    if show_help or session is None:
        raise _show_help(ctx, bypass, show_help)
    try:
        current, source = _booted_ceiling(None)
        requested = _parsed(ceiling)[0] if ceiling else None
        store = _store()
        names = list(store.load(session).agents)
        outcome = resume(
            session,
            current,
            source,
            store=store,
            ports=_contained_ports(names, uncontained),
            requested=requested,
            bypass=bypass,
            refresh=lambda: _policy_ceiling()[0],
        )
    except BastionError as exc:
        raise _fail(exc) from exc
    raise typer.Exit(outcome.exit_code)


def register(app: typer.Typer) -> None:
    app.command("agents")(agents_cmd)
    extra = {"allow_extra_args": True, "ignore_unknown_options": True}
    app.command("launch", context_settings=extra, add_help_option=False)(launch_cmd)
    app.command("resume", add_help_option=False)(resume_cmd)
