"""Server-rendered HTML for the approvals page: templates filled with escaped values."""

from __future__ import annotations

import functools
from html import escape
from importlib import resources
from string import Template

from bastion.approval.model import ApprovalRequest, iso
from bastion.audit.events import LedgerRecord
from bastion.policy.decision import Decision


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
        nav = fill("nav.html", csrf=escape(csrf), pending_current=current if tab == "pending" else "",
                   history_current=current if tab == "history" else "")
    scripts = '<script src="/static/app.js" defer></script>' if live else ""
    return fill("base.html", title=escape(title), csrf=escape(csrf), nav=nav, content=content,
                scripts=scripts)


def login(error: str = "") -> str:
    shown = f'<p class="error" role="alert">{escape(error)}</p>' if error else ""
    return page("Log in", fill("login.html", error=shown))


def time_left(seconds: float) -> str:
    seconds = max(int(seconds), 0)
    return f"{seconds // 60}:{seconds % 60:02d}"


def card(request: ApprovalRequest, *, csrf: str, now: float) -> str:
    asked = [r for r in request.evaluation.reasons if r.decision is Decision.ASK] or \
        list(request.evaluation.reasons)
    rules = "; ".join(f"<code>{escape(r.rule)}</code> ({escape(r.source)})" for r in asked)
    classes = ", ".join(escape(e.value) for e in request.evaluation.effects) or "none found"
    who = "".join(f"<dt>{label}</dt><dd>{escape(value)}</dd>" for label, value in
                  (("Session", request.session), ("Agent", request.agent)) if value)
    return fill("card.html", id=escape(request.id), state=escape(request.state.value),
                tool=escape(request.tool), summary=escape(request.summary),
                reason=escape(request.reason), rules=rules, classes=classes, who=who,
                expires_iso=escape(iso(request.expires) or ""), expires=f"{request.expires:.3f}",
                time_left=time_left(request.expires - now), csrf=escape(csrf),
                always=_always(request))


def _always(request: ApprovalRequest) -> str:
    rid = escape(request.id)
    if not request.grantable:
        return ('<p class="hardline">A hardline class is involved: this call can be approved '
                "once, never always.</p>")
    session = ""
    if request.session:
        session = (f'<input type="radio" id="scope-session-{rid}" name="scope" value="session">'
                   f'<label for="scope-session-{rid}">this session (<code>{escape(request.session)}'
                   "</code>)</label>")
    pattern = ""
    if request.suggested_pattern:
        p = escape(request.suggested_pattern)
        pattern = (f'<fieldset class="cover"><legend>Covering</legend>'
                   f'<input type="radio" id="cover-exact-{rid}" name="cover" value="" checked>'
                   f'<label for="cover-exact-{rid}">this exact call</label>'
                   f'<input type="radio" id="cover-pattern-{rid}" name="cover" value="{p}">'
                   f'<label for="cover-pattern-{rid}">commands matching <code>{p}</code></label>'
                   "</fieldset>")
    return fill("always.html", id=rid, session_choice=session, pattern_choice=pattern)


def pending(requests: list[ApprovalRequest], *, csrf: str, now: float) -> str:
    cards = "\n".join(card(r, csrf=csrf, now=now) for r in requests)
    content = fill("pending.html", cards=cards, empty_hidden="hidden" if requests else "",
                   status=f"{len(requests)} waiting" if requests else "")
    return page("Pending", content, csrf=csrf, tab="pending", live=True)


def history(records: list[LedgerRecord], *, csrf: str) -> str:
    rows = "\n".join(
        "<tr>" + "".join(f"<td>{cell}</td>" for cell in (
            f'<time datetime="{escape(iso(r.event.time) or "")}">{escape(iso(r.event.time) or "")}</time>',
            escape(r.event.tool), f"<code>{escape(r.event.summary)}</code>",
            f'<span class="decision {escape(r.event.decision)}">{escape(r.event.decision)}</span>',
            escape(r.event.resolver), escape(r.event.message))) + "</tr>"
        for r in records)
    empty = "" if records else "<p>No request has been resolved yet.</p>"
    return page("History", fill("history.html", rows=rows, empty=empty), csrf=csrf, tab="history")
