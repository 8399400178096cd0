"""A call approved in the agent's own prompt runs on that approval: its hosts are not asked twice.

With ``ask_via = "agent"`` (Claude Code's default) an ASK goes to Claude's own prompt and is
recorded in the ledger as ``requested``, resolver ``agent`` (:mod:`bastion.runtime.hand_offs`).
When its profile names hosts, the hook writes the hand-off's decision id into the contained line
(``bastion sandbox run --hand-off ID … -- bash -c 'COMMAND'``: :func:`hand_off_of`). Claude
runs that line only after the person approved it (or in a mode that asks nobody, which the
person chose); a line the agent writes itself is rewritten again into a sandbox with no
network. So the line's running is the approval, and its egress proxy need not put the same
host to Bastion's queue again. The run checks the ledger first (:func:`ride_on_hand_off`):

* the ledger holds decision ``ID`` as ``requested`` with resolver ``agent``, recorded within
  the policy's approval ttl;
* the command being run is the one handed off: the keyed hash of the shell call (its command
  and working directory) equals the record's ``args_hash``;
* the hand-off has no resolution yet (a ``deny`` is a turn that ended without running it; an
  ``allow`` is written only after the call ran, so a later run is another one);
* the run's profile names hosts, and no earlier run rode on this id (the claim file of
  :func:`bastion.runtime.approved_run.claim`).

The ledger keeps no profile: the hosts are those of the line the hook wrote and the person
was shown, and the proxy admits no other (``exec.hosts-only``). Anything else is no approval:
every connection is decided as without one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bastion.approval.model import Resolver
from bastion.audit.events import EventKind
from bastion.call.model import ToolCall
from bastion.exec.egress.only import Approved
from bastion.runtime.approved_run import ID_FORM, claim

if TYPE_CHECKING:
    from bastion.audit.keyed import ArgumentHasher
    from bastion.audit.ledger import Ledger


def hand_off_of(ledger: Ledger, hasher: ArgumentHasher, call: ToolCall) -> str | None:
    """The decision id of ``call``'s hand-off to the agent's prompt (the latest ``requested``
    record, resolver ``agent``, of its session and tool-use id with its keyed hash); None when
    there is none or the ledger cannot be read (the run then asks as before)."""
    try:
        key = hasher.digest(call)
        asked = ledger.events(session=call.session, kind=EventKind.REQUESTED, agent=call.agent)
    except Exception:  # no id: the proxy asks as without one
        return None
    found = [
        r.event.decision_id
        for r in asked
        if r.event.resolver == Resolver.AGENT.value and r.event.args_hash == key
    ]
    return found[-1] if found and ID_FORM.fullmatch(found[-1]) else None


def ride_on_hand_off(
    ledger: Ledger,
    hasher: ArgumentHasher,
    decision_id: str,
    argv: tuple[str, ...],
    hosts: tuple[str, ...],
    *,
    cwd: str,
    now: float,
    ttl: float,
    state_dir: str,
) -> Approved | str:
    """The hand-off the run of ``argv`` in ``cwd`` rides on, claimed for it; or why there is
    none (in words for stderr). Never raises: a failure to read is no approval."""
    if not ID_FORM.fullmatch(decision_id):
        return f"{decision_id!r} is not a decision id"
    if len(argv) != 3 or argv[:2] != ("bash", "-c"):
        return "the command is not the handed-off call's 'bash -c COMMAND'"
    if not hosts:
        return f"the run of hand-off {decision_id} names no host"
    call = ToolCall(tool="shell", args={"command": argv[2]}, cwd=cwd)
    try:
        key = hasher.digest(call)
        asked = ledger.events(since=now - ttl, kind=EventKind.REQUESTED)
        mine = [r.event for r in asked if r.event.decision_id == decision_id]
        after = min((e.time for e in mine), default=now)
        resolved = ledger.events(since=after, kind=EventKind.RESOLVED) if mine else []
    except Exception as exc:  # fail closed: no approval, the run asks as before
        return f"the ledger cannot be read: {type(exc).__name__}: {exc}"
    if not mine:
        return f"no hand-off {decision_id} within the approval ttl"
    event = mine[0]
    if event.resolver != Resolver.AGENT.value:
        return f"decision {decision_id} was not handed to the agent's prompt"
    if event.tool != "shell" or event.args_hash != key:
        return f"hand-off {decision_id} asked about another command"
    ended = [r.event.decision for r in resolved if r.event.decision_id == decision_id]
    if ended:
        return f"hand-off {decision_id} was resolved {ended[0]} already"
    problem = claim(state_dir, decision_id, "the hand-off")
    if problem is not None:
        return problem
    return Approved(decision_id, tuple(h.lower() for h in hosts))
