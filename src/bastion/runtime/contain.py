"""The Gatekeeper's containment stage: the answer carries the sandbox the call runs in.

It runs after the gate, the standing grants, the limits and any person have answered, and
before the answer is recorded, so the ledger holds exactly what the agent is told:

* ``[exec] contain`` says whether this outcome runs contained ("all": every allowed and
  every approved call; "allowed": only what no person approved; "off": nothing);
* the profile is computed once, from what the gate judged: the effects it found, the
  hosts its own shell analysis saw (the gate's cached parse, not a second one) and those a
  git remote's name leads to in the repository's configuration, as the gate read it
  (``bastion.policy.git_remotes``: ``git push origin`` reaches ``github.com``); for a call
  a person is asked about, also the paths outside the workspace it names as written
  (:func:`named_writes`), so the approved run may do exactly what was asked;
* a call that must run contained but cannot on this machine (no working bubblewrap, a
  workspace too big to check for credentials) asks instead, with the reason; once a person
  approves it, it runs in its profile all the same (a sandbox that cannot start fails the
  run), unless the person chose "approve uncontained";
* for an answer the agent gets now (``run``), an allowed call's sandbox is built here, once
  (``Containability.prepare``: bwrap's argv, the seccomp program, the cgroups, one scan of
  the roots for credentials), and travels in the answer (``Evaluation.prepared``): the
  agent's shell runs it with no Python. A run that cannot be built is a question, recorded
  as such. A host profile is not built here (its egress proxy lives as long as its run:
  ``bastion sandbox run`` starts one), nor is a question (the person reads the short
  ``bastion sandbox run`` line, and an answer takes longer than Python starting).

Only shell calls are contained here: they are the calls an agent's hook can rewrite.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from bastion.approval.model import Resolver
from bastion.approval.outcome import prepend, resolver_of
from bastion.call.effects import Effect
from bastion.policy.contained_code import allowed_only_contained, code_profile
from bastion.policy.containment import Contain, Prepared, Profile, analysis_hosts, profile_for
from bastion.policy.decision import Decision, Evaluation, Reason
from bastion.shell.model import Access

if TYPE_CHECKING:
    from bastion.call.model import ToolCall
    from bastion.exec.settle import Settled
    from bastion.policy.compiled import Policy
    from bastion.policy.judge import Judge
    from bastion.runtime.keeper import Gatekeeper
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

    def prepare(self, call: ToolCall, profile: Profile) -> Prepared | str:
        """The contained run of the shell ``call``, built now, or why it cannot be here."""
        ...

    def finished(self) -> Sequence[Settled]:
        """Prepared runs that have ended, their after-work done (quarantine, cgroups)."""
        ...


@dataclasses.dataclass(frozen=True, slots=True)
class Containment:
    """``[exec] contain`` and the machine's answer to "can this be contained?"."""

    mode: Contain
    check: Containability

    def stage(self, call: ToolCall, evaluation: Evaluation, gate: Judge, *, run: bool = False) -> Evaluation:
        """``evaluation`` with its profile, or the question (refusal) it becomes. ``run``: the
        answer is the one the agent gets now (not a ``check``), so an allowed call's run is
        built here, before the record (:mod:`bastion.exec.prepared`): the agent's shell then
        starts bubblewrap with no Python, and a run that cannot be built is a question."""
        if call.tool != "shell" or evaluation.decision is Decision.DENY:
            return evaluation
        command = call.args.get("command")
        resolver = resolver_of(evaluation)
        if not isinstance(command, str) or evaluation.reasons[0].rule == UNCONTAINED:
            return evaluation  # a person chose to run it as written: recorded as such
        if not contains(self.mode, evaluation.decision, by_person=resolver is Resolver.PERSON):
            return evaluation
        analysis = _analysis(gate.analyze_shell, command)
        profile = profile_for(evaluation, () if analysis is None else _hosts(analysis, gate.policy, call.cwd))
        profile = code_profile(evaluation, profile)  # unread workspace code: its packages read-only
        if analysis is not None and (evaluation.decision is Decision.ASK or resolver is Resolver.PERSON):
            writes = named_writes(analysis, gate.policy, call.cwd)
            profile = dataclasses.replace(profile, writes=writes) if writes else profile
        allowed = evaluation.decision is Decision.ALLOW
        if allowed and resolver is Resolver.PERSON:
            # The question already said whether it can be contained; the approved run gets
            # its profile, and a sandbox that is gone by then fails the run, never widens it
            # (without a prepared run the agent is told ``bastion sandbox run``).
            built = self.check.prepare(call, profile) if run and not profile.hosts else None
            prepared = None if isinstance(built, str) else built
            return dataclasses.replace(evaluation, profile=profile, prepared=prepared)
        if allowed and run and not profile.hosts:
            # A host profile needs an egress proxy per run: ``bastion sandbox run`` starts one.
            built = self.check.prepare(call, profile)
            if not isinstance(built, str):
                return dataclasses.replace(evaluation, profile=profile, prepared=built)
            problem: str | None = built
        else:
            problem = self.check.problem(profile)
        if problem is None:
            return dataclasses.replace(evaluation, profile=profile)
        return prepend(evaluation, Reason(Decision.ASK, UNCONTAINABLE, SOURCE, "", problem), marker=None)


