"""``bastion learn [--from-ledger] [TRANSCRIPT…]``: propose allow rules from what people
approved again and again (never what a person denied, never a hardline class).

Prints the rules as TOML on stdout (they pass ``bastion policy test``) and, on stderr,
the asks before and after on the evidence. ``--apply`` appends them to the user policy
(``~/.config/bastion/policy.toml``) after showing them and asking — on a terminal only.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from bastion.adapters.cli.common import (
    CwdOption,
    JsonOption,
    PolicyOption,
    fail,
    policy_or_exit,
    print_json,
    resolve_cwd,
)
from bastion.adapters.cli.replay_cmd import print_problems, read_evidence
from bastion.configuration import load_policy
from bastion.evidence.learn import LearnReport, learn

FilesArg = Annotated[
    list[str] | None, typer.Argument(help="Transcripts or ledger exports with people's answers.")
]


def register(app: typer.Typer) -> None:
    app.command("learn", help="Propose allow rules from calls people approved repeatedly.")(learn_cmd)


def user_policy_path(env: os._Environ[str] | dict[str, str]) -> str:
    return os.path.join(env.get("HOME") or os.path.expanduser("~"), ".config", "bastion", "policy.toml")


def summary(report: LearnReport) -> str:
    share = (report.asks_before - report.asks_after) / report.asks_before if report.asks_before else 0.0
    return (
        f"{len(report.rules)} rules from {report.approved} approved and {report.denied} denied calls; "
        f"asks on this evidence: {report.asks_before} before, {report.asks_after} after ({share:.0%} fewer)"
    )


def learn_cmd(
    files: FilesArg = None,
    from_ledger: Annotated[
        bool, typer.Option("--from-ledger", help="Learn from the ledger's answered asks.")
    ] = False,
    policy: PolicyOption = None,
    cwd: CwdOption = None,
    repeats: Annotated[int, typer.Option("--repeats", min=2, help="Approved at least this often.")] = 2,
    apply: Annotated[
        bool, typer.Option("--apply", help="Append the rules to the user policy (asks first).")
    ] = False,
    json_out: JsonOption = False,
) -> None:
    where = resolve_cwd(cwd)
    policy_or_exit(policy, where)
    if not files and not from_ledger:
        fail("give TRANSCRIPT files, or --from-ledger")
    report_in = read_evidence(files or [], cwd=where, from_ledger=from_ledger)
    report = learn(lambda c: policy_or_exit(policy, c), report_in.calls, repeats=repeats)
    err = Console(stderr=True, highlight=False)
    if json_out:
        print_json(
            {
                "rules": [
                    dataclasses.asdict(r) | {"match": list(r.match), "not_match": list(r.not_match)}
                    for r in report.rules
                ],
                "toml": report.toml(),
                "approved": report.approved,
                "denied": report.denied,
                "asks_before": report.asks_before,
                "asks_after": report.asks_after,
            }
        )
    else:
        sys.stdout.write(report.toml())
    print_problems(report_in, err)
    err.print(summary(report))
    if apply:
        _apply(report, err)


def _apply(report: LearnReport, err: Console) -> None:
    if not report.rules:
        err.print("nothing to apply")
        return
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        fail(
            "--apply asks before it writes, and there is no terminal to ask on; "
            "append the printed TOML yourself",
            code=1,
        )
    target = user_policy_path(os.environ)
    err.print(f"will append to {target}:\n")
    for line in report.toml().splitlines():
        err.print(f"[green]+ {line}[/]", markup=True, highlight=False)
    if input("append these rules? [y/N] ").strip().lower() not in ("y", "yes"):
        err.print("nothing written")
        raise typer.Exit(1)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    before = Path(target).read_text(encoding="utf-8") if os.path.exists(target) else ""
    with open(target, "a", encoding="utf-8") as handle:
        handle.write(
            ("\n" if before and not before.endswith("\n") else "") + "\n# bastion learn\n" + report.toml()
        )
    try:
        load_policy(target, cwd=os.getcwd())
    except Exception as exc:  # never leave a user policy that does not load
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(before)
        fail(f"the rules did not load ({exc}); {target} is unchanged")
    err.print(f"appended {len(report.rules)} rules to {target}")
