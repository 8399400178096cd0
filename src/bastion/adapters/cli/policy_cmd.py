"""``bastion policy test|trust``: a policy file checks itself, and a project file is trusted."""

from __future__ import annotations

import os
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from bastion.adapters.cli.approver import KeyOption, approver_identity
from bastion.adapters.cli.common import EXIT_USAGE, JsonOption, fail, print_json
from bastion.adapters.cli.tables import Column, Fit, print_rows
from bastion.configuration import load_policy
from bastion.errors import PolicyError
from bastion.policy.loader import trust_policy_file
from bastion.policy.rule_examples import rule_matches_example
from bastion.policy.sources import find_project_file, state_dir_from

FileArg = Annotated[str | None, typer.Argument(help="Policy file (default: the files that apply here).")]


EXAMPLE_COLUMNS = (
    Column("rule", key=True),
    Column("source", fit=Fit.MIDDLE, keep=5),
    Column("kind", keep=6),
    Column("example", fit=Fit.MIDDLE, keep=8, least=20),
    Column("result", key=True),
)


def register(app: typer.Typer) -> None:
    group = typer.Typer(help="Validate and trust policy files.", no_args_is_help=True)
    group.command("test", help="Validate a policy and run every match/not_match example.")(test)
    group.command("trust", help="Trust a project policy file so it may loosen, not only tighten.")(trust)
    _register_evidence(group)
    app.add_typer(group, name="policy")


def _register_evidence(group: typer.Typer) -> None:
    """``policy diff`` and ``policy import`` (issue #18) live in their own modules."""
    from bastion.adapters.cli.policy_diff import diff
    from bastion.adapters.cli.policy_import import import_policy

    group.command("diff", help="Show the calls whose decision changes between two policies.")(diff)
    group.command("import", help="Turn Claude Code, Gemini CLI, Codex or seed configs into Bastion TOML.")(
        import_policy
    )


def test(file: FileArg = None, json_out: JsonOption = False) -> None:
    if file is not None and not os.path.isfile(file):
        fail(f"{file}: no such policy file")
    try:
        policy = load_policy(file, cwd=os.getcwd())
    except PolicyError as exc:
        # A policy that does not load is a load error: exit 2, like every other command.
        if json_out:
            print_json({"ok": False, "error": str(exc), "file": exc.file, "line": exc.line, "key": exc.key})
            raise typer.Exit(EXIT_USAGE) from exc
        fail(str(exc), hint="every key is listed, with comments, in examples/policy.toml")
    rows = []
    for rule in policy.rules:
        for kind, examples, expected in (("match", rule.match, True), ("not_match", rule.not_match, False)):
            for example in examples:
                ok = rule_matches_example(rule, example, policy) == expected
                rows.append(
                    {"rule": rule.rule_id, "source": rule.source, "kind": kind, "example": example, "ok": ok}
                )
    result = {
        "ok": all(r["ok"] for r in rows),
        "files": list(policy.sources),
        "warnings": list(policy.warnings),
        "examples": rows,
    }
    if json_out:
        print_json(result)
    else:
        console = Console(highlight=False)
        console.print(f"policy: {', '.join(policy.sources) or 'built-in defaults'} — mode {policy.mode}")
        cells: list[list[str | Text]] = [
            [
                str(r["rule"]),
                str(r["source"]),
                str(r["kind"]),
                str(r["example"]),
                Text("ok", style="green") if r["ok"] else Text("FAIL", style="red"),
            ]
            for r in rows
        ]
        if cells:
            print_rows(EXAMPLE_COLUMNS, cells, console=console)
        else:
            console.print("no match/not_match examples in this policy")
        for warning in policy.warnings:
            console.print(f"[yellow]warning:[/] {escape(warning)}")
        console.print("[green]policy is valid[/]" if result["ok"] else "[red]examples failed[/]")
    raise typer.Exit(0 if result["ok"] else EXIT_USAGE)


def trust(file: Annotated[str | None, typer.Argument()] = None, key: KeyOption = None) -> None:
    """Needs --key KEY (an approver key) or a confirmation typed on a terminal: a trusted
    project file may loosen the policy."""
    target = file or find_project_file(os.getcwd())
    if target is None:
        fail("no .bastion/policy.toml here or in a parent folder; name the file to trust")
    approver_identity(
        key,
        what=f"trust {os.path.abspath(target)} so it may loosen the policy",
        token=os.path.basename(target),
    )
    try:
        digest = trust_policy_file(target, state_dir_from(os.environ))
    except PolicyError as exc:
        fail(str(exc), hint="a file that does not load cannot be trusted")
    except OSError as exc:
        fail(f"cannot record trust: {exc}")
    Console(highlight=False).print(
        f"trusted {os.path.abspath(target)} (sha256 {digest[:16]}…); any change to it needs trust again"
    )
