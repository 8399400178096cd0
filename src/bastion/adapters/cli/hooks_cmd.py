"""``bastion install AGENT`` and ``bastion uninstall AGENT``: wire Bastion into an agent's hooks."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from bastion.adapters.cli.common import fail
from bastion.adapters.hooks.install import InstallError, install, uninstall
from bastion.adapters.hooks.targets import DEFAULT_TIMEOUT, bastion_executable
from bastion.agents.registry import hook_names

#: Every agent with a hook in the registry, and ``generic`` (a plugin of your own).
AGENTS = (*hook_names(), "generic")

AgentArg = Annotated[str, typer.Argument(help=f"One of: {', '.join(AGENTS)}.")]
ProjectOpt = Annotated[bool, typer.Option("--project", help="This project's settings (default).")]
UserOpt = Annotated[bool, typer.Option("--user", help="Your user-wide settings.")]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", help="Print the diff; write nothing.")]
TimeoutOpt = Annotated[
    int, typer.Option("--timeout", min=10, max=3600, help="Seconds the agent waits for the hook.")
]


def register(app: typer.Typer) -> None:
    app.command("install", help="Make AGENT ask Bastion before every tool call.")(install_cmd)
    app.command("uninstall", help="Remove Bastion's hook from AGENT's settings.")(uninstall_cmd)


def _scope(project: bool, user: bool) -> str:
    if project and user:
        fail("choose one of --project and --user")
    return "user" if user else "project"


def _check(agent: str) -> None:
    if agent not in AGENTS:
        fail(f"unknown agent {agent!r}", hint=f"choose one of: {', '.join(AGENTS)}")


def install_cmd(
    agent: AgentArg,
    project: ProjectOpt = False,
    user: UserOpt = False,
    dry_run: DryRunOpt = False,
    timeout: TimeoutOpt = DEFAULT_TIMEOUT,
) -> None:
    _check(agent)
    if agent == "generic":
        _print_generic()
        return
    try:
        install(
            agent,
            scope=_scope(project, user),
            cwd=os.getcwd(),
            env=os.environ,
            dry_run=dry_run,
            timeout=timeout,
            out=typer.echo,
        )
    except (InstallError, ValueError, OSError) as exc:
        fail(str(exc))


def uninstall_cmd(
    agent: AgentArg, project: ProjectOpt = False, user: UserOpt = False, dry_run: DryRunOpt = False
) -> None:
    _check(agent)
    if agent == "generic":
        typer.echo("generic: Bastion wrote nothing; remove the plugin you added from your agent")
        return
    try:
        uninstall(
            agent,
            scope=_scope(project, user),
            cwd=os.getcwd(),
            env=os.environ,
            dry_run=dry_run,
            out=typer.echo,
        )
    except (InstallError, ValueError, OSError) as exc:
        fail(str(exc))


def _print_generic() -> None:
    from bastion.adapters.hooks import generic

    typer.echo((generic.__doc__ or "").strip())
    exe = bastion_executable()
    for name, body in generic.plugin_snippets(exe):
        typer.echo(f"\n--- {name} ---\n{body}")
