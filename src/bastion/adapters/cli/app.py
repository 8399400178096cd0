"""The typer application: each command group lives in its own module with ``register``."""

from __future__ import annotations

import importlib
from collections.abc import Sequence

import typer

#: Each top-level command or group, and the module whose ``register(app)`` adds it, modules
#: in the order they register (tests/adapters/cli/test_app.py checks it against them).
COMMANDS: dict[str, str] = {
    "check": "bastion.adapters.cli.check",
    "explain": "bastion.adapters.cli.check",
    "policy": "bastion.adapters.cli.policy_cmd",
    "doctor": "bastion.adapters.cli.doctor",
    "tool": "bastion.adapters.cli.tools_cmd",
    "tools": "bastion.adapters.cli.tools_cmd",
    "mcp": "bastion.adapters.cli.mcp_cmd",
    "request": "bastion.adapters.cli.request",
    "approvals": "bastion.adapters.cli.approvals",
    "grants": "bastion.adapters.cli.grants",
    "logs": "bastion.adapters.cli.logs",
    "agents": "bastion.adapters.cli.launch_cmd",
    "launch": "bastion.adapters.cli.launch_cmd",
    "resume": "bastion.adapters.cli.launch_cmd",
    "serve": "bastion.adapters.cli.serve",
    "keys": "bastion.adapters.cli.keys_cmd",
    "install": "bastion.adapters.cli.hooks_cmd",
    "uninstall": "bastion.adapters.cli.hooks_cmd",
    "db": "bastion.adapters.cli.db_cmd",
    "service": "bastion.adapters.cli.service_cmd",
    "sandbox": "bastion.adapters.cli.sandbox_cmd",
    "replay": "bastion.adapters.cli.replay_cmd",
    "learn": "bastion.adapters.cli.learn_cmd",
}

#: Modules that add commands; each has ``register(app: typer.Typer) -> None``.
COMMAND_MODULES = tuple(dict.fromkeys(COMMANDS.values()))


def build_app(args: Sequence[str] | None = None) -> typer.Typer:
    """The whole application; given the command line ``args``, only the module of the command
    they name. Every command module pays for its own imports (the gateway's web server, the
    MCP SDK, the approvals UI): a ``bastion logs`` has no use for them. Help, no command or an
    unknown one loads every module, so the listing and the error name every command."""
    app = typer.Typer(
        name="bastion",
        help="Bastion: decides every tool call an AI agent makes (allow, ask or deny).",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    # A group even when one module adds one command: else typer makes that command the app.
    app.callback()(_no_options)
    named = COMMANDS.get(args[0]) if args else None
    for name in COMMAND_MODULES if named is None else (named,):
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue  # a command group not built yet
        module.register(app)
    return app


def _no_options() -> None:
    pass
