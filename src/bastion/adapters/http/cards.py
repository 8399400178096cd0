"""The approvals card: one parked call stated as facts a person answers on.

Top down, what a person needs before answering and nothing else first: the call in one line,
what it runs in (the sandbox profile and hosts the decision carries, or that it runs as
written), why it was asked, who asks and from which folder, the time left and what ends it;
then the answers; then the details (session, tool-call id, rule, classes, the parse).
"""

from __future__ import annotations

from html import escape

from bastion.adapters.http.render import fill, page
from bastion.approval.model import ApprovalRequest, Deadline, iso
from bastion.call.effects import Effect
from bastion.policy.decision import Decision

#: What ends the wait, in the words a person reads after the time left.
_ENDS = {
    Deadline.POLICY: "then it is denied (the policy's time to answer)",
    Deadline.CALLER: "then it is denied: the caller stops waiting (its own time-out is shorter "
    "than the policy's)",
}


def time_left(seconds: float) -> str:
    seconds = max(int(seconds), 0)
    return f"{seconds // 60}:{seconds % 60:02d}"


def _fact(label: str, css: str, value: str) -> str:
    """One ``<dt>``/``<dd>`` pair; ``value`` is HTML already."""
    return f'<dt>{label}</dt><dd class="{css}">{value}</dd>'


def runs_in(request: ApprovalRequest) -> str:
    """The sandbox the decision carries, with its hosts, or that the call runs as written."""
    profile = request.evaluation.profile
    if profile is None:
        return "no sandbox: it runs as written"
    if profile.agent:
        return f"sandbox <code>agent:{escape(profile.agent)}</code>, network through the egress proxy"
    hosts = ", ".join(f"<code>{escape(h)}</code>" for h in profile.hosts)
    text = f"sandbox <code>{escape(profile.filesystem.value)}</code>, " + (
        f"network: {hosts}" if hosts else "no network"
    )
    if profile.writes:
        text += ", also writes " + ", ".join(f"<code>{escape(w)}</code>" for w in profile.writes)
    return text


def _who(request: ApprovalRequest) -> str:
    agent, _ = agent_and_tool_call(request.agent)
    facts = ""
    if agent or request.session:
        parts = [f'<span class="agent">{escape(agent)}</span>'] if agent else []
        if request.session:
            parts.append(f'session <code class="session">{escape(request.session)}</code>')
        facts += f"<dt>Agent</dt><dd>{', '.join(parts)}</dd>"
    if request.folder:
        facts += _fact("Folder", "project", f"<code>{escape(request.folder)}</code>")
    return facts


def _timing(request: ApprovalRequest, now: float) -> str:
    if request.state.final:
        return f'<dt class="timing">Resolved</dt><dd class="timing">{escape(request.state.value)}</dd>'
    return (
        '<dt class="timing">Time left</dt><dd class="timing"><time class="expires" '
        f'datetime="{escape(iso(request.expires) or "")}" data-expires="{request.expires:.3f}">'
        f"{time_left(request.expires - now)}</time> {_ENDS[request.deadline]}</dd>"
    )


def _details(request: ApprovalRequest) -> str:
    asked = [r for r in request.evaluation.reasons if r.decision is Decision.ASK] or list(
        request.evaluation.reasons
    )
    rules = "; ".join(f"<code>{escape(r.rule)}</code> ({escape(r.source)})" for r in asked)
    classes = ", ".join(escape(e.value) for e in request.evaluation.effects) or "none found"
    _, tool_call = agent_and_tool_call(request.agent)
    facts = _fact("Tool call", "tool-call", escape(tool_call)) if tool_call else ""
    return facts + _fact("Rule", "rule", rules) + _fact("Classes", "classes", classes) + _parse(request)


def card(request: ApprovalRequest, *, csrf: str, now: float) -> str:
    rid = escape(request.id)
    answer = ""
    if not request.state.final:
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
        runs_in=runs_in(request),
        reason=escape(request.reason),
        who=_who(request),
        timing=_timing(request, now),
        form=answer,
        details=_details(request),
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
        project=_project_scope(request),
        grants=grants,
    )


def _project_scope(request: ApprovalRequest) -> str:
    """The project scope in words: a grant for "this project" covers every call decided under
    the most specific policy file (or, without one, in the same folder)."""
    value = f"<code>{escape(request.project)}</code>"
    if request.project == request.folder:
        return f"this project ({value})"
    return f"this project: every call under the policy file {value}"


def _uncontained(request: ApprovalRequest) -> str:
    """ "Approve uncontained", offered only for a call that would otherwise run contained:
    a separate, explicit choice, recorded with its approver, never a standing grant."""
    if request.profile is None:
        return ""
    return (
        '<button type="submit" name="action" value="approve_uncontained" class="uncontained">'
        "Approve uncontained (run as written, outside the sandbox)</button>"
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
