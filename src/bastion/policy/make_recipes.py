"""The shell lines ``make TARGET`` runs, read from a Makefile (``script_files``).

A Makefile's recipes are shell text: ``make dump`` whose recipe prints ``config/prod.yml`` is
``sh scripts/dump.sh`` by another name. The rules are read as GNU make writes them down
(``target …: prerequisite …``, a recipe's lines starting with a tab, ``target: ; line``,
``\\`` continuing a line), and the recipes of the targets named (none: the first ordinary
target), with their prerequisites' recipes, are returned as shell text. What make would make of
it beyond that (variables, functions, pattern rules, included files, ``$(MAKE)`` in another
folder) is not modelled: a recipe word that holds ``$(X)`` or ``$@`` is a run-time word, and
only what the text names for certain can earn a denial; so an over-approximation here (a rule
make would not run) can only deny a Makefile that names a denied command, never allow one.
"""

from __future__ import annotations

import re

#: A rule's line: its targets, ``:`` or ``::``, its prerequisites (and ``; recipe``). Not an
#: assignment (``X := y``, ``X ::= y``, ``X != y``).
_RULE = re.compile(r"^(?P<targets>[^\s:=#][^:=#]*?)\s*::?(?![=:])\s*(?P<rest>.*)$")
_ASSIGNMENT = re.compile(r"^\s*(?:export\s+|override\s+)?[^\s:=#]+\s*(?:[:+?!]|::)?=")
#: Targets make never runs as the default goal (``.PHONY``, pattern rules).
_SPECIAL = re.compile(r"^\.|%")
#: Prerequisites followed, at most (a Makefile is read once; cycles are cut).
MAX_RULES = 200


def recipes(makefile: str, targets: list[str]) -> str:
    """The recipe lines ``make TARGETS`` runs, each as a shell line."""
    rules: dict[str, tuple[list[str], list[str]]] = {}
    first: str | None = None
    current: list[list[str]] = []
    for line in _lines(makefile):
        if line.startswith("\t"):
            for recipe in current:
                recipe.append(line[1:])
            continue
        text = line.split("#", 1)[0]
        rule = _RULE.match(text) if not _ASSIGNMENT.match(text) else None
        if rule is None:
            current = [] if text.strip() else current  # an assignment or a directive ends a recipe
            continue
        prerequisites, _, inline = rule["rest"].partition(";")
        names = rule["targets"].split()
        current = []
        for name in names:
            entry = rules.setdefault(name, ([], []))
            entry[0].extend(prerequisites.replace("|", " ").split())
            current.append(entry[1])
            if inline.strip():
                entry[1].append(inline.strip())
        if first is None and names and not _SPECIAL.search(names[0]):
            first = names[0]
    todo = list(reversed(targets or ([first] if first else [])))
    seen: set[str] = set()
    lines: list[str] = []
    while todo and len(seen) < MAX_RULES:
        name = todo.pop()
        if name in seen or name not in rules:
            continue
        seen.add(name)
        prerequisites, recipe = rules[name]
        todo.extend(reversed(prerequisites))
        lines.extend(_shell_line(r) for r in recipe)
    return "\n".join(line for line in lines if line)


def _lines(makefile: str) -> list[str]:
    """Its lines, a backslash-newline joined to the next (make's continuation)."""
    return makefile.replace("\\\r\n", " ").replace("\\\n", " ").splitlines()


def _shell_line(recipe: str) -> str:
    """A recipe line as the shell gets it: without make's ``@``/``-``/``+`` prefixes, ``$$``
    as ``$``."""
    return recipe.strip().lstrip("@-+").strip().replace("$$", "$")
