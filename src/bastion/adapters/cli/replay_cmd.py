"""``bastion replay FILE…``: decide every tool call in agent transcripts against a policy.

Reads Claude Code transcripts, Codex rollouts, Gemini CLI chat logs, hook payload logs,
Bastion's ledger (``bastion logs --json``) and Bastion JSON Lines (see
``bastion.evidence.readers``); agent tool names map as the hooks map them. Prints one
table per decision class (``--json``: one object per call with its ``decision``). Nothing
is recorded and nothing runs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from bastion.adapters.cli.common import (
    CwdOption,
    JsonOption,
    NonInteractiveOption,
    PolicyOption,
    WideOption,
    fail,
    policy_or_exit,
    print_json,
    resolve_cwd,
)
from bastion.adapters.cli.tables import Column, Fit, print_rows
from bastion.evidence.model import Proposed
from bastion.evidence.readers import ReadReport, read_files
from bastion.evidence.replay import GateFor, Replayed, gates, replay
from bastion.policy.decision import Decision

FilesArg = Annotated[
    list[str] | None, typer.Argument(help="Transcripts, rollouts, hook logs, ledger exports.")
]
#: Show a progress bar from this many calls on (short replays finish before it draws).
PROGRESS_FROM = 200
_STYLE = {Decision.ALLOW: "green", Decision.ASK: "yellow", Decision.DENY: "red"}
COLUMNS = (
    Column("origin", fit=Fit.MIDDLE, keep=9, least=20),  # path:line -- the line number stays
    Column("call", fit=Fit.MIDDLE, keep=8, least=24),
    Column("rule", keep=6),
    Column("message", keep=7, least=30),
)


def register(app: typer.Typer) -> None:
    app.command("replay", help="Decide every tool call in agent transcripts or the ledger against a policy.")(
        replay_cmd
    )


def read_evidence(files: Sequence[str], *, cwd: str, from_ledger: bool = False) -> ReadReport:
    """The calls in ``files`` (and the ledger's, with ``from_ledger`` or without files)."""
    from bastion.evidence import ledger

    report = read_files(list(files), default_cwd=cwd)
    if from_ledger or not files:
        try:
            report.calls.extend(ledger.from_store(default_cwd=cwd, skipped=report.problems))
            report.formats["ledger"] = "ledger"
        except Exception as exc:  # an unreadable ledger is reported, the files still replay
            report.problems.append(f"ledger: cannot read ({exc})")
    return report


@contextmanager
def progress_for(total: int) -> Iterator[Progress]:
    """A bar on stderr for long replays (invisible below PROGRESS_FROM calls or when piped)."""
    console = Console(stderr=True)
    bar = Progress(
        TextColumn("deciding"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=total < PROGRESS_FROM or not console.is_terminal,
    )
    with bar:
        yield bar


def gates_for(policy: str | None) -> GateFor:
    """The policy that applies in each call's cwd (as the hooks load it); a bad file exits."""
    return gates(lambda cwd: policy_or_exit(policy, cwd))


def decide_all(gate_for: GateFor, calls: list[Proposed], *, interactive: bool) -> list[Replayed]:
    with progress_for(len(calls)) as bar:
        task = bar.add_task("deciding", total=len(calls))
        return list(replay(gate_for, calls, interactive=interactive, step=lambda: bar.advance(task)))


def print_problems(report: ReadReport, console: Console) -> None:
    for problem in report.problems:
        console.print(f"[yellow]skipped:[/] {escape(problem)}")


def replay_cmd(
    files: FilesArg = None,
    policy: PolicyOption = None,
    cwd: CwdOption = None,
    non_interactive: NonInteractiveOption = False,
    from_ledger: Annotated[
        bool, typer.Option("--from-ledger", help="Also replay the ledger's calls.")
    ] = False,
    json_out: JsonOption = False,
    wide: WideOption = False,
) -> None:
    """Exit 0 when every file was read; 1 when none held a call."""
    where = resolve_cwd(cwd)
    policy_or_exit(policy, where)  # a policy that does not load stops here, before any file is read
    report = read_evidence(files or [], cwd=where, from_ledger=from_ledger)
    if not report.calls and report.problems and not json_out:
        fail("; ".join(report.problems[:5]), code=1)
    results = decide_all(gates_for(policy), report.calls, interactive=not non_interactive)
    if json_out:
        print_json([r.to_json() for r in results])
        return
    console = Console(highlight=False)
    print_tables(results, console, wide=wide)
    print_problems(report, console)
    counts = {d: sum(1 for r in results if r.decision is d) for d in Decision}
    read = ", ".join(f"{escape(f)} ({k})" for f, k in report.formats.items())
    console.print(
        f"{len(results)} calls from {read or 'nothing'}: "
        + ", ".join(f"[{_STYLE[d]}]{n} {d.label}[/]" for d, n in counts.items())
    )


def print_tables(results: list[Replayed], console: Console, *, wide: bool = False) -> None:
    for decision in (Decision.DENY, Decision.ASK, Decision.ALLOW):
        rows = [
            [
                r.proposed.origin,
                r.proposed.label + (" (approximate)" if r.proposed.approximate else ""),
                _rule(r),
                r.evaluation.message,
            ]
            for r in results
            if r.decision is decision
        ]
        if rows:
            console.print(f"[bold {_STYLE[decision]}]{decision.label}[/]: {len(rows)} calls")
            print_rows(COLUMNS, rows, title=decision.label, console=console, wide=wide)


def _rule(r: Replayed) -> str:
    deciding = [x for x in r.evaluation.reasons if x.decision is r.decision] or list(r.evaluation.reasons)
    return ", ".join(f"{x.rule} @ {x.source}" for x in deciding[:2])
