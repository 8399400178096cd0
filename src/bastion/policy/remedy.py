"""How a denied call could be allowed, read from the reasons that denied it.

Every denial an agent or a person is told ends with one sentence: what would allow the call
(a person approving it where they can be asked, a rule or list entry to change, a limit to
wait for) or, plainly, that nothing can (a hardline check, an error). The knowledge lives
here, with the reasons and their origins; the adapters (hooks, CLI, HTTP, MCP) only append it
(:func:`told`).
"""

from __future__ import annotations

from bastion.call.effects import HARDLINE_EFFECTS, Effect
from bastion.policy.decision import Decision, Evaluation, Reason
from bastion.policy.rule_ids import NOBODY_TO_ASK, Origin

#: Where a person answers a parked call.
_ASK_A_PERSON = "run it where a person can be asked (an interactive session, or `bastion request`)"
#: The deny lists: the policy key each rule id names.
_LISTS = {
    "commands.deny": "[commands] deny",
    "paths.deny_read": "[paths] deny_read",
    "paths.deny_write": "[paths] deny_write",
    "network.deny_hosts": "[network] deny_hosts",
}
#: What would let a call through that a built-in check asked about (nobody could answer).
_CAUSES = {
    "paths.outside-roots": "add it to [paths] allow_write or allow_read in your own policy file "
    "(a project's file cannot widen paths), or run the agent from a folder that holds it",
    "network.unlisted": "add the host to [network] allow_hosts",
    "shell.undecidable": "write the command so it parses (no unbalanced quotes or unknown syntax)",
    "shell.dynamic": "write the command without $(...), backticks or variables in what it runs",
}


#: Classes no standing grant may cover (cf. ``bastion.approval.model.NON_GRANTABLE_EFFECTS``).
_NEVER_GRANTED = HARDLINE_EFFECTS | {Effect.PRIVILEGE}


def _hardline(evaluation: Evaluation) -> list[Effect]:
    return [e for e in evaluation.effects if e in _NEVER_GRANTED]


def _cannot(evaluation: Evaluation, deciding: Reason) -> str | None:
    """The sentence for a denial nothing can turn into an allow, or None."""
    if deciding.origin is Origin.HARDLINE:
        return (
            f"This cannot be allowed: the hardline check {deciding.rule} refuses it whatever a "
            "policy, a grant or a person says."
        )
    if deciding.rule in ("policy.invalid", "policy.reload-failed"):
        return "It cannot be allowed until the policy loads again: fix it (`bastion policy test` checks it)."
    if deciding.origin is Origin.ERROR:
        if evaluation.marker is None:  # transient (a store that is down): the same call may pass
            return "It cannot be allowed until Bastion can decide safely again: try it again later."
        return "It cannot be allowed as it is: Bastion could not decide it safely (see why above)."
    return None


def _nobody_to_ask(evaluation: Evaluation) -> str:
    """A call that would have asked a person, denied because nobody could be asked."""
    hardline = _hardline(evaluation)
    if hardline:
        classes = ", ".join(e.value for e in hardline)
        return (
            f"To allow it, {_ASK_A_PERSON} and approve it once: it is in a hardline class "
            f"({classes}) that no standing grant may ever cover."
        )
    causes = [_cause(r) for r in evaluation.reasons if r.decision is Decision.ASK]
    wider = "; or ".join(dict.fromkeys(c for c in causes if c))
    return (
        f"To allow it, {_ASK_A_PERSON} and approve it: once, or always (a standing grant then "
        "covers it here too)" + (f"; or {wider}" if wider else "") + "."
    )


def _cause(reason: Reason) -> str | None:
    if reason.origin is Origin.RULE:
        return f"change {reason.rule} in {reason.source} to allow it"
    return _CAUSES.get(reason.rule)


def _by_origin(deciding: Reason) -> str:
    origin, rule, source = deciding.origin, deciding.rule, deciding.source
    if origin is Origin.RULE:
        return f"To allow it, change or remove {rule} in {source}: a person cannot override a deny rule."
    if rule in _LISTS:
        where = f"{_LISTS[rule]} in {source}"
        return f"To allow it, remove the entry matching '{deciding.matched}' from {where}."
    if origin is Origin.MODE:
        return f"To allow it, choose a mode that permits it (mode, set in {source})."
    if origin is Origin.CEILING:
        return f"To allow it, raise the [ceiling] set in {source}."
    if origin is Origin.LIMIT:
        key = rule.partition(".")[2]
        return f"To allow it, wait until the limit frees up, or raise [limits] {key} in {source}."
    if origin is Origin.BREAKER:
        return "To allow it, wait for the breaker's cooldown, or change the call (it kept failing)."
    if origin is Origin.PERSON:
        return "A person denied it: it runs only if a person approves it when it is asked again."
    if origin is Origin.TIMEOUT:
        return (
            "Nobody answered in time: ask again, and approve it on the approvals page or with "
            "`bastion approvals approve` (`bastion approvals list` shows its id)."
        )
    if origin is Origin.CANCEL:
        return "It was cancelled before anybody answered: ask again to have a person decide."
    if origin is Origin.CALLBACK:
        return "Your own code (on_permission) denied it: it decides whether the call is allowed."
    if origin is Origin.DEFAULT:
        return f"To allow it, add a [[rule]] that allows it, or change the [approval] default ({source})."
    if rule == "mcp.pin-changed":
        return "To allow it, review the server's changed tools and trust them (`bastion mcp trust SERVER`)."
    if rule == "network.private":
        return f"To allow it, add the address to [network] allow_private ({source})."
    return (
        f"This cannot be allowed as written: the built-in check {rule} refuses it and no rule "
        "overrides it; change the call."
    )


def how_to_allow(evaluation: Evaluation) -> str | None:
    """One sentence: how this denial could be allowed, or that it cannot; None unless DENY."""
    if evaluation.decision is not Decision.DENY:
        return None
    denying = [r for r in evaluation.reasons if r.decision is Decision.DENY] or list(evaluation.reasons)
    if not denying:
        return "This cannot be allowed as it is: no reason was given."
    for reason in denying:  # a hardline or an error anywhere decides: nothing overrides it
        if (sentence := _cannot(evaluation, reason)) is not None:
            return sentence
    if any(r.rule in NOBODY_TO_ASK for r in denying) and len(denying) == 1:
        return _nobody_to_ask(evaluation)
    deciding = next((r for r in denying if r.rule not in NOBODY_TO_ASK), denying[0])
    return _by_origin(deciding)


def told(evaluation: Evaluation) -> str:
    """The message an agent or a person is told: a denial's ends with how to allow it."""
    text = evaluation.message or "no reason given"
    remedy = how_to_allow(evaluation)
    return f"{text.rstrip('. ')}. {remedy}" if remedy else text
