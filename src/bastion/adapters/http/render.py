"""Server-rendered HTML for the approvals page: templates filled with escaped values."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from html import escape
from importlib import resources
from string import Template
from typing import Any

from bastion.adapters.http.settings_form import change_form
from bastion.approval.model import CANCEL, EXPIRY, LOCAL_PREFIX, iso
from bastion.audit.events import LedgerRecord


@functools.cache
def template(name: str) -> Template:
    text = resources.files("bastion.adapters.http").joinpath("templates", name).read_text("utf-8")
    return Template(text)


def fill(name: str, **values: str) -> str:
    """``values`` are HTML already (escape text with :func:`escape` before passing it)."""
    return template(name).substitute(values)


def page(title: str, content: str, *, csrf: str = "", tab: str | None = None, live: bool = False) -> str:
    nav = ""
    if tab is not None:
        current = 'aria-current="page"'
        nav = fill(
            "nav.html",
            csrf=escape(csrf),
            pending_current=current if tab == "pending" else "",
            history_current=current if tab == "history" else "",
            settings_current=current if tab == "settings" else "",
        )
    scripts = '<script src="/static/app.js" defer></script>' if live else ""
    return fill(
        "base.html", title=escape(title), csrf=escape(csrf), nav=nav, content=content, scripts=scripts
    )


def login(error: str = "") -> str:
    shown = f'<p class="error" role="alert">{escape(error)}</p>' if error else ""
    return page("Log in", fill("login.html", error=shown))


def _time(ts: float) -> str:
    text = escape(iso(ts) or "")
    return f'<time datetime="{text}">{text}</time>'


def approver_name(approver: str, names: Mapping[str, str]) -> str:
    """Who answered, as a person reads it: an approver key by its name (its label, the key id
    when it has none), ``local:<user>`` as that user at a terminal, the rest as they are."""
    if approver in names:
        return names[approver]
    if approver.startswith(LOCAL_PREFIX):
        return f"{approver.removeprefix(LOCAL_PREFIX)} (at a terminal)"
    return {EXPIRY: "nobody (time ran out)", CANCEL: "nobody (cancelled)"}.get(approver, approver)


#: The history table's columns: its header and, on a phone, the label before each cell.
HISTORY_COLUMNS = ("Time", "Tool", "Call", "Decision", "By", "Why")


def _history_cells(r: LedgerRecord, names: Mapping[str, str]) -> tuple[str, ...]:
    return (
        _time(r.event.time),
        escape(r.event.tool),
        f"<code>{escape(r.event.summary)}</code>",
        f'<span class="decision {escape(r.event.decision)}">{escape(r.event.decision)}</span>',
        escape(approver_name(r.event.approver or r.event.resolver, names)),
        escape(r.event.message),
    )


def history(records: list[LedgerRecord], *, csrf: str, names: Mapping[str, str]) -> str:
    """``names``: each approver key's name by its id."""
    rows = "\n".join(
        "<tr>"
        + "".join(
            f'<td data-label="{label}">{cell}</td>'
            for label, cell in zip(HISTORY_COLUMNS, _history_cells(r, names), strict=True)
        )
        + "</tr>"
        for r in records
    )
    empty = "" if records else "<p>No request has been resolved yet.</p>"
    head = "".join(f'<th scope="col">{label}</th>' for label in HISTORY_COLUMNS)
    return page("History", fill("history.html", head=head, rows=rows, empty=empty), csrf=csrf, tab="history")


def _roots(paths: list[str]) -> str:
    return (
        "<ul>" + "".join(f"<li><code>{escape(p)}</code></li>" for p in paths) + "</ul>" if paths else "none"
    )


def _grant(grant: dict[str, object], *, csrf: str, can_revoke: bool) -> str:
    gid = escape(str(grant["id"]))
    covers = (f"commands matching <code>{escape(str(grant['pattern']))}</code>" if grant["pattern"]
              else f"exactly <code>{escape(str(grant['summary']))}</code>")  # fmt: skip
    evidence = grant.get("evidence")
    proof = "no request on record"
    if isinstance(evidence, dict):
        proof = (
            f"approved by a person ({escape(str(evidence['resolver']))}) at "
            f"{escape(str(evidence['resolved_at']))} when asked: {escape(str(evidence['reason']))}"
        )
    button = (
        (
            f'<form method="post" action="/settings/grants/{gid}/revoke" class="revoke">'
            f'<input type="hidden" name="csrf" value="{escape(csrf)}">'
            f'<button type="submit">Revoke</button></form>'
        )
        if can_revoke
        else ""
    )
    return (
        f'<li class="card grant" id="grant-{gid}" data-id="{gid}"><dl>'
        f"<dt>Grant</dt><dd><code>{gid}</code></dd>"
        f"<dt>Tool</dt><dd>{escape(str(grant['tool']))}</dd><dt>Covers</dt><dd>{covers}</dd>"
        f"<dt>Scope</dt><dd>{escape(str(grant['scope']))}: "
        f"<code>{escape(str(grant['scope_value']))}</code></dd>"
        f"<dt>Since</dt><dd>{escape(str(grant['created_at']))}</dd>"
        f'<dt>Evidence</dt><dd class="evidence">{proof}</dd></dl>{button}</li>'
    )


def settings(data: dict[str, Any], *, csrf: str, can_revoke: bool, status: str = "") -> str:
    """The settings page; ``status`` is HTML saying what a save did (or why it did not)."""
    ceiling = data["ceiling"]
    ceiling_text = "none (the mode alone caps calls)"
    if ceiling is not None:
        ceiling_text = (
            f"approval <strong>{escape(ceiling['approval'])}</strong>, file system "
            f"<strong>{escape(ceiling['filesystem'])}</strong>, network "
            f"<strong>{escape(ceiling['network'])}</strong> "
            f'<span class="source">from {escape(ceiling["source"])}</span>'
        )
    approval = data["approval"]
    approval_text = (
        f"with a person present: {escape(approval['interactive_default'])}; without: "
        f"{escape(approval['non_interactive_default'])}; unanswered after "
        f"{approval['ttl_seconds']:g} s: denied "
        f'<span class="source">from {escape(approval["source"])}</span>'
    )
    trusted = [
        f"{t['path']} ({'read-write' if t['writable'] else 'read-only'})" for t in data["trusted_roots"]
    ]
    grants = "\n".join(_grant(g, csrf=csrf, can_revoke=can_revoke) for g in data["grants"])
    content = fill("settings.html", mode=escape(data["mode"]["value"]),
                   mode_source=escape(data["mode"]["source"]), ceiling=ceiling_text, approval=approval_text,
                   files=_roots(data["policy_files"]) if data["policy_files"] else "built-in defaults only",
                   workspace=_roots(data["workspace_roots"]), trusted=_roots(trusted), grants=grants,
                   empty_hidden="hidden" if data["grants"] else "", status=status,
                   writes_to=escape(str(data.get("writes_to", ""))),
                   change=change_form(data, csrf=csrf) if can_revoke else "")  # fmt: skip
    return page("Settings", content, csrf=csrf, tab="settings")
