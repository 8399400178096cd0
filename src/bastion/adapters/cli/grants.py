"""``bastion grants list|revoke``: the standing "always allow" grants."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from bastion.adapters.cli.approvals import local_time, open_store
from bastion.adapters.cli.approver import KeyOption, approver_identity
from bastion.adapters.cli.common import JsonOption, WideOption, fail, print_json
from bastion.adapters.cli.tables import Column, Fit, print_rows
from bastion.approval.model import Grant

grants_app = typer.Typer(name="grants", help="List and revoke standing grants.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(grants_app, name="grants")


GRANT_COLUMNS = (
    Column("id", key=True),
    Column("kind", keep=6),
    Column("tool", keep=4),
    Column("covers", fit=Fit.MIDDLE, keep=9, least=20),
    Column("scope", fit=Fit.MIDDLE, keep=7),
    Column("created", keep=3),
)


@grants_app.command("list")
def list_grants(json_out: JsonOption = False, wide: WideOption = False) -> None:
    """Show every standing grant."""
    store = open_store()
    try:
        grants = store.list_grants()
    finally:
        store.close()
    if json_out:
        print_json([g.to_json() for g in grants])
        return
    if not grants:
        Console(highlight=False).print("no standing grants")
        return
    rows = [
        [
            g.id,
            g.kind,
            g.tool,
            g.pattern or g.summary,
            f"{g.scope.value}: {g.scope_value}",
            local_time(g.created),
        ]
        for g in grants
    ]
    print_rows(GRANT_COLUMNS, rows, title="standing grants", wide=wide)


def _find(grants: list[Grant], grant_id: str) -> Grant:
    exact = [g for g in grants if g.id == grant_id]
    found = exact or [g for g in grants if len(grant_id) >= 6 and g.id.startswith(grant_id)]
    if len(found) == 1:
        return found[0]
    if found:
        fail(f"{grant_id!r} matches {len(found)} grants", hint="give more characters of the id")
    fail(f"no grant {grant_id!r}", hint="run 'bastion grants list' to see grant ids", code=1)


@grants_app.command("revoke")
def revoke(
    grant_id: Annotated[str, typer.Argument(metavar="ID", help="Grant id (or a unique prefix).")],
    key: KeyOption = None,
) -> None:
    """Remove a standing grant: matching calls ask again. Needs --key KEY (an approver key)
    or a confirmation typed on a terminal."""
    store = open_store()
    try:
        grant = _find(store.list_grants(), grant_id)
        approver_identity(
            key, what=f"revoke grant {grant.id}: {grant.pattern or grant.summary}", token=grant.id
        )
        store.revoke_grant(grant.id)
    finally:
        store.close()
    Console(highlight=False).print(f"revoked {grant.id}: {grant.pattern or grant.summary}", markup=False)
