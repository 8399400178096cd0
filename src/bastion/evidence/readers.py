"""Files → the calls in them, whatever wrote them; the format is told from the content.

A whole-file JSON document is a Gemini CLI chat log (``messages``) or a ledger export
(``bastion logs --json``: an array of records). Otherwise every line is its own JSON
value: a Claude Code transcript line, a Codex rollout line, a hook payload, a ledger
record, or a Bastion call (``{"tool": …, "args": …}``). Lines of other kinds (messages,
metadata) hold no call and are passed over; a line that is not JSON is reported.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bastion.evidence import agents, ledger
from bastion.evidence.model import Proposed

LineReader = Callable[[Mapping[str, Any], str, agents.FileState], list[Proposed]]
_BASTION_KEYS = frozenset({"tool", "args", "cwd", "session", "turn", "agent", "interactive"})


@dataclass
class ReadReport:
    """What a read found: the calls, and what it could not use (shown to the person)."""

    calls: list[Proposed] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    formats: dict[str, str] = field(default_factory=dict)  # file → the format it was read as


def _kind(obj: Mapping[str, Any]) -> str | None:
    if obj.get("type") in ("response_item", "session_meta", "turn_context", "event_msg"):
        return "codex"
    if "sessionId" in obj and isinstance(obj.get("message"), Mapping):
        return "claude"
    if "hook_event_name" in obj or "tool_name" in obj or "toolName" in obj:
        return "hook"
    if "seq" in obj and "summary" in obj and "kind" in obj:
        return "ledger"
    if isinstance(obj.get("tool"), str) and set(obj) <= _BASTION_KEYS:
        return "bastion"
    return None


def _bastion_line(obj: Mapping[str, Any], origin: str, state: agents.FileState) -> list[Proposed]:
    args = obj.get("args")
    return [
        Proposed(
            origin,
            "bastion",
            str(obj["tool"]),
            args if isinstance(args, Mapping) else {},
            cwd=str(obj.get("cwd") or state.default_cwd),
            session=obj.get("session"),
        )
    ]


_LINE_READERS: dict[str, LineReader] = {
    "claude": agents.claude_line,
    "codex": agents.codex_line,
    "hook": agents.hook_line,
    "bastion": _bastion_line,
}


def read_text(text: str, path: str, *, default_cwd: str, report: ReadReport) -> None:
    """Add the calls in one file's ``text`` to ``report``."""
    state = agents.FileState(path, default_cwd)
    whole = _whole(text)
    if isinstance(whole, Mapping) and isinstance(whole.get("messages"), list):
        report.formats[path] = "gemini"
        report.calls.extend(agents.gemini_messages(whole, path, state))
        return
    if isinstance(whole, list):
        report.formats[path] = "ledger"
        records = [r for r in whole if isinstance(r, Mapping)]
        report.calls.extend(
            ledger.from_records(records, origin=path, default_cwd=default_cwd, skipped=report.problems)
        )
        return
    found: list[Proposed] = []
    ledger_records: list[Mapping[str, Any]] = []
    kinds: set[str] = set()
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            report.problems.append(f"{path}:{n}: not JSON; skipped")
            continue
        kind = _kind(obj) if isinstance(obj, Mapping) else None
        if kind is None:
            continue
        kinds.add(kind)
        if kind == "ledger":
            ledger_records.append(obj)
        else:
            found.extend(_LINE_READERS[kind](obj, f"{path}:{n}", state))
    found.extend(
        ledger.from_records(ledger_records, origin=path, default_cwd=default_cwd, skipped=report.problems)
    )
    report.formats[path] = "+".join(sorted(kinds)) or "no calls"
    report.calls.extend(_with_outcomes(_unique(found), state))


def _whole(text: str) -> Any:
    stripped = text.lstrip()
    if not stripped.startswith(("[", "{")) or "\n{" in stripped.rstrip():
        return None  # JSON Lines
    try:
        return json.loads(text)
    except ValueError:
        return None


def _unique(calls: list[Proposed]) -> list[Proposed]:
    """Claude Code may write one tool_use on several lines (streamed, then final)."""
    seen: set[str] = set()
    out = []
    for call in calls:
        if call.call_id is not None:
            if call.call_id in seen:
                continue
            seen.add(call.call_id)
        out.append(call)
    return out


def _with_outcomes(calls: list[Proposed], state: agents.FileState) -> list[Proposed]:
    return [
        dataclasses.replace(c, outcome=agents.outcome_of(state.results.get(c.call_id or "")))
        if c.reader in ("claude", "codex")
        else c
        for c in calls
    ]


def read_files(
    paths: list[str], *, default_cwd: str, on_file: Callable[[str, int], None] | None = None
) -> ReadReport:
    """Read every file; ``on_file(path, size)`` is told each one before it is read."""
    report = ReadReport()
    for path in paths:
        try:
            with open(path, encoding="utf-8", errors="surrogateescape") as handle:
                text = handle.read()
        except OSError as exc:
            report.problems.append(f"{path}: cannot read ({exc.strerror or exc})")
            continue
        if on_file is not None:
            on_file(path, len(text))
        read_text(text, path, default_cwd=default_cwd, report=report)
    return report
