"""The last gate before an agent starts: a mapping may never be looser than the ceiling.

``Permissions`` is what a ceiling allows, or what a mapping's flags let the agent do (its
*effective* ceiling). ``check`` compares the two in every dimension; it is pure, so the
mapping and the launcher both call it and neither can skip it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bastion.policy.model import APPROVAL_ORDER, FILESYSTEM_ORDER, NETWORK_ORDER

DIMENSIONS: tuple[tuple[str, dict[str, int]], ...] = (
    ("approval", APPROVAL_ORDER),
    ("filesystem", FILESYSTEM_ORDER),
    ("network", NETWORK_ORDER),
)


@dataclass(frozen=True, slots=True)
class Permissions:
    approval: str
    filesystem: str
    network: str

    def __post_init__(self) -> None:
        for name, order in DIMENSIONS:
            if getattr(self, name) not in order:
                allowed = ", ".join(order)
                raise ValueError(f"{name} must be one of {allowed}, not {getattr(self, name)!r}")

    @classmethod
    def parse(cls, text: str) -> Permissions:
        """``APPROVAL,FILESYSTEM,NETWORK`` as written on the command line."""
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != 3:
            raise ValueError("a ceiling is APPROVAL,FILESYSTEM,NETWORK, "
                             "e.g. ask_for_risky,workspace_write,denied")
        return cls(*parts)

    def as_tuple(self) -> tuple[str, str, str]:
        return (self.approval, self.filesystem, self.network)

    def rank(self) -> int:
        """How permissive, summed over the dimensions (for choosing among fitting mappings)."""
        return sum(order[getattr(self, name)] for name, order in DIMENSIONS)

    def meet(self, other: Permissions) -> Permissions:
        """The stricter of the two in every dimension."""
        values = [
            min(getattr(self, name), getattr(other, name), key=order.__getitem__)
            for name, order in DIMENSIONS
        ]
        return Permissions(*values)

    def text(self) -> str:
        return ",".join(self.as_tuple())


#: What Bastion allows when there is no ``[ceiling]`` at all: it adds no restriction.
NO_CEILING = Permissions("ask_for_risky", "unrestricted", "allowed")
#: What ``--bypass-permissions`` allows for one invocation.
BYPASS = Permissions("never_ask", "unrestricted", "allowed")


@dataclass(frozen=True, slots=True)
class Validation:
    """Which dimensions of a mapping are looser than the ceiling (none: it fits)."""

    violations: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.violations


def check(effective: Permissions, ceiling: Permissions) -> Validation:
    """Reject any dimension in which ``effective`` is more permissive than ``ceiling``."""
    violations = tuple(
        f"{name}: the mapping gives {getattr(effective, name)}, the ceiling allows "
        f"{getattr(ceiling, name)}"
        for name, order in DIMENSIONS
        if order[getattr(effective, name)] > order[getattr(ceiling, name)]
    )
    return Validation(violations)
