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
    WideOption,
    fail,
    print_json,
    resolve_cwd,
)
from bastion.adapters.cli.replay_cmd import gates_for, print_problems, read_evidence
from bastion.adapters.cli.tables import Column, Fit, print_rows
from bastion.evidence.diff import Change, grouped
from bastion.evidence.diff import diff as diff_calls

CorpusOption = Annotated[
    list[str] | None, typer.Option("--corpus", help="Transcript or log to decide (repeat).")
]
COLUMNS = (
    Column("origin", fit=Fit.MIDDLE, keep=9, least=20),
    Column("call", fit=Fit.MIDDLE, keep=8, least=24),
    Column("before: deciding", keep=7),
    Column("after: deciding", keep=7),
)


def _why(change: Change, side: str) -> str:
    reasons = change.to_json()[f"{side}_reasons"]
    return "; ".join(f"{r['rule']} @ {r['source']}: {r['message']}" for r in reasons)


def diff(
    a: Annotated[str, typer.Argument(help="The current policy file.")],
    b: Annotated[str, typer.Argument(help="The proposed policy file.")],
    more: Annotated[
        list[str] | None,
        typer.Argument(
            help="More corpus files: a shell glob after --corpus expands to several.", show_default=False
        ),
    ] = None,
    corpus: CorpusOption = None,
    cwd: CwdOption = None,
    non_interactive: NonInteractiveOption = False,
    json_out: JsonOption = False,
    wide: WideOption = False,
) -> None:
    where = resolve_cwd(cwd)
    # `--corpus DIR/*.jsonl` reaches us as `--corpus F1 F2 F3`: the option takes F1 and the
    # rest arrive as arguments after A and B. They are corpus files all the same.
    report = read_evidence([*(corpus or []), *(more or [])], cwd=where)
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
            print_rows(COLUMNS, rows, title=kind, console=console, wide=wide)
        print_problems(report, console)
        console.print(f"{len(changes)} of {len(report.calls)} calls change from {escape(a)} to {escape(b)}")
    raise typer.Exit(1 if changes else 0)
