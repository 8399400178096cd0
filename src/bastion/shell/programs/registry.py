"""The knowledge base's registry: every program the classifier knows, one table per family,
with each program's option allow-list joined in once at import; ``lookup`` finds a spec."""

from __future__ import annotations

from bastion.shell.programs import (
    build,
    builtins,
    files,
    infra,
    interpreters,
    network,
    operand_printers,
    options,
    packages,
    readers,
    system,
    vcs,
)
from bastion.shell.programs.spec import Spec, opts

FAMILIES: dict[str, dict[str, Spec]] = {
    "readers": readers.PROGRAMS,
    "operand_printers": operand_printers.PROGRAMS,
    "files": files.PROGRAMS,
    "vcs": vcs.PROGRAMS,
    "packages": packages.PROGRAMS,
    "network": network.PROGRAMS,
    "interpreters": interpreters.PROGRAMS,
    "system": system.PROGRAMS,
    "infra": infra.PROGRAMS,
    "build": build.PROGRAMS,
    "builtins": builtins.PROGRAMS,
}

PROGRAMS: dict[str, Spec] = {}
for _table in FAMILIES.values():
    for _name, _spec in _table.items():
        if _name in options.OPTIONS:  # the option allow-list, parsed once at import
            common = options.NO_COMMON.get(_name, options.COMMON)
            _spec = opts(_spec, f"{options.OPTIONS[_name]} {common}")
            _table[_name] = _spec
        PROGRAMS[_name] = _spec


def lookup(program: str) -> Spec | None:
    spec = PROGRAMS.get(program)
    if spec is None and interpreters.is_python(program):
        return PROGRAMS["python"] if "python" in PROGRAMS else Spec(handler="interpreter")
    if spec is None and program.startswith("mkfs."):
        return PROGRAMS["mkfs"]
    return spec
