"""``bastion check`` and ``bastion explain``: decide only — nothing is run or recorded."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sys
from collections.abc import Iterator
from typing import Annotated, Any, TextIO

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from bastion.adapters.cli.common import (
    CwdOption,
    JsonOption,
    NonInteractiveOption,
    PolicyOption,
    call_from_args,
    fail,
    json_line,
    policy_or_exit,
    print_json,
    resolve_cwd,
)
from bastion.call.model import ToolCall
from bastion.construct import GateOptions, build_gate, describe_differences
from bastion.errors import CallError
from bastion.policy.decision import Decision, Evaluation, deny_for_error
from bastion.policy.engine import Gate
from bastion.policy.remedy import how_to_allow

FamilyArg = Annotated[str | None, typer.Argument(help="Tool family: shell, read, write, fetch, …")]
ValueArg = Annotated[str | None, typer.Argument(help="The call's value, or JSON of its arguments.")]
BatchOption = Annotated[
    str | None, typer.Option("--batch", help="JSON Lines of tool calls from FILE or - (stdin).")
]

_STYLE = {Decision.ALLOW: "bold green", Decision.ASK: "bold yellow", Decision.DENY: "bold red"}


def register(app: typer.Typer) -> None:
    app.command("check", help="Decide a tool call: exit 0 allow, 3 ask, 4 deny, 2 error.")(check)
    app.command("explain", help="Show every stage of a decision, human-readable.")(explain)


def _single(family: str | None, value: str | None, cwd: str, non_interactive: bool) -> ToolCall:
    if family is None or value is None:
        fail("give FAMILY and ARG (e.g. bastion check shell 'git status'), or --batch FILE")
    try:
        return call_from_args(family, value, cwd=cwd, interactive=not non_interactive)
    except CallError as exc:
        fail(str(exc))


def check(
    family: FamilyArg = None,
    value: ValueArg = None,
    policy: PolicyOption = None,
    cwd: CwdOption = None,
    non_interactive: NonInteractiveOption = False,
    json_out: JsonOption = False,
    batch: BatchOption = None,
) -> None:
    where = resolve_cwd(cwd)
    loaded = policy_or_exit(policy, where, boot=True)
    gate = build_gate(loaded, as_a_hook())
    if batch is not None:
        if family is not None:
            fail("--batch takes no FAMILY/ARG")
        run_batch(gate, batch, default_cwd=where)
        return
    evaluation = gate.evaluate(_single(family, value, where, non_interactive))
    if json_out:
        print_json(evaluation.to_json())
    else:
        render(evaluation, Console(highlight=False))
    raise typer.Exit(evaluation.decision.exit_code)


def explain(
    family: FamilyArg = None,
    value: ValueArg = None,
    policy: PolicyOption = None,
    cwd: CwdOption = None,
    non_interactive: NonInteractiveOption = False,
    json_out: JsonOption = False,
) -> None:
    where = resolve_cwd(cwd)
    loaded = policy_or_exit(policy, where, boot=True)
    call = _single(family, value, where, non_interactive)
    options = as_a_hook()
    evaluation = build_gate(loaded, options).explain(call)
    # What this entry point chose (resolver, sandbox): another entry point may differ only here.
    chosen = (*options.describe(), *describe_differences(options))
    evaluation = dataclasses.replace(evaluation, trace=(*chosen, *evaluation.trace))
    commands = _shell_commands(call)
    from bastion.evidence.chain import chain  # issue #18: every matching entry, in order

    links = chain(loaded, call, evaluation)
    if json_out:
        print_json(
            {**evaluation.to_json(), "trace": list(evaluation.trace), "commands": commands, "chain": links}
        )
    else:
        console = Console(highlight=False)
        console.print(f"[bold]call[/]: {escape(call.tool)} {escape(json.dumps(call.to_json()['args']))}")
        if commands:
            table = Table(title="shell parse", show_lines=False)
            for column in ("command", "argv", "effects", "paths", "hosts"):
                table.add_column(column, overflow="fold")
            for c in commands:
                table.add_row(
                    c["text"],
                    " ".join(c["argv"]),
                    ", ".join(c["effects"]),
                    ", ".join(f"{p['access']} {p['path'] or p['raw'] + ' (dynamic)'}" for p in c["paths"]),
                    ", ".join(c["hosts"]),
                )
            console.print(table)
        console.print("[bold]stages[/]:")
        for line in evaluation.trace:
            console.print(f"  {line}", markup=False)
        _print_chain(links, console)
        render(evaluation, console)
    raise typer.Exit(evaluation.decision.exit_code)


def as_a_hook() -> GateOptions:
    """The gate's choices for ``check`` and ``explain``: an allowed shell call runs contained
    where this machine has a working sandbox, as an agent's hook runs it (its rewrite)."""
    options = GateOptions().settled()
    return dataclasses.replace(options, contained_shell=options.sandboxed)


