"""The ceiling: what Bastion allows at most, in three ordered dimensions.

One type for one concept: the ``[ceiling]`` of a policy (capping every decision of the
engine) and the ceiling ``bastion launch`` maps onto an agent's own flags (``launch``) are
the same value. Each dimension is an ordered enum, strictest member first; a later policy
layer can only lower it, and a launch mapping may never be looser in any dimension.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class _Level(StrEnum):
    """An ordered dimension: members from strictest to loosest."""

    @property
    def rank(self) -> int:
        return list(type(self)).index(self)


class ApprovalLevel(_Level):
    ASK_EVERY_ACTION = "ask_every_action"
    ASK_FOR_RISKY = "ask_for_risky"
    NEVER_ASK = "never_ask"


class FilesystemLevel(_Level):
    READ_ONLY = "read_only"
    WORKSPACE_WRITE = "workspace_write"
    UNRESTRICTED = "unrestricted"


class NetworkLevel(_Level):
    DENIED = "denied"
    ALLOWED = "allowed"


DIMENSIONS: tuple[tuple[str, type[_Level]], ...] = (
    ("approval", ApprovalLevel),
    ("filesystem", FilesystemLevel),
    ("network", NetworkLevel),
)


@dataclass(frozen=True, slots=True)
class Ceiling:
    """A level in every dimension. Built from words (``Ceiling("ask_for_risky", ...)``) or
    members; an unknown word is a ``ValueError`` naming the dimension and the choices."""

    approval: ApprovalLevel
    filesystem: FilesystemLevel
    network: NetworkLevel

    def __post_init__(self) -> None:
        for name, kind in DIMENSIONS:
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, kind(value))
            except ValueError:
                allowed = ", ".join(kind)
                raise ValueError(f"{name} must be one of {allowed}, not {value!r}") from None

    @classmethod
    def of(cls, approval: str, filesystem: str, network: str) -> Ceiling:
        """From the words of a policy file, a session file or a help-text mapping."""
        return cls(ApprovalLevel(approval), FilesystemLevel(filesystem), NetworkLevel(network))

    @classmethod
    def parse(cls, text: str) -> Ceiling:
        """``APPROVAL,FILESYSTEM,NETWORK`` as written on the command line."""
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != 3:
            raise ValueError(
                "a ceiling is APPROVAL,FILESYSTEM,NETWORK, e.g. ask_for_risky,workspace_write,denied"
            )
        return cls(*parts)  # type: ignore[arg-type]  # __post_init__ names a bad word

    def levels(self) -> tuple[_Level, _Level, _Level]:
        return (self.approval, self.filesystem, self.network)

    def as_tuple(self) -> tuple[str, str, str]:
        return (self.approval.value, self.filesystem.value, self.network.value)

    def text(self) -> str:
        return ",".join(self.as_tuple())

    def rank(self) -> int:
        """How permissive, summed over the dimensions (for choosing among fitting mappings)."""
        return sum(level.rank for level in self.levels())

    def meet(self, other: Ceiling) -> Ceiling:
        """The stricter of the two in every dimension."""
        return Ceiling(
            min(self.approval, other.approval, key=_rank),
            min(self.filesystem, other.filesystem, key=_rank),
            min(self.network, other.network, key=_rank),
        )

    def looser_than(self, other: Ceiling) -> bool:
        """True when any dimension of self is more permissive than other's."""
        return bool(self.violations(other))

    def violations(self, other: Ceiling) -> tuple[str, ...]:
        """The names of the dimensions in which self is looser than ``other``."""
        return tuple(
            name
            for (name, _), mine, theirs in zip(DIMENSIONS, self.levels(), other.levels(), strict=True)
            if mine.rank > theirs.rank
        )


def _rank(level: _Level) -> int:
    return level.rank


#: What Bastion allows when there is no ``[ceiling]`` at all: it adds no restriction.
NO_CEILING = Ceiling(ApprovalLevel.ASK_FOR_RISKY, FilesystemLevel.UNRESTRICTED, NetworkLevel.ALLOWED)
#: What ``--bypass-permissions`` allows for one invocation.
BYPASS = Ceiling(ApprovalLevel.NEVER_ASK, FilesystemLevel.UNRESTRICTED, NetworkLevel.ALLOWED)
