"""The last gate before an agent starts: a mapping may never be looser than the ceiling.

A ``Ceiling`` (``bastion.policy.ceiling``, the same type the engine caps decisions with) is
what the policy or ``--ceiling`` allows, or what a mapping's flags let the agent do (its
*effective* ceiling). ``check`` compares the two in every dimension; it is pure, so the
mapping and the launcher both call it and neither can skip it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bastion.policy.ceiling import Ceiling


@dataclass(frozen=True, slots=True)
class Validation:
    """Which dimensions of a mapping are looser than the ceiling (none: it fits)."""

    violations: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.violations


def check(effective: Ceiling, ceiling: Ceiling) -> Validation:
    """Reject any dimension in which ``effective`` is more permissive than ``ceiling``."""
    violations = tuple(
        f"{name}: the mapping gives {getattr(effective, name)}, the ceiling allows {getattr(ceiling, name)}"
        for name in effective.violations(ceiling)
    )
    return Validation(violations)