def held_to_sandbox(evaluation: Evaluation) -> Evaluation:
    """An ALLOW the policy gave only because the call runs contained
    (``bastion.policy.contained_code``: workspace code) becomes a question when the call
    would run as written instead: ``[exec] contain = "off"``, an agent whose hook cannot
    rewrite it, an entry point that runs nothing itself. An answer a person or a grant gave
    is theirs, and stays; so is shadow mode's allow (it records what enforcing would do)."""
    if (
        evaluation.decision is not Decision.ALLOW
        or evaluation.shadow
        or evaluation.profile is not None
        or resolver_of(evaluation) is not Resolver.POLICY
        or not allowed_only_contained(evaluation.reasons)
    ):
        return evaluation
    why = "it runs workspace code, which is allowed only inside the sandbox, and here it would run as written"
    return prepend(evaluation, Reason(Decision.ASK, UNCONTAINABLE, SOURCE, "", why), marker=None)


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
    """The gate's analysis of the command as written (a value resolved from the source
    never widens the run: ``as_written``); None (no network, no extra writes) when it
    cannot be read."""
    from bastion.shell.analysis import as_written

    try:
        return as_written(analyze(command))
    except Exception:  # fail closed
        return None


#: Programs whose installs reach a package manager's default registry (``policy.packages``).
_REGISTRY_OF = {"npm": "npm", "pnpm": "npm", "pip": "pip", "pip3": "pip", "uv": "pip", "cargo": "cargo",
                "gem": "gem", "bundle": "gem"}  # fmt: skip


def _hosts(analysis: ShellAnalysis, policy: Policy, cwd: str) -> tuple[str, ...]:
    """The hosts the command names, those its git remotes' names lead to (``git push
    origin``: the repository's configuration says where, as the gate read it), and the
    default registry of a package manager's install (``npm install`` names no host; the
    registry is where it goes: each connection is still the proxy's to decide)."""
    from bastion.policy.git_remotes import analysis_remote_hosts  # only for a contained call
    from bastion.policy.packages import MANAGERS

    registries: list[str] = []
    for cmd in analysis.commands:
        manager = _REGISTRY_OF.get(cmd.program or "")
        if cmd.program in ("python", "python3") and tuple(cmd.argv[1:3]) == ("-m", "pip"):
            manager = "pip"
        if manager is not None and Effect.INSTALL in cmd.effects:
            registries.extend(MANAGERS[manager].hosts)
    return (*analysis_hosts(analysis), *analysis_remote_hosts(analysis, cwd, policy.home), *registries)


def _home(path: str, home: str) -> str:
    return home + path[1:] if path == "~" or path.startswith("~/") else path


def settle_runs(keeper: Gatekeeper) -> int:
    """Finish the contained runs that ended since the last look (their protected paths to
    the quarantine, their cgroups removed) and record each one's exit in ``keeper``'s
    ledger, as ``bastion sandbox run`` does after its run; how many were recorded. Called
    once the answer is out (the hook daemon after its reply), so it holds no call up."""
    return record_runs(keeper, finished_runs(keeper))


def finished_runs(keeper: Gatekeeper) -> Sequence[Settled]:
    """The runs that ended, their after-work done (files only: no ledger, no lock needed)."""
    return () if keeper.containment is None else keeper.containment.check.finished()


def record_runs(keeper: Gatekeeper, runs: Sequence[Settled]) -> int:
    """Each run's exit in ``keeper``'s ledger (``executed``, ``exec.contained``)."""
    done = 0
    for run in runs:
        if not run.started or run.call is None:
            continue  # never run (nothing to record), or prepared by hand
        keeper.record_execution(*ran_contained(run), run.exit_code, run.duration)
        done += 1
    return done


def ran_contained(run: Settled) -> tuple[ToolCall, Evaluation]:
    """The call a settled prepared run carried out and the evaluation its exit is recorded
    under (``exec.contained``, as ``bastion sandbox run`` records its own runs)."""
    from bastion.call.model import ToolCall

    origin = run.call
    call = ToolCall(
        tool="shell",
        args={"command": origin.command if origin is not None else ""},
        cwd=run.cwd,
        session=origin.session if origin is not None else None,
        turn=origin.turn if origin is not None else None,
        agent=origin.agent if origin is not None else None,
    )
    reason = Reason(
        Decision.ALLOW, "exec.contained", "built-in", run.profile, f"ran contained: {run.profile}"
    )
    return call, Evaluation(Decision.ALLOW, (reason,), (Effect.UNKNOWN,))
