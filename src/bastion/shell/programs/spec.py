"""The shape of the knowledge base: one ``Spec`` per program (and per subcommand).

Tables say what a program does by default and what each flag or subcommand changes; the few
things a table cannot say (tar modes, find predicates, git config injection…) are named
``handler``s implemented in ``bastion.shell.handlers``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from bastion.call.effects import Effect
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
    host: bool = False  # the flag's value is a URL or host name the program reaches
    recursive: bool = False  # positional paths are read with everything below them
    lists: bool = False  # the flag's value is a file listing paths the program reads (=L)
    runs: str | None = None  # the flag's value is a file of this language it runs (PathUse.runs)


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
    # The flag allow-list (canonical names; see ``opts``). None: the program declares no
    # options, so every option is unknown (unless its handler parses the arguments itself).
    known: frozenset[str] | None = None
    optional: frozenset[str] = frozenset()  # long options taking a value only as --opt=value
    pairs: frozenset[str] = frozenset()  # options taking two words (jq --arg NAME VALUE)
    plus_unknown: bool = False  # a `+cmd` word runs a command of the program (less +!cmd)
    info: frozenset[str] = frozenset()  # alone, these make it a pure reader (make --version)
    numeric: bool = False  # `-NUM` is a count (head -20, git log -5)
    open_args: bool = False  # the handler judges every argument itself (find, tar, echo…)
    recursive: bool = False  # positional paths are read recursively (rg, git grep)
    caches: tuple[str, ...] = ()  # directories outside the workspace it writes (~/.npm)
    cache_hosts: tuple[str, ...] = ()  # hosts it may contact on its own (a registry)
    # Options under which it resolves nothing: neither its caches nor its hosts are touched
    # (cargo metadata --no-deps, pip list --disable-pip-version-check).
    fetches_nothing: frozenset[str] = frozenset()
    # Its only effect is creating, copying or moving the paths it names (mkdir, touch, cp,
    # mv): an option that does more must raise an effect (cp -l, --backup, -t).
    writer: bool = False


def reader(table: str | None = None, **kw: object) -> Spec:
    """A pure reader whose positionals are read paths."""
    base: dict[str, object] = {"effects": READ, "reader": True, "args": Access.READ}
    base.update(kw)
    spec = Spec(**base)  # type: ignore[arg-type]
    return spec if table is None else opts(spec, table)


def printer(table: str | None = None, **kw: object) -> Spec:
    """A pure reader whose arguments are not paths (echo, date, whoami…)."""
    base: dict[str, object] = {"effects": READ, "reader": True}
    base.update(kw)
    spec = Spec(**base)  # type: ignore[arg-type]
    return spec if table is None else opts(spec, table)


# The option DSL. One token per option, spellings joined by "|" (the first is canonical):
#   -a|--all        harmless switch          -n|--lines=     harmless, takes a value
#   --color?        harmless, optional value (only as --color=WHEN)
#   -o|--output=W   the value is a path written      =R  a path read
#   =X              the value is a program or code   =N  a URL or host reached
#   =L  a file listing further paths (read, and what it lists is unknown)
#   =U  any value makes the command unknown      =S  the value changes the system
#   =P  a path whose code the program runs (make -C DIR): read, and unknown for patterns
#   =K  a socket the program talks to instead of the host it names (curl --unix-socket)
#   =2, =2R …       the option takes two words (jq --arg NAME VALUE); the kind is the 2nd's
#   -i!W  a switch raising WRITE (!X code, !N network, !D delete, !U unknown, !S system,
#         !C changes configuration = WRITE)
#   -r^   a switch that makes positional paths recursive
#   -#    `-NUM` is a count (head -20)
_KINDS: dict[str, tuple[frozenset[Effect], Access | None, bool]] = {
    "": (frozenset(), None, False),
    "V": (frozenset(), None, False),
    "R": (frozenset(), Access.READ, False),
    "W": (WRITE, Access.WRITE, False),
    "X": (CODE, None, False),
    "N": (NET, None, True),
    "L": (frozenset({E.UNKNOWN}), Access.READ, False),
    "U": (frozenset({E.UNKNOWN}), None, False),
    "S": (SYSTEM, None, False),
    "P": (frozenset({E.UNKNOWN}), Access.READ, False),
    "K": (frozenset({E.UNKNOWN}), Access.READ, False),
}
_RAISE: dict[str, frozenset[Effect]] = {
    "W": WRITE,
    "X": CODE,
    "N": NET,
    "D": DELETE,
    "U": frozenset({E.UNKNOWN}),
    "S": SYSTEM,
    "C": WRITE,
}
_RAISE_NOTES = {"C": "changes configuration", "U": "not modelled"}


def opts(spec: Spec, table: str) -> Spec:
    """``spec`` with the options ``table`` declares (explicit ``flags`` of ``spec`` win)."""
    known: set[str] = set()
    takes: set[str] = set()
    optional: set[str] = set()
    pairs: set[str] = set()
    aliases: dict[str, str] = {}
    rules: dict[str, FlagRule] = {}
    numeric = False
    for token in table.split():
        if token == "-#":
            numeric = True
            continue
        names, eq, kind = token.partition("=")
        names, bang, raised = names.partition("!")
        recursive = names.endswith("^")
        names = names.rstrip("^")
        is_optional = names.endswith("?")
        spellings = names.rstrip("?").split("|")
        canon = spellings[0]
        known.add(canon)
        aliases.update({s: canon for s in spellings[1:]})
        label = f"{spec_label(spellings)}"
        if eq:
            takes.add(canon)
            if kind.startswith("2"):
                pairs.add(canon)
                kind = kind[1:]
            effects, access, host = _KINDS[kind]
            if effects or access is not None or host:
                rules[canon] = FlagRule(
                    effects, value=access, host=host, note=f"{label} {_VALUE_NOTES[kind]}", lists=kind == "L"
                )
        elif is_optional:
            optional.add(canon)
        if bang:
            why = _RAISE_NOTES.get(raised, "")
            rules[canon] = FlagRule(_RAISE[raised], note=f"{label} {why}".strip())
        if recursive:
            rules[canon] = FlagRule(recursive=True)
    # Options the spec spells out itself (flags, aliases, takes_value) are declared too.
    known |= set(spec.flags) | set(spec.aliases.values()) | set(spec.takes_value)
    return replace(
        spec,
        known=frozenset(known) | (spec.known or frozenset()),
        takes_value=spec.takes_value | takes,
        optional=spec.optional | optional,
        pairs=spec.pairs | pairs,
        aliases={**aliases, **spec.aliases},
        flags={**rules, **spec.flags},
        numeric=spec.numeric or numeric,
    )


_VALUE_NOTES = {
    "W": "writes the file it names",
    "R": "reads the file it names",
    "X": "runs the program it names",
    "N": "reaches the host it names",
    "L": "reads the paths listed in the file it names",
    "U": "is not modelled",
    "S": "changes the system",
    "P": "runs the code found there",
    "K": "talks to the socket it names instead",
    "": "",
    "V": "",
}


def spec_label(spellings: list[str]) -> str:
    return "/".join(spellings[:2])


#: Handlers that judge every argument themselves: their specs need no option table.
OPEN_HANDLERS = frozenset(
    {
        "find",
        "tar",
        "dd",
        "interpreter",
        "shell",
        "eval",
        "source",
        "env_runner",
        "su",
        "ssh",
        "git",
        "kill",
        "pacman",
        "service",
        "ip",
        "firewall",
        "crontab",
        "install",
        "disk",
        "builtin",  # shell builtins: programs/builtins.py has their option tables
    }
)


def fs(*names: str) -> frozenset[str]:
    return frozenset(names)
