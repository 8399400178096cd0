"""``bastion policy diff A B [--corpus FILE…]``: the calls whose decision changes from A to B.

The corpus is any file ``bastion replay`` reads; without one, the ledger's calls (the
ledger keeps redacted summaries: see ``bastion.evidence.ledger`` for what replays from
them). Exit 0 when nothing changes, 1 when something does (a script can gate an edit).
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from bastion.adapters.cli.common import (
    CwdOption,
    JsonOption,
    NonInteractiveOption,
    fail,
    print_json,
    resolve_cwd,
)
from bastion.adapters.cli.replay_cmd import gates_for, print_problems, read_evidence
from bastion.adapters.cli.tables import Column, print_rows
from bastion.evidence.diff import Change, grouped
from bastion.evidence.diff import diff as diff_calls

CorpusOption = Annotated[
    list[str] | None, typer.Option("--corpus", help="Transcript or log to decide (repeat).")
]
COLUMNS = (Column("origin", key=True), Column("call"), Column("before: deciding"), Column("after: deciding"))


def _why(change: Change, side: str) -> str:
    reasons = change.to_json()[f"{side}_reasons"]
    return "; ".join(f"{r['rule']} @ {r['source']}: {r['message']}" for r in reasons)


def diff(
    a: Annotated[str, typer.Argument(help="The current policy file.")],
    b: Annotated[str, typer.Argument(help="The proposed policy file.")],
    corpus: CorpusOption = None,
    cwd: CwdOption = None,
    non_interactive: NonInteractiveOption = False,
    json_out: JsonOption = False,
) -> None:
    where = resolve_cwd(cwd)
    report = read_evidence(corpus or [], cwd=where)
    if not report.calls:
        fail(
            "no calls to compare: give --corpus FILE (a transcript, a hook log, a ledger export)"
            + (f" ({'; '.join(report.problems[:3])})" if report.problems else "")
        )
    changes = diff_calls(gates_for(a), gates_for(b), report.calls, interactive=not non_interactive)
    if json_out:
        print_json([c.to_json() for c in changes])
    else:
        console = Console(highlight=False)
        for kind, items in grouped(changes).items():
            console.print(f"[bold]{kind}[/]: {len(items)} calls")
            rows = [
                [c.before.proposed.origin, c.before.proposed.label, _why(c, "before"), _why(c, "after")]
                for c in items
            ]
            print_rows(COLUMNS, rows, title=kind, console=console)
        print_problems(report, console)
        console.print(f"{len(changes)} of {len(report.calls)} calls change from {escape(a)} to {escape(b)}")
    raise typer.Exit(1 if changes else 0)
