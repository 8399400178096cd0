"""The Gatekeeper's containment stage: the answer carries the sandbox the call runs in.

It runs after the gate, the standing grants, the limits and any person have answered, and
before the answer is recorded, so the ledger holds exactly what the agent is told:

* ``[exec] contain`` says whether this outcome runs contained ("all": every allowed and
  every approved call; "allowed": only what no person approved; "off": nothing);
* the profile is computed once, from what the gate judged: the effects it found and the
  hosts its own shell analysis saw (the gate's cached parse, not a second one); for a call
  a person is asked about, also the paths outside the workspace it names as written
  (:func:`named_writes`), so the approved run may do exactly what was asked;
* a call that must run contained but cannot on this machine (no working bubblewrap, a
  workspace too big to check for credentials) asks instead, with the reason; once a person
  approves it, it runs in its profile all the same (a sandbox that cannot start fails the
  run), unless the person chose "approve uncontained".

Only shell calls are contained here: they are the calls an agent's hook can rewrite.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from bastion.approval.model import Resolver
from bastion.approval.outcome import prepend, resolver_of
from bastion.policy.containment import Contain, Profile, analysis_hosts, profile_for
from bastion.policy.decision import Decision, Evaluation, Reason
from bastion.shell.model import Access

if TYPE_CHECKING:
    from bastion.call.model import ToolCall
    from bastion.policy.compiled import Policy
    from bastion.policy.judge import Judge
    from bastion.shell.model import ShellAnalysis

#: The rule of a person's explicit choice to run an approved call outside the sandbox.
UNCONTAINED = "approval.uncontained"
#: The rule of an answer turned into a question (or a refusal) because it cannot be contained.
UNCONTAINABLE = "exec.uncontainable"
SOURCE = "[exec] contain"


class Containability(Protocol):
    """Can a run in this profile be contained on this machine? (``bastion.exec`` answers.)"""

    def problem(self, profile: Profile) -> str | None:
        """None when it can, else why not, in words for the person asked."""
        ...


@dataclasses.dataclass(frozen=True, slots=True)
class Containment:
    """``[exec] contain`` and the machine's answer to "can this be contained?"."""

    mode: Contain
    check: Containability

    def stage(self, call: ToolCall, evaluation: Evaluation, gate: Judge) -> Evaluation:
        """``evaluation`` with its profile, or the question (refusal) it becomes."""
        if call.tool != "shell" or evaluation.decision is Decision.DENY:
            return evaluation
        command = call.args.get("command")
        resolver = resolver_of(evaluation)
        if not isinstance(command, str) or evaluation.reasons[0].rule == UNCONTAINED:
            return evaluation  # a person chose to run it as written: recorded as such
        if not contains(self.mode, evaluation.decision, by_person=resolver is Resolver.PERSON):
            return evaluation
        analysis = _analysis(gate.analyze_shell, command)
        profile = profile_for(evaluation, () if analysis is None else analysis_hosts(analysis))
        if analysis is not None and (evaluation.decision is Decision.ASK or resolver is Resolver.PERSON):
            writes = named_writes(analysis, gate.policy, call.cwd)
            profile = dataclasses.replace(profile, writes=writes) if writes else profile
        if evaluation.decision is Decision.ALLOW and resolver is Resolver.PERSON:
            # The question already said whether it can be contained; the approved run gets
            # its profile, and a sandbox that is gone by then fails the run, never widens it.
            return dataclasses.replace(evaluation, profile=profile)
        problem = self.check.problem(profile)
        if problem is None:
            return dataclasses.replace(evaluation, profile=profile)
        return prepend(evaluation, Reason(Decision.ASK, UNCONTAINABLE, SOURCE, "", problem), marker=None)


def contains(contain: str, decision: Decision, *, by_person: bool) -> bool:
    """Does ``[exec] contain`` run a call with this outcome contained? A denied call never
    runs; an ASK and a person's approval are contained unless the choice is "allowed"."""
    mode = Contain(contain)
    if mode is Contain.OFF or decision is Decision.DENY:
        return False
    if decision is Decision.ALLOW and not by_person:
        return True
    return mode is Contain.ALL


def named_writes(analysis: ShellAnalysis, policy: Policy, cwd: str) -> tuple[str, ...]:
    """The literal paths outside the workspace the command names as written or deleted,
    never one in HOME: an approved run never gets the host's HOME (its rc files, autostart
    entries, user services, agent settings, notes), so the profile does not offer what the
    sandbox would refuse (``bastion.exec.boundary.approved_writes``)."""
    home = os.path.abspath(policy.home).rstrip("/")
    found = []
    for command in analysis.commands:
        for use in command.paths:
            if use.access is Access.READ or use.path is None or use.pattern is not None or use.startup:
                continue
            path = os.path.normpath(os.path.join(cwd, _home(use.path, policy.home)))
            if path == home or path.startswith(home + "/"):
                continue
            if not any(path == r or path.startswith(r.rstrip("/") + "/") for r in policy.write_roots):
                found.append(path)
    return tuple(dict.fromkeys(found))


def _analysis(analyze: Callable[[str], ShellAnalysis], command: str) -> ShellAnalysis | None:
    """The gate's analysis; None (no network, no extra writes) when it cannot be read."""
    try:
        return analyze(command)
    except Exception:  # fail closed
        return None


def _home(path: str, home: str) -> str:
    return home + path[1:] if path == "~" or path.startswith("~/") else path
