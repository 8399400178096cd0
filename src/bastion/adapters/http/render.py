"""Server-rendered HTML for the approvals page: templates filled with escaped values."""

from __future__ import annotations

import functools
from html import escape
from importlib import resources
from string import Template
from typing import Any

from bastion.adapters.http.settings_form import change_form
from bastion.approval.model import ApprovalRequest, iso
from bastion.audit.events import LedgerRecord
from bastion.call.effects import Effect
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


def time_left(seconds: float) -> str:
    seconds = max(int(seconds), 0)
    return f"{seconds // 60}:{seconds % 60:02d}"


def card(request: ApprovalRequest, *, csrf: str, now: float) -> str:
    asked = [r for r in request.evaluation.reasons if r.decision is Decision.ASK] or list(
        request.evaluation.reasons
    )
    rules = "; ".join(f"<code>{escape(r.rule)}</code> ({escape(r.source)})" for r in asked)
    classes = ", ".join(escape(e.value) for e in request.evaluation.effects) or "none found"
    agent, tool_call = agent_and_tool_call(request.agent)
    who = "".join(
        f'<dt>{label}</dt><dd class="{label.lower().replace(" ", "-")}">{escape(value)}</dd>'
        for label, value in (("Session", request.session), ("Agent", agent), ("Tool call", tool_call))
        if value
    )
    profile = request.profile
    if profile is not None:  # the profile the decision carries: what an approved call may touch
        hosts = ", ".join(profile["hosts"]) or "none"
        who += (f'<dt>Runs in</dt><dd class="profile">sandbox profile {escape(profile["filesystem"])}, '
                f"network: {escape(hosts)}</dd>")  # fmt: skip
    rid = escape(request.id)
    if request.state.final:
        timing = (f'<dt class="timing">Resolved</dt><dd class="timing">{escape(request.state.value)}'
                  "</dd>")  # fmt: skip
        answer = ""
    else:
        timing = (
            '<dt class="timing">Time left</dt><dd class="timing"><time class="expires" '
            f'datetime="{escape(iso(request.expires) or "")}" data-expires="{request.expires:.3f}">'
            f"{time_left(request.expires - now)}</time> then it is denied</dd>"
        )
        answer = fill(
            "answer.html",
            id=rid,
            csrf=escape(csrf),
            always=_always(request),
            uncontained=_uncontained(request),
        )
    return fill(
        "card.html",
        id=rid,
        state=escape(request.state.value),
        tool=escape(request.tool),
        summary=escape(call_text(request)),
        project=escape(request.project),
        reason=escape(request.reason),
        rules=rules,
        classes=classes,
        who=who,
        parse=_parse(request),
        timing=timing,
        form=answer,
    )


def agent_and_tool_call(agent: str | None) -> tuple[str, str]:
    """The agent's name and, apart, the id of its tool call: a hook records the call's agent
    as ``claude/toolu_…``, and a person reads the name, not the id."""
    name, _, tool_call = (agent or "").partition("/")
    return name, tool_call


def call_text(request: ApprovalRequest) -> str:
    """The summary without its ``tool:`` prefix (the card's title shows the tool already)."""
    prefix = f"{request.tool}: "
    return request.summary[len(prefix) :] if request.summary.startswith(prefix) else request.summary


def _effects(effects: frozenset[Effect]) -> str:
    return ", ".join(sorted(e.value for e in effects)) or "none"


def _parse(request: ApprovalRequest) -> str:
    """For a shell call, what the parse found: each simple command and its effect classes."""
    if request.tool != "shell":
        return ""
    from bastion.shell.analysis import analyze

    analysis = analyze(call_text(request))
    items = "".join(
        f"<li><code>{escape(' '.join(cmd.argv) or cmd.text)}</code> "
        f'<span class="effects">{escape(_effects(cmd.effects))}</span></li>'
        for cmd in analysis.commands
    )
    if not analysis.decidable:
        items += (
            f'<li class="undecidable">could not be parsed: {escape("; ".join(analysis.errors)[:200])}</li>'
        )
    return f'<dt>Commands</dt><dd><ul class="parse">{items}</ul></dd>' if items else ""


def _always(request: ApprovalRequest) -> str:
    rid = escape(request.id)
    if not request.grantable:
        return (
            '<p class="hardline">A hardline class is involved: this call can be approved '
            "once, never always.</p>"
        )
    session = ""
    if request.session:
        session = (
            f'<input type="radio" id="scope-session-{rid}" name="scope" value="session">'
            f'<label for="scope-session-{rid}">this session (<code>{escape(request.session)}'
            "</code>)</label>"
        )
    pattern = ""
    # A pattern that is the exact call covers nothing more: one choice, not two alike.
    wider = request.suggested_pattern
    if wider is not None and wider.strip() == call_text(request).strip():
        wider = None
    if wider:
        p = escape(wider)
        pattern = (
            f'<fieldset class="cover"><legend>Covering</legend>'
            f'<input type="radio" id="cover-exact-{rid}" name="cover" value="" checked>'
            f'<label for="cover-exact-{rid}">this exact call</label>'
            f'<input type="radio" id="cover-pattern-{rid}" name="cover" value="{p}">'
            f'<label for="cover-pattern-{rid}">commands matching <code>{p}</code></label>'
            "</fieldset>"
        )
    covers = (f"commands matching <code>{escape(wider)}</code> or this exact call"
              if wider else "this exact call")  # fmt: skip
    grants = f"{covers}, for this project or the chosen session"
    return fill(
        "always.html",
        id=rid,
        session_choice=session,
        pattern_choice=pattern,
        project=escape(request.project),
        grants=grants,
    )


def pending(requests: list[ApprovalRequest], *, csrf: str, now: float) -> str:
    cards = "\n".join(card(r, csrf=csrf, now=now) for r in requests)
    content = fill(
        "pending.html",
        cards=cards,
        empty_hidden="hidden" if requests else "",
        status=f"{len(requests)} waiting" if requests else "",
    )
    return page("Pending", content, csrf=csrf, tab="pending", live=True)


def _time(ts: float) -> str:
    text = escape(iso(ts) or "")
    return f'<time datetime="{text}">{text}</time>'


def history(records: list[LedgerRecord], *, csrf: str) -> str:
    rows = "\n".join(
        "<tr>"
        + "".join(
            f"<td>{cell}</td>"
            for cell in (
                _time(r.event.time),
                escape(r.event.tool),
                f"<code>{escape(r.event.summary)}</code>",
                f'<span class="decision {escape(r.event.decision)}">{escape(r.event.decision)}</span>',
                escape(r.event.approver or r.event.resolver),  # who answered: a key id, local:<user>
                escape(r.event.message),
            )
        )
        + "</tr>"
        for r in records
    )
    empty = "" if records else "<p>No request has been resolved yet.</p>"
    return page("History", fill("history.html", rows=rows, empty=empty), csrf=csrf, tab="history")


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


def _uncontained(request: ApprovalRequest) -> str:
    """ "Approve uncontained", offered only for a call that would otherwise run contained:
    a separate, explicit choice, recorded with its approver, never a standing grant."""
    if request.profile is None:
        return ""
    return (
        '<button type="submit" name="action" value="approve_uncontained" class="uncontained">'
        "Approve uncontained (run as written, outside the sandbox)</button>"
    )
