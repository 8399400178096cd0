"""``bastion tool NAME --args JSON`` runs one reference tool; ``bastion tools`` lists them.

A tool call goes gate → approval (an ASK parks in Bastion's queue while a person answers
with ``bastion approvals``; with nobody to ask it is denied at once) → sandbox → audit, and
its result is printed as JSON. Exit codes: 0 the tool ran and succeeded, 1 it ran and failed, 3 it
needed approval, 4 it was denied (a tool the mode or ``enabled`` does not offer is denied as
unknown), 2 usage or policy error. ``bastion tools`` lists only the tools offered.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from bastion.adapters.cli.common import (
    CwdOption,
    JsonOption,
    NonInteractiveOption,
    PolicyOption,
    configuration_or_exit,
    fail,
    print_json,
    resolve_cwd,
)
from bastion.boot import boot_problem
from bastion.call import strict_json
from bastion.configuration import Configuration
from bastion.construct import open_gatekeeper
from bastion.errors import BastionError, CallError
from bastion.policy.decision import Decision
from bastion.runtime import Gatekeeper
from bastion.tools import Authorizer, Tool, registry
from bastion.tools.base import refused
from bastion.tools.catalog import unknown_tool

NameArg = Annotated[
    str,
    typer.Argument(
        help="Tool name: read, write, edit, multi_edit, list, glob, grep, exec, code, fetch, "
        "install, detect_tools (those the mode and the policy's enabled list offer)."
    ),
]
ArgsOption = Annotated[str, typer.Option("--args", help="The tool's arguments as a JSON object.")]


def register(app: typer.Typer) -> None:
    app.command("tool", help="Run one tool: gate, approval, sandbox, audit; prints JSON.")(tool)
    app.command("tools", help="List the tools this mode and policy offer, with their schemas.")(tools)


def _tools(
    config: Configuration, cwd: str, authorizer: Authorizer | None = None, interactive: bool = False
) -> list[Tool]:
    problem = boot_problem(config.policy)
    if problem:
        fail(problem)
    try:
        return registry(config, cwd=cwd, authorizer=authorizer, interactive=interactive)
    except BastionError as exc:
        fail(str(exc), hint=exc.hint)


def tool(
    name: NameArg,
    args: ArgsOption = "{}",
    policy: PolicyOption = None,
    cwd: CwdOption = None,
    non_interactive: NonInteractiveOption = False,
) -> None:
    where = resolve_cwd(cwd)
    loaded = configuration_or_exit(policy, where)
    interactive = not non_interactive and sys.stdin.isatty()
    try:
        keeper = open_gatekeeper(loaded)
    except BastionError as exc:
        fail(str(exc), hint=exc.hint)
    with keeper:
        _run_tool(loaded, where, keeper, name, args, interactive)


def _run_tool(
    loaded: Configuration, where: str, keeper: Gatekeeper, name: str, args: str, interactive: bool
) -> None:
    found = {t.name: t for t in _tools(loaded, where, keeper, interactive)}
    try:
        parsed: Any = strict_json.loads(args)
    except CallError as exc:
        fail(f"--args is not strict JSON: {exc}")
    if name in found:
        result = asyncio.run(found[name].run(parsed, cwd=where))
    else:  # unknown, or not offered by this mode or the policy's enabled list
        result = refused(unknown_tool(name, found)).to_json()
    print_json(result)
    if result["ok"]:
        raise typer.Exit(0)
    decision = result["decision"]
    if decision in ("ask", "deny"):
        raise typer.Exit(Decision.parse(decision).exit_code)
    raise typer.Exit(1)


def tools(json_output: JsonOption = False, policy: PolicyOption = None, cwd: CwdOption = None) -> None:
    where = resolve_cwd(cwd)
    found = _tools(configuration_or_exit(policy, where), where)
    if json_output:
        print_json([t.describe() for t in found])
        return
    table = Table(title="Enabled tools")
    for column in ("tool", "family", "read-only", "destructive", "arguments"):
        table.add_column(column)
    for item in found:
        schema = item.schema
        required = set(schema.get("required", ()))
        names = [n if n in required else f"[{n}]" for n in schema.get("properties", {})]
        hints = item.annotations
        table.add_row(
            item.name,
            item.family.value,
            _yes(hints["readOnlyHint"]),
            _yes(hints["destructiveHint"]),
            escape(" ".join(names)),
        )
    Console().print(table)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"
