"""``bastion logs [--session S] [--since …] [--decision D] [--json] [--follow]`` and
``bastion logs verify``: read the audit ledger, and check its hash chain."""

from __future__ import annotations

import re
import sys
import time
from datetime import datetime
from typing import Annotated

import typer
from rich.console import Console

from bastion.adapters.cli.approvals import local_time
from bastion.adapters.cli.common import JsonOption, WideOption, fail, json_line, print_json
from bastion.adapters.cli.tables import Column, Fit, print_rows
from bastion.audit.events import LedgerRecord
from bastion.audit.ledger import verify_store
from bastion.audit.store import LedgerQuery, LedgerStore, matches
from bastion.errors import BastionError

#: ``bastion logs verify`` exit code when the chain is broken.
EXIT_BROKEN = 1
_RELATIVE = re.compile(r"^(\d+)([smhd])$")

logs_app = typer.Typer(name="logs", help="Show the audit ledger; 'logs verify' checks its hash chain.")


def register(app: typer.Typer) -> None:
    app.add_typer(logs_app, name="logs")


def parse_since(text: str, now: float) -> float:
    """``10m``/``2h``/``1d`` ago, or an ISO-8601 date/time (no zone: local time)."""
    found = _RELATIVE.match(text.strip())
    if found:
        return now - int(found.group(1)) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[found.group(2)]
    try:
        return datetime.fromisoformat(text.strip().replace("Z", "+00:00")).timestamp()
    except ValueError:
        raise ValueError(
            f"--since {text!r}: use a duration like 10m, 2h, 1d or a time like 2024-05-01T12:00:00Z"
        ) from None


def _open() -> LedgerStore:
    from bastion.state import open_stores_from_env

    try:
        return open_stores_from_env().ledger
    except BastionError as exc:
        fail(str(exc), hint="check BASTION_STATE_DIR points at a writable folder")


LEDGER_COLUMNS = (
    Column("seq", key=True),
    Column("time", keep=6),
    Column("event", keep=7),
    Column("decision", keep=9),
    Column("by", keep=4),
    Column("tool", keep=1),  # the summary starts with it
    Column("summary", fit=Fit.MIDDLE, keep=8, least=24),
    Column("rule", keep=5),
    Column("session", fit=Fit.MIDDLE, keep=2),
    Column("exit", keep=3),
)


def _rows(records: list[LedgerRecord]) -> list[list[str]]:
    rows = []
    for r in records:
        e = r.event
        exit_text = "" if e.exit_code is None else f"{e.exit_code} ({e.duration or 0:.2f}s)"
        rows.append(
            [
                str(r.seq),
                local_time(e.time),
                e.kind,
                e.decision,
                e.resolver,
                e.tool,
                e.summary,
                f"{e.rule} @ {e.source}",
                e.session or "",
                exit_text,
            ]
        )
    return rows


def _line(r: LedgerRecord) -> str:
    e = r.event
    exit_text = "" if e.exit_code is None else f" exit={e.exit_code}"
    return (
        f"{r.seq} {local_time(e.time)} {e.kind} {e.decision} by {e.resolver} {e.summary} "
        f"[{e.rule} @ {e.source}]{exit_text}"
    )


@logs_app.callback(invoke_without_command=True)
def logs(
    ctx: typer.Context,
    session: Annotated[str | None, typer.Option("--session", help="Only this session.")] = None,
    since: Annotated[str | None, typer.Option("--since", help="10m, 2h, 1d, or an ISO-8601 time.")] = None,
    decision: Annotated[str | None, typer.Option("--decision", help="allow, ask or deny.")] = None,
    limit: Annotated[int | None, typer.Option("--limit", help="At most this many (the newest).")] = None,
    follow: Annotated[bool, typer.Option("--follow", "-f", help="Keep printing new events.")] = False,
    would_deny: Annotated[
        bool, typer.Option("--would-deny", help="Only shadow-mode calls that enforcing would have denied.")
    ] = False,
    json_out: JsonOption = False,
    wide: WideOption = False,
) -> None:
    """Show ledger events as a table (--json: an array; with --follow, one JSON object per line)."""
    if ctx.invoked_subcommand is not None:
        return
    if decision is not None and decision not in ("allow", "ask", "deny"):
        fail(f"--decision {decision!r}: use allow, ask or deny")
    try:
        since_ts = parse_since(since, time.time()) if since else None
    except ValueError as exc:
        fail(str(exc))
    store = _open()
    try:
        query = LedgerQuery(session=session, since=since_ts, decision=decision)
        records = store.query(query)
        if would_deny:  # shadow mode records them as allowed, deciding rule shadow.would_deny
            from bastion.policy.decision import Decision
            from bastion.policy.shadow import would_rule

            records = [r for r in records if r.event.rule == would_rule(Decision.DENY)]
        if limit is not None:
            records = records[-limit:] if limit > 0 else []
        if follow:
            _follow(store, query, records, json_out)
        elif json_out:
            print_json([r.to_json() for r in records])
        elif records:
            print_rows(LEDGER_COLUMNS, _rows(records), title="audit ledger", wide=wide)
        else:
            Console(highlight=False).print("no events")
    finally:
        store.close()


def _follow(store: LedgerStore, query: LedgerQuery, records: list[LedgerRecord], json_out: bool) -> None:
    console = Console(highlight=False)
    last = max((r.seq for r in store.query(LedgerQuery(after_seq=0))), default=0)
    try:
        while True:
            for r in records:
                if json_out:
                    sys.stdout.write(json_line(r.to_json()))
                else:
                    console.print(_line(r), markup=False, soft_wrap=True)
            sys.stdout.flush()
            time.sleep(0.25)
            fresh = store.query(LedgerQuery(after_seq=last))
            if fresh:
                last = fresh[-1].seq
            records = [r for r in fresh if matches(r, query)]
    except KeyboardInterrupt:
        return


@logs_app.command("verify")
def verify(json_out: JsonOption = False) -> None:
    """Check the hash chain: exit 0 when it holds, 1 naming the first bad record."""
    store = _open()
    try:
        result = verify_store(store)  # never raises: any corruption names its record
    finally:
        store.close()
    if json_out:
        print_json(result.to_json())
    elif result.ok:
        Console(highlight=False).print(f"ledger intact: {result.checked} records, head {result.head}")
    else:
        Console(stderr=True, highlight=False).print(
            f"ledger broken at record {result.bad_seq}: {result.problem}\n"
            f"{result.checked} records before it verify; everything from record {result.bad_seq} on "
            "cannot be trusted. Keep a copy of the database for investigation.",
            markup=False,
        )
    raise typer.Exit(0 if result.ok else EXIT_BROKEN)
