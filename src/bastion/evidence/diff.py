"""Two policies, one corpus: the calls whose decision changes, grouped by the change.

Both sides decide each call exactly as ``replay`` does (the hooks' translation, the
policy that applies in the call's cwd, the engine only). A call changes when its
decision differs; the deciding reasons of both sides are kept so a person sees which
rule made the difference.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bastion.evidence.model import Proposed
from bastion.evidence.replay import GateFor, Replayed, decide
from bastion.policy.decision import Decision, Evaluation


@dataclass(frozen=True, slots=True)
class Change:
    before: Replayed
    after: Replayed

    @property
    def kind(self) -> str:
        """``allow→ask``, ``ask→deny``…"""
        return f"{self.before.decision.label}→{self.after.decision.label}"

    @property
    def looser(self) -> bool:
        return self.after.decision < self.before.decision

    def to_json(self) -> dict[str, Any]:
        p = self.before.proposed
        return {
            "origin": p.origin,
            "tool": p.tool,
            "call": p.label,
            "change": self.kind,
            "before": self.before.decision.label,
            "after": self.after.decision.label,
            "before_reasons": deciding(self.before.evaluation),
            "after_reasons": deciding(self.after.evaluation),
            "approximate": p.approximate,
        }


def deciding(evaluation: Evaluation) -> list[dict[str, Any]]:
    """The reasons that carry the decision (all of them when none does)."""
    chosen = [r for r in evaluation.reasons if r.decision is evaluation.decision] or list(evaluation.reasons)
    return [r.to_json() for r in chosen]


def diff(a: GateFor, b: GateFor, calls: Iterable[Proposed], *, interactive: bool = True) -> list[Change]:
    """Every call whose decision under ``b`` differs from its decision under ``a``, in order."""
    changes = []
    for proposed in calls:
        before = decide(a, proposed, interactive=interactive)
        after = decide(b, proposed, interactive=interactive)
        if before.decision is not after.decision:
            changes.append(Change(before, after))
    return changes


def grouped(changes: list[Change]) -> dict[str, list[Change]]:
    """By change, loosening first (the ones to read twice), then tightening; stable inside."""
    order = sorted({(c.after.decision - c.before.decision, c.kind) for c in changes})
    return {kind: [c for c in changes if c.kind == kind] for _, kind in order}


def counts(results: Iterable[Replayed]) -> dict[str, int]:
    out = {d.label: 0 for d in Decision}
    for r in results:
        out[r.decision.label] += 1
    return out
