"""Assemble subject decisions into one Evaluation: strictest wins, reasons kept, marker set.

A *subject* is one thing the engine decided on its own: a path, a host, a simple command,
or the call itself. Each is decided in the fixed order (hardline, deny lists, allow lists
and rules, mode default, approval default); the call's decision is the strictest subject's,
then capped by the mode and the ceiling.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bastion.call.effects import Effect
from bastion.policy.decision import MARKER_BLOCKED, MARKER_DENIED, Decision, Evaluation, Reason
from bastion.policy.rule_ids import NON_INTERACTIVE_DEFAULT

_EFFECT_ORDER = {effect: index for index, effect in enumerate(Effect)}


@dataclass(init=False)
class Subject:
    """One decided thing, built up stage by stage."""

    label: str
    effects: set[Effect] = field(default_factory=set)
    hard: list[Reason] = field(default_factory=list)  # hardline + deny lists: DENY or ASK floors
    override: Reason | None = None  # last matching allow entry / rule
    mode: Reason | None = None  # the mode's default for this subject
    notes: list[str] = field(default_factory=list)
    #: Why nothing allowed it (a host not in allow_hosts, not a recognised reader, …): when
    #: the approval default decides, these lead, so the cause is never hidden behind it.
    unmet: list[Reason] = field(default_factory=list)
    #: Will anybody read ``notes``? Only ``explain`` prints them: a note that costs work
    #: (an allow entry's gap, a glob's expansion) is skipped when not.
    traced: bool = True

    def __init__(
        self,
        label: str,
        effects: set[Effect] | None = None,
        hard: list[Reason] | None = None,
        override: Reason | None = None,
        mode: Reason | None = None,
        notes: list[str] | None = None,
        unmet: list[Reason] | None = None,
        traced: bool = True,
    ) -> None:
        # Written out: the generated __init__ calls a factory per list (one Subject per
        # simple command of every shell call).
        self.label = label
        self.effects = set() if effects is None else effects
        self.hard = [] if hard is None else hard
        self.override = override
        self.mode = mode
        self.notes = [] if notes is None else notes
        self.unmet = [] if unmet is None else unmet
        self.traced = traced

    def decide(self, approval_default: Reason, after: Reason | None = None) -> tuple[Decision, list[Reason]]:
        """``after``: ``after_specific(approval_default)``, when the caller has made it."""
        denies = [r for r in self.hard if r.decision is Decision.DENY]
        if denies:
            return Decision.DENY, denies
        chosen = self.override or self.mode or approval_default
        # A hardline ASK is a floor; at equal strictness its reason is the more specific one.
        floors = [r for r in self.hard if r.decision >= chosen.decision]
        if floors:
            top = max(r.decision for r in floors)
            return top, [r for r in floors if r.decision is top]
        if chosen is approval_default:
            # A hardline ASK under a non-interactive DENY, or an unmet allow list: the
            # specific reason leads, the default (nobody to ask) follows it.
            specific = [r for r in self.hard if r.decision < chosen.decision] + self.unmet
            if specific:
                return chosen.decision, [*dict.fromkeys(specific), after or after_specific(chosen)]
        return chosen.decision, [chosen]


def after_specific(default: Reason) -> Reason:
    """The approval default, worded to follow a specific reason (no "no rule decided")."""
    unattended = default.rule == NON_INTERACTIVE_DEFAULT
    message = {
        Decision.ASK: "a person decides",
        Decision.DENY: "nobody can be asked here, so the call is denied"
        if unattended
        else "the approval default denies it",
        Decision.ALLOW: "the approval default allows it",
    }[default.decision]
    return Reason(default.decision, default.rule, default.source, default.matched, message, default.origin)


@dataclass
class Assembly:
    """Collects subjects, caps, and the trace that ``explain`` prints."""

    approval_default: Reason
    subjects: list[Subject] = field(default_factory=list)
    caps: list[Reason] = field(default_factory=list)  # mode/ceiling blocks applied last
    effects: set[Effect] = field(default_factory=set)
    trace: list[str] | None = None  # None: nobody will read it (only ``explain`` does)
    ask_every_action: Reason | None = None
    #: ``after_specific(approval_default)``, made once by the gate instead of once per subject.
    after_default: Reason | None = None

    def add(self, subject: Subject) -> Subject:
        self.subjects.append(subject)
        return subject

    def finish(self) -> Evaluation:
        decided: list[tuple[Decision, list[Reason]]] = []
        # A repeated simple command lists its subject object again (shell_policy): it decides
        # as before, and its reasons, equal to the first listing's, would be dropped by the
        # de-duplication below anyway (the sort is stable, so the first copy stays first).
        seen: dict[int, tuple[Decision, list[Reason]]] = {}
        default, after = self.approval_default, self.after_default
        for subject in self.subjects:
            known = seen.get(id(subject))
            if known is None:
                known = seen[id(subject)] = subject.decide(default, after)
                self.effects |= subject.effects
                decided.append(known)
            if self.trace is not None:
                decision, reasons = known
                rules = "; ".join(r.rule for r in reasons)
                self.trace.append(f"{subject.label}: {decision.label} ({rules})")
                self.trace.extend(f"  {note}" for note in subject.notes)
        if not decided:
            # Nothing to decide is itself undecidable: fail closed.
            decided.append(
                (
                    Decision.DENY,
                    [
                        Reason(
                            Decision.DENY,
                            "engine.empty",
                            "built-in",
                            "",
                            "nothing in this call could be decided",
                        )
                    ],
                )
            )
        final = max(d for d, _ in decided)
        reasons = [r for d, rs in decided if d == final for r in rs]
        if len(reasons) > 1:  # across subjects too, the bare approval default never leads
            reasons.sort(key=_soft)
        if self.caps:
            final = Decision.DENY
            reasons = list(self.caps)
        elif final is Decision.ALLOW and self.ask_every_action is not None:
            final = Decision.ASK
            reasons = [self.ask_every_action]
        if self.trace is not None:
            self.trace.extend(f"cap: {r.rule}: {r.message}" for r in reasons if r in self.caps)
            if final is Decision.ASK and reasons == [self.ask_every_action]:
                self.trace.append(f"cap: {reasons[0].rule}: {reasons[0].message}")
        return Evaluation(
            decision=final,
            reasons=tuple(dict.fromkeys(reasons)),
            effects=tuple(self.effects)
            if len(self.effects) < 2
            else tuple(sorted(self.effects, key=_EFFECT_ORDER.__getitem__)),
            marker=_marker(final, reasons),
            trace=tuple(self.trace or ()),
        )


def _soft(reason: Reason) -> bool:
    return reason.origin.soft


def _marker(decision: Decision, reasons: list[Reason]) -> str | None:
    if decision is not Decision.DENY:
        return None
    # Only reasons carrying the DENY count: a hardline ASK that leads a non-interactive
    # default DENY explains it, but the refusal is still the (soft) default.
    firm = [r for r in reasons if r.decision is Decision.DENY and not r.origin.soft]
    if not firm:
        return None
    if all(r.origin.block for r in firm):
        return MARKER_BLOCKED
    return MARKER_DENIED
