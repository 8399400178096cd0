"""Who is answering: the approver identity every state-changing approval verb needs.

``approvals approve|deny``, ``grants revoke``, ``policy trust`` (and creating or revoking
keys that can approve) change what an agent may do, so an agent that can run ``bastion``
must not be able to run them for itself. Each needs one of:

* ``--key KEY``: an active approver or admin key (``bastion keys create --role approver``);
  the identity is the key's id;
* a confirmation typed on a terminal: stdin *and* stdout are TTYs and the person types the
  id shown (or ``yes``); the identity is ``local:<user>``.

Without either the command refuses with :data:`EXIT_NO_APPROVER` and changes nothing: a
parked call stays parked.
"""

from __future__ import annotations

import getpass
import os
import sys
from typing import Annotated

import typer

from bastion.adapters.cli.common import EXIT_USAGE, fail
from bastion.approval.model import LOCAL_PREFIX
from bastion.errors import BastionError
from bastion.keys.model import Role
from bastion.keys.store import verify

#: Exit code when no approver identity was given (a usage error: nothing was changed).
EXIT_NO_APPROVER = EXIT_USAGE
#: Roles whose key may answer, grant, revoke and trust.
APPROVER_ROLES = frozenset({Role.APPROVER, Role.ADMIN})

KeyOption = Annotated[
    str | None,
    typer.Option(
        "--key",
        metavar="KEY",
        help="An approver key (bastion keys create --role approver): who is answering. "
        "Without it, confirm on a terminal.",
    ),
]

HOW = (
    "pass --key KEY (an approver key: 'bastion keys create --role approver' on a terminal), "
    "or run the command yourself on a terminal and confirm"
)


def on_terminal() -> bool:
    """A person can be asked: both stdin and stdout are terminals."""
    try:
        return os.isatty(sys.stdin.fileno()) and os.isatty(sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        return False


def key_identity(presented: str) -> str:
    """The id of the active approver/admin key ``presented``; exits when it is not one."""
    from bastion.state import open_stores_from_env

    try:
        stores = open_stores_from_env()
        try:
            record = verify(stores.keys, presented)
        finally:
            stores.close()
    except BastionError as exc:
        fail(f"cannot check the approver key: {exc}", hint=exc.hint, code=EXIT_NO_APPROVER)
    if record is None:
        fail("--key is not a valid key (wrong, malformed or revoked)", hint=HOW, code=EXIT_NO_APPROVER)
    if record.role not in APPROVER_ROLES:
        fail(
            f"key {record.id} is an {record.role.value} key: it cannot approve",
            hint=HOW,
            code=EXIT_NO_APPROVER,
        )
    return record.id


def terminal_identity(what: str, token: str) -> str:
    """Ask on the terminal; ``local:<user>`` when the person types ``token`` or ``yes``."""
    sys.stderr.write(f"{what}\nType {token} (or yes) to confirm: ")  # stdout stays for --json
    sys.stderr.flush()
    answer = sys.stdin.readline().strip()
    if answer not in (token, "yes"):
        fail("not confirmed: nothing was changed", hint=HOW, code=EXIT_NO_APPROVER)
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no name for this uid
        user = str(os.getuid())
    return f"{LOCAL_PREFIX}{user}"


def approver_identity(key: str | None, *, what: str, token: str) -> str:
    """``--key``'s id, else a terminal confirmation, else exit :data:`EXIT_NO_APPROVER`."""
    if key is not None:
        return key_identity(key)
    if on_terminal():
        return terminal_identity(what, token)
    fail(
        f"{what.rstrip('?.:')}: needs an approver identity, and there is no terminal to confirm on",
        hint=HOW,
        code=EXIT_NO_APPROVER,
    )