def _print_chain(links: list[dict[str, Any]], console: Console) -> None:
    if not links:
        return
    console.print("[bold]matched, in order[/] (deny lists, allow lists, then rules: the last rule wins):")
    for n, link in enumerate(links, 1):
        verdict = "deciding" if link.get("deciding") else f"overridden by {link['overridden_by']}"
        console.print(
            f"  {n}. {link['stage']} {link['entry']!r} ({link['action']}) at {link['source']} "
            f"matched {link['subject']!r} — {verdict}",
            markup=False,
        )


def _shell_commands(call: ToolCall) -> list[dict[str, Any]]:
    if call.tool != "shell" or not isinstance(call.args.get("command"), str):
        return []
    from bastion.shell.analysis import analyze

    analysis = analyze(call.args["command"])
    out: list[dict[str, Any]] = [
        {
            "text": c.text,
            "argv": list(c.argv),
            "program": c.program,
            "effects": sorted(e.value for e in c.effects),
            "paths": [
                {"access": p.access.value, "path": p.path, "raw": p.raw, "why": p.why} for p in c.paths
            ],
            "hosts": list(c.hosts),
            "wrappers": list(c.wrappers),
            "notes": list(c.notes),
        }
        for c in analysis.commands
    ]
    out.extend(
        {
            "text": "",
            "argv": [],
            "program": None,
            "effects": ["unknown"],
            "paths": [],
            "hosts": [],
            "wrappers": [],
            "notes": [e],
        }
        for e in analysis.errors
    )
    return out


def render(evaluation: Evaluation, console: Console) -> None:
    style = _STYLE[evaluation.decision]
    marker = f" {escape(evaluation.marker)}" if evaluation.marker else ""
    console.print(f"[{style}]{evaluation.decision.label.upper()}[/]{marker}")
    table = Table(show_header=True, header_style="bold")
    for column in ("decision", "rule", "source", "matched", "message"):
        table.add_column(column, overflow="fold")
    for r in evaluation.reasons:
        table.add_row(*(Text(x) for x in (r.decision.label, r.rule, r.source, r.matched, r.message)))
    console.print(table)
    if evaluation.effects:
        console.print("effects: " + ", ".join(e.value for e in evaluation.effects))
    remedy = how_to_allow(evaluation)
    if remedy is not None:  # a denial ends with how to allow it, or that it cannot be
        console.print(Text(remedy), soft_wrap=True)


def _lines(source: str) -> Iterator[bytes]:
    """Byte-exact ``\n`` framing: a bare CR, U+2028 or a form feed is part of its line, never
    a line break (``str.splitlines`` would split there and shift decisions onto other lines).
    A final line without ``\n`` is still a line."""
    try:
        handle = sys.stdin.buffer if source == "-" else open(source, "rb")  # noqa: SIM115
    except OSError as exc:
        fail(f"cannot read batch file {source}: {exc.strerror or exc}")
    with contextlib.ExitStack() as stack:
        if handle is not sys.stdin.buffer:
            stack.enter_context(handle)
        pending = b""
        while chunk := handle.read(1 << 16):
            pending += chunk
            *complete, pending = pending.split(b"\n")
            yield from complete
        if pending:
            yield pending


def _decide_line(gate: Gate, raw: bytes, number: int, default_cwd: str) -> Evaluation:
    """One line's Evaluation; every input error is a deny naming the line."""
    try:  # a CRLF line ending leaves "\r", which JSON reads as whitespace
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return deny_for_error(f"line {number}: not UTF-8 ({exc.reason})", rule="call.invalid")
    if not text.strip():
        return deny_for_error(f"line {number}: empty line (one call per line)", rule="call.invalid")
    try:
        return gate.evaluate(ToolCall.from_json(text, default_cwd=default_cwd))
    except CallError as exc:
        return deny_for_error(f"line {number}: {exc}", rule="call.invalid")
    except Exception as exc:  # one line never stops the batch, and never allows
        return deny_for_error(exc)


#: How many characters of answers ``run_batch`` gathers before one write.
_OUT_BLOCK = 1 << 16


def run_batch(gate: Gate, source: str, *, default_cwd: str, out: TextIO | None = None) -> int:
    """JSON Lines in, exactly one Evaluation per input line out, in order. A bad line
    (blank, malformed, not UTF-8) is a deny, not a stop and not a skipped line."""
    stream = out or sys.stdout
    progress = sys.stderr.isatty()
    count = 0
    # Answers go out in blocks, not a write per line: with PYTHONUNBUFFERED (or a pipe to
    # a reader woken by each write) one write per call cost more than deciding it. The input
    # is read in 64 KiB blocks, so nobody can be waiting on one answer line before the next.
    pending: list[str] = []
    size = 0
    try:
        for raw in _lines(source):
            count += 1
            line = json_line(_decide_line(gate, raw, count, default_cwd).to_json())
            pending.append(line)
            size += len(line)
            if size >= _OUT_BLOCK:
                stream.write("".join(pending))
                pending, size = [], 0
            if progress and count % 500 == 0:
                sys.stderr.write(f"\r{count} calls decided")
    finally:  # what was decided is written, even when the input stops with an error
        stream.write("".join(pending))
        stream.flush()
    if progress and count >= 500:
        sys.stderr.write(f"\r{count} calls decided\n")
    return count
