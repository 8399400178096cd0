"""Bastion's own ledger read back as calls: records (``bastion logs --json``, or the store).

The ledger keeps the family and a *redacted* one-line summary of every call, not its
arguments (unless ``[audit] store_raw_arguments = true``). From a summary this module
rebuilds the one argument that decides most families — the shell command, the read/edit/
list/glob path, the write path (not its content), the fetch URL, the MCP server, tool and
(redacted) arguments, the grep pattern and path — and marks the call ``approximate``:
masked secrets replay as ``***``, and the cwd is not recorded (relative paths resolve
against ``--cwd``). A family it cannot rebuild (code, install, db) is skipped and counted.
One call per ``decision_id``: its final decision is ``live``, a person's answer its outcome.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from bastion.evidence.model import Outcome, Proposed
from bastion.runtime.hand_offs import asked_in_prompt

_WRITE_SIZE = re.compile(r" \(\d+ chars\)$")
_METHOD = re.compile(r"^[A-Z]+ (?=\S+://)")
#: Record kinds that carry a decision (``executed`` repeats the one before it).
_DECIDING = ("decided", "requested", "resolved")


def args_from_summary(family: str, summary: str) -> dict[str, Any] | None:
    """The arguments a summary ``"family: value"`` stands for; None when it cannot say."""
    prefix = f"{family}: "
    if not summary.startswith(prefix):
        return None
    value = summary[len(prefix) :]
    if family == "shell":
        return {"command": value}
    if family in ("read", "edit", "list", "glob"):
        return {"path": value}
    if family == "write":
        return {"path": _WRITE_SIZE.sub("", value), "content": ""}
    if family == "fetch":
        return {"url": _METHOD.sub("", value)}
    if family == "grep":
        pattern, sep, path = value.rpartition(" in ")
        return {"pattern": pattern, "path": path} if sep else None
    if family == "mcp":
        name, _, rest = value.partition(" ")
        server, sep, tool = name.partition("/")
        try:
            arguments = json.loads(rest or "{}")
        except ValueError:
            return None
        return {"server": server, "tool": tool, "arguments": arguments} if sep else None
    return None


def _outcome(record: Mapping[str, Any]) -> Outcome:
    """An ASK a person answered: parked (the web page, the CLI, a callback), or handed to
    the agent's own prompt (``claude prompt``: it ran, or the turn ended without it)."""
    if record.get("kind") != "resolved":
        return Outcome.UNKNOWN
    resolver = record.get("resolver")
    if resolver not in ("person", "callback") and not asked_in_prompt(resolver, record.get("approver")):
        return Outcome.UNKNOWN
    return Outcome.APPROVED if record.get("decision") == "allow" else Outcome.DENIED


def from_records(
    records: Iterable[Mapping[str, Any]], *, origin: str, default_cwd: str, skipped: list[str] | None = None
) -> Iterator[Proposed]:
    """One Proposed per decision, in ledger order, from record dicts (``to_json`` shape)."""
    first: dict[str, tuple[Mapping[str, Any], str]] = {}
    final: dict[str, Mapping[str, Any]] = {}
    for n, record in enumerate(records, 1):
        if record.get("kind") not in _DECIDING:
            continue
        key = str(record.get("decision_id") or f"#{n}")
        where = f"{origin}:seq{record.get('seq', n)}"
        first.setdefault(key, (record, where))
        final[key] = record
    for key, (record, where) in first.items():
        family, raw = str(record.get("tool", "")), record.get("raw_args")
        args = raw if isinstance(raw, Mapping) else args_from_summary(family, str(record.get("summary", "")))
        if args is None:
            if skipped is not None:
                skipped.append(f"{where}: {family} — the ledger keeps no arguments to rebuild it from")
            continue
        last = final[key]
        agent = str(record.get("agent") or "")
        yield Proposed(
            where,
            "ledger",
            family,
            args,
            cwd=default_cwd,
            session=record.get("session"),
            call_id=agent.partition("/")[2] or None,
            live=str(last.get("decision")),
            outcome=_outcome(last),
            approximate=not isinstance(raw, Mapping),
        )


def from_store(
    env: Mapping[str, str] | None = None, *, default_cwd: str, skipped: list[str] | None = None
) -> list[Proposed]:
    """Every call in the ledger of the state store that applies here."""
    from bastion.state import open_stores_from_env

    stores = open_stores_from_env(env)
    try:
        records = [r.to_json() for r in stores.ledger.scan()]
    finally:
        stores.close()
    return list(from_records(records, origin="ledger", default_cwd=default_cwd, skipped=skipped))
