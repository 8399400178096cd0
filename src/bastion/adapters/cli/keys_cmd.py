"""``bastion keys create|list|revoke``: API keys for ``bastion serve`` (stored hashed in
``<state_dir>/keys.db``, so a running daemon sees a new key or a revocation at once)."""

from __future__ import annotations

import sys
import time
from typing import Annotated

import typer

from bastion.adapters.cli.common import JsonOption, WideOption, fail, print_json, stderr
from bastion.adapters.cli.tables import Column, Fit, print_rows
from bastion.errors import BastionError
from bastion.keys.model import Role
from bastion.keys.store import KeyStore

RoleOption = Annotated[
    Role,
    typer.Option(
        "--role",
        help="agent: decide and request; approver: answer requests; admin: everything, logs included.",
    ),
]
LabelOption = Annotated[str, typer.Option("--label", help="A note to recognise the key by.")]
AllOption = Annotated[bool, typer.Option("--all", help="Include revoked keys.")]


def register(app: typer.Typer) -> None:
    group = typer.Typer(help="API keys for the HTTP gateway (bastion serve).", no_args_is_help=True)
    group.command("create", help="Create a key; it is printed once, on stdout, alone on its line.")(create)
    group.command("list", help="List keys (never the keys themselves).")(list_keys)
    group.command("revoke", help="Revoke a key by its id.")(revoke)
    app.add_typer(group, name="keys")


def _store() -> KeyStore:
    from bastion.state import open_stores_from_env

    try:
        return open_stores_from_env().keys
    except BastionError as exc:
        fail(str(exc), hint="check BASTION_STATE_DIR and its permissions")


def create(role: RoleOption, label: LabelOption = "") -> None:
    store = _store()
    try:
        record, key = store.create(role, now=time.time(), label=label)
    finally:
        store.close()
    stderr.print(
        f"created {record.role.value} key {record.id}: it is shown once, store it now",
        soft_wrap=True,
        markup=False,
    )
    sys.stdout.write(key + "\n")
    sys.stdout.flush()


KEY_COLUMNS = (
    Column("id", key=True),
    Column("role", keep=8),
    Column("label", fit=Fit.MIDDLE, keep=7),
    Column("created", keep=5),
    Column("revoked", keep=6),
)


def list_keys(
    json_out: JsonOption = False, include_revoked: AllOption = False, wide: WideOption = False
) -> None:
    store = _store()
    try:
        keys = store.list(include_revoked=include_revoked)
    finally:
        store.close()
    if json_out:
        print_json([k.to_json() for k in keys])
        return
    if not keys:
        stderr.print("no keys: create one with 'bastion keys create --role agent'", markup=False)
        return
    rows = [[k.id, k.role.value, k.label, k.to_json()["created"], k.to_json()["revoked"] or ""] for k in keys]
    print_rows(KEY_COLUMNS, rows, wide=wide)


def revoke(key_id: Annotated[str, typer.Argument(help="The key's id (see 'bastion keys list').")]) -> None:
    store = _store()
    try:
        done = store.revoke(key_id, now=time.time())
    finally:
        store.close()
    if not done:
        fail(f"no active key {key_id!r}", hint="run 'bastion keys list' to see key ids", code=1)
    stderr.print(f"revoked key {key_id}", markup=False)
