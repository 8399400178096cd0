"""The typer application: each command group lives in its own module with ``register``."""

from __future__ import annotations

import importlib

import typer

#: Modules that add commands; each has ``register(app: typer.Typer) -> None``.
COMMAND_MODULES = (
    "bastion.adapters.cli.check",
    "bastion.adapters.cli.policy_cmd",
    "bastion.adapters.cli.doctor",
    "bastion.adapters.cli.tools_cmd",
    "bastion.adapters.cli.mcp_cmd",
    "bastion.adapters.cli.request",
    "bastion.adapters.cli.approvals",
    "bastion.adapters.cli.grants",
    "bastion.adapters.cli.logs",
    "bastion.adapters.cli.launch_cmd",
    "bastion.adapters.cli.serve",
    "bastion.adapters.cli.keys_cmd",
    "bastion.adapters.cli.hooks_cmd",
    "bastion.adapters.cli.db_cmd",
    "bastion.adapters.cli.service_cmd",
    "bastion.adapters.cli.sandbox_cmd",
    "bastion.adapters.cli.replay_cmd",
    "bastion.adapters.cli.learn_cmd",
)


def build_app() -> typer.Typer:
    app = typer.Typer(
        name="bastion",
        help="Bastion: decides every tool call an AI agent makes (allow, ask or deny).",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue  # a command group not built yet
        module.register(app)
    return app
