"""``bastion db upgrade|status``: the PostgreSQL schema, and ``doctor``'s database check.

The database is ``--url``, else ``BASTION_STATE_URL``, else ``state_url`` in the policy.
With none, the state is the embedded SQLite file, which creates its own schema: there is
nothing to upgrade.
"""

from __future__ import annotations

import os
from typing import Annotated, Any

import typer

from bastion.adapters.cli.common import JsonOption, PolicyOption, configuration_or_exit, fail, print_json
from bastion.configuration import Configuration
from bastion.errors import BastionError
from bastion.policy.sources import state_dir_from
from bastion.state import ENV_URL, state_url_for
from bastion.state.factory import DB_FILE

UrlOption = Annotated[
    str | None,
    typer.Option("--url", help=f"PostgreSQL URL (default: ${ENV_URL}, else state_url in the policy)."),
]

#: ``bastion db status`` exit code when the schema is behind or the database is unreachable.
EXIT_NOT_READY = 1

db_app = typer.Typer(
    name="db", help="The shared PostgreSQL state database: schema upgrade and status.", no_args_is_help=True
)


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")


def _url(url: str | None, policy: str | None) -> str | None:
    """The URL to use, or None for SQLite; exits with a hint when it is unusable."""
    try:
        if url:
            return state_url_for(None, {ENV_URL: url})
        if os.environ.get(ENV_URL, "").strip():
            return state_url_for(None, os.environ)
        return state_url_for(configuration_or_exit(policy, os.getcwd()).state, {})
    except BastionError as exc:
        fail(str(exc), hint=exc.hint)


def _sqlite_note() -> dict[str, Any]:
    path = os.path.join(state_dir_from(os.environ), DB_FILE)
    return {
        "backend": "sqlite",
        "path": path,
        "up_to_date": True,
        "note": "SQLite creates its schema itself; set state_url or BASTION_STATE_URL for PostgreSQL",
    }


@db_app.command("upgrade", help="Apply every pending schema migration (safe to run on several hosts).")
def upgrade(url: UrlOption = None, policy: PolicyOption = None, json_out: JsonOption = False) -> None:
    from bastion.postgres import migrations
    from bastion.postgres.connection import safe_url

    target = _url(url, policy)
    if target is None:
        result = _sqlite_note()
    else:
        try:
            done = migrations.upgrade(target)
        except BastionError as exc:
            fail(str(exc), hint=exc.hint, code=EXIT_NOT_READY)
        result = {
            "backend": "postgresql",
            "url": safe_url(target),
            **done.to_json(),
            "applied": list(done.applied),
        }
    if json_out:
        print_json(result)
    elif target is None:
        typer.echo(f"nothing to upgrade: the state is SQLite at {result['path']}")
    else:
        applied = result["applied"]
        what = f"applied {', '.join(str(v) for v in applied)}" if applied else "already up to date"
        typer.echo(f"{result['url']}: schema version {result['current']} ({what})")


@db_app.command("status", help="Show the schema version: current and what this Bastion needs.")
def status(url: UrlOption = None, policy: PolicyOption = None, json_out: JsonOption = False) -> None:
    from bastion.postgres import migrations
    from bastion.postgres.connection import safe_url

    target = _url(url, policy)
    if target is None:
        result: dict[str, Any] = _sqlite_note()
    else:
        result = {"backend": "postgresql", "url": safe_url(target)}
        try:
            result.update(migrations.status(target).to_json())
        except BastionError as exc:
            result.update({"up_to_date": False, "error": str(exc), "hint": exc.hint})
    if json_out:
        print_json(result)
    elif "error" in result:
        typer.echo(f"{result['url']}: unreachable: {result['error']}\nhint: {result['hint']}")
    elif target is None:
        typer.echo(f"SQLite at {result['path']} (no PostgreSQL configured)")
    else:
        state = "up to date" if result["up_to_date"] else "BEHIND: run 'bastion db upgrade'"
        typer.echo(f"{result['url']}: schema {result['current']} of {result['target']} ({state})")
    raise typer.Exit(0 if result["up_to_date"] else EXIT_NOT_READY)


def db_checks(config: Configuration) -> list[tuple[str, bool, str]]:
    """For ``bastion doctor``: is the configured state database reachable and current?"""
    policy = config.policy
    try:
        url = state_url_for(config.state, os.environ)
    except BastionError as exc:
        return [("state database", False, f"{exc} — {exc.hint}")]
    if url is None:
        return [("state database", True, f"SQLite at {os.path.join(policy.state_dir, DB_FILE)}")]
    from bastion.postgres import migrations
    from bastion.postgres.connection import safe_url

    where = safe_url(url)
    try:
        found = migrations.status(url)
    except BastionError as exc:
        return [("state database", False, f"{where} unreachable: {exc} — {exc.hint}")]
    if found.current < found.target:
        return [
            (
                "state database",
                False,
                f"{where}: schema {found.current} of {found.target}: run 'bastion db upgrade'",
            )
        ]
    if found.current > found.target:
        return [
            (
                "state database",
                False,
                f"{where}: schema {found.current} is newer than this "
                f"Bastion ({found.target}): upgrade Bastion here",
            )
        ]
    return [("state database", True, f"PostgreSQL {where}, schema {found.current} (up to date)")]
