"""``bastion doctor``: is the policy valid, do the roots exist, is the credentials dir safe?

Later parts add their checks through ``EXTRA_CHECKS`` (sandbox, hooks, database)."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass

import typer
from rich.console import Console
from rich.table import Table

from bastion.adapters.cli.common import CwdOption, JsonOption, PolicyOption, print_json, resolve_cwd
from bastion.configuration import Configuration, load_configuration
from bastion.errors import PolicyError
from bastion.policy.compiled import Policy

#: "module:function" returning a list of (name, ok, detail) for the loaded configuration.
EXTRA_CHECKS: tuple[str, ...] = (
    "bastion.adapters.cli.doctor_sandbox:sandbox_checks",
    "bastion.adapters.hooks.install:hook_checks",
    "bastion.adapters.cli.doctor_sandbox:hook_containment_checks",
    "bastion.adapters.cli.agent_sandbox:contained_start_checks",
    "bastion.adapters.cli.db_cmd:db_checks",
)


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


def register(app: typer.Typer) -> None:
    app.command("doctor", help="Check the policy, roots, credentials placement and sandbox.")(doctor)


def policy_checks(policy: Policy) -> list[Check]:
    checks = [
        Check(
            "policy", True, f"mode {policy.mode}; files: {', '.join(policy.sources) or 'built-in defaults'}"
        )
    ]
    for root in policy.read_roots:
        exists = os.path.isdir(root)
        checks.append(
            Check(
                f"root {root}",
                exists,
                "exists"
                if exists
                else "missing: every path under it is refused; create it or fix the policy",
            )
        )
    # The credentials dir's placement is checked once, by the sandbox checks (EXTRA_CHECKS).
    if not policy.enforce:  # shadow mode is a choice, not a fault: reported, not failed
        checks.append(
            Check(
                "shadow mode",
                True,
                f"enforce = false ({policy.enforce_source}): calls are "
                "decided, recorded and allowed; hardline classes are still denied",
            )
        )
    for warning in policy.warnings:
        checks.append(Check("project policy", False, warning))
    return checks


def _extra(config: Configuration) -> list[Check]:
    out: list[Check] = []
    for spec in EXTRA_CHECKS:
        module_name, _, function = spec.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue
            out.append(Check(module_name, False, f"cannot load check: {exc}"))
            continue
        probe: Callable[[Configuration], list[tuple[str, bool, str]]] = getattr(module, function)
        try:
            out.extend(Check(*row) for row in probe(config))
        except Exception as exc:  # a crashing check is a failing check
            out.append(Check(function, False, f"check crashed: {type(exc).__name__}: {exc}"))
    return out


def doctor(policy: PolicyOption = None, cwd: CwdOption = None, json_out: JsonOption = False) -> None:
    where = resolve_cwd(cwd)
    try:
        loaded = load_configuration(policy, cwd=where)
    except PolicyError as exc:
        checks = [Check("policy", False, f"{exc} — fix the file, then run 'bastion policy test'")]
    else:
        checks = policy_checks(loaded.policy) + _extra(loaded)
    ok = all(c.ok for c in checks)
    if json_out:
        print_json({"ok": ok, "checks": [c.__dict__ for c in checks]})
    else:
        table = Table("check", "status", "detail", title="bastion doctor")
        for c in checks:
            table.add_row(c.name, "[green]ok[/]" if c.ok else "[red]FAIL[/]", c.detail)
        Console(highlight=False).print(table)
    raise typer.Exit(0 if ok else 1)
