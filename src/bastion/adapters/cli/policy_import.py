"""``bastion policy import FILE``: an existing permission config as Bastion policy TOML.

Reads Claude Code ``settings.json``, Gemini CLI policy TOML, Codex ``.rules``, an agent
spec's ``permissions`` (seed 004), a ``config.json`` ceiling (seed 001) and a flat
``permissions.toml`` (seed 000: ``workspace_dirs``, ``allowed_commands``…); prints the
TOML on stdout (``# not carried over:`` comments list what could not be), and the same
list on stderr. Exit 1 when the result does not load as a Bastion policy.
"""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from bastion.adapters.cli.common import fail
from bastion.configuration import load_policy_text
from bastion.errors import PolicyError


def import_policy(file: Annotated[str, typer.Argument(help="The config to import.")]) -> None:
    from bastion.evidence.imports.detect import import_file

    try:
        imported = import_file(file)
    except (OSError, ValueError) as exc:
        fail(f"{file}: cannot read it ({exc})")
    except PolicyError as exc:
        fail(f"cannot be imported: {exc}")
    text = imported.toml()
    err = Console(stderr=True, highlight=False)
    for note in imported.carried:
        err.print(f"carried over: {escape(note)}")
    for note in imported.notes:
        err.print(f"[yellow]not carried over:[/] {escape(note)}")
    try:
        load_policy_text(text, cwd=os.getcwd())
    except PolicyError as exc:
        sys.stdout.write(text)
        fail(f"the imported policy does not load: {exc}", code=1)
    sys.stdout.write(text)
    entries = sum(len(v) for t in imported.settings.values() if isinstance(t, dict) for v in t.values())
    also = f" and {entries} list entries" if entries else ""
    err.print(f"imported {len(imported.rules)} rules{also} from {escape(file)} ({imported.kind})")
