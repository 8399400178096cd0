"""The shape of the knowledge base: one ``Spec`` per program (and per subcommand).

Tables say what a program does by default and what each flag or subcommand changes; the few
things a table cannot say (tar modes, find predicates, git config injection…) are named
``handler``s implemented in ``bastion.shell.handlers``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bastion.policy.decision import Effect
from bastion.shell.model import Access

E = Effect
READ = frozenset({E.READ})
WRITE = frozenset({E.WRITE})
DELETE = frozenset({E.DELETE})
CODE = frozenset({E.CODE})
NET = frozenset({E.NETWORK})
SYSTEM = frozenset({E.SYSTEM})
INFRA = frozenset({E.INFRASTRUCTURE})


@dataclass(frozen=True, slots=True)
class FlagRule:
    """What one (canonical) flag adds."""

    effects: frozenset[Effect] = frozenset()
    args: Access | None = None  # positional paths get this access instead
    value: Access | None = None  # the flag's own value is a path with this access
    note: str = ""


@dataclass(frozen=True, slots=True)
class Spec:
    effects: frozenset[Effect] = frozenset()
    reader: bool = False  # a pure reader unless a flag rule or handler says otherwise
    args: Access | None = None  # positionals are paths with this access
    dest_last: bool = False  # the last positional is a WRITE destination (cp, mv, ln…)
    lead: int = 0  # leading positionals that are not paths (a pattern, a mode, a script…)
    lead_flags: frozenset[str] = frozenset()  # flags that supply the lead instead (grep -e)
    takes_value: frozenset[str] = frozenset()  # canonical options consuming the next word
    flags: Mapping[str, FlagRule] = field(default_factory=dict)
    subcommands: Mapping[str, Spec] | None = None
    other_sub: Spec | None = None  # for a subcommand missing from the table; None → unknown
    aliases: Mapping[str, str] = field(default_factory=dict)  # spelling → canonical flag
    handler: str | None = None
    hosts: bool = False  # URL and host:path arguments are network destinations
    note: str = ""


def reader(**kw: object) -> Spec:
    """A pure reader whose positionals are read paths."""
    base: dict[str, object] = {"effects": READ, "reader": True, "args": Access.READ}
    base.update(kw)
    return Spec(**base)  # type: ignore[arg-type]


def printer(**kw: object) -> Spec:
    """A pure reader whose arguments are not paths (echo, date, whoami…)."""
    base: dict[str, object] = {"effects": READ, "reader": True}
    base.update(kw)
    return Spec(**base)  # type: ignore[arg-type]


def fs(*names: str) -> frozenset[str]:
    return frozenset(names)
