"""A write that shadows a standard-library module for every Python started beside it.

Python puts the directory of the script it runs (or the working directory, for ``-m`` and
``-c``) first on ``sys.path``, so a ``json.py`` or a ``json/`` package written there is what
``python3 -m json.tool`` imports (as source, sourceless bytecode or an extension module): a
later read, the agent's or the person's, runs it. The read
side asks when such a module exists (``shell/handlers_python.py``); the write asks too, so the
person sees it land. A module inside a package (its folder has an ``__init__.py``) is imported
as ``package.json`` and shadows nothing: not asked.
"""

from __future__ import annotations

import posixpath
import sys

from bastion.policy.decision import Decision, Reason
from bastion.policy.paths import PathVerdict
from bastion.policy.tree import Kind
from bastion.policy.treewalk import OverBudget, Reach

STDLIB = frozenset(sys.stdlib_module_names)
#: Standard-library modules of later Pythons than the one Bastion runs on (3.12 to 3.14): the
#: ``python3`` a command starts may be newer. On the read side any ``_name`` counts as well.
LATER_STDLIB = frozenset({
    "annotationlib", "compression", "_colorize", "_pyrepl", "_opcode_metadata", "_pydatetime",
    "_pylong", "_interpreters", "_interpchannels", "_interpqueues", "_ios_support",
    "_apple_support", "_suggestions", "_sysconfig", "_types", "_hmac", "_zstd", "_remote_debugging",
})  # fmt: skip
_SHADOWED = STDLIB | LATER_STDLIB


def _module_name(name: str) -> str | None:
    """The module a file of this name is imported as from a ``sys.path`` folder: source
    (``json.py``), bytecode with no source (``json.pyc``: suite J's ``argparse.pyc``) or an
    extension module (``json.so``, ``json.cpython-311-x86_64-linux-gnu.so``); None for any
    other file."""
    if name.endswith(".py"):
        return name[:-3]
    if name.endswith(".pyc"):
        return name[:-4]
    if name.endswith(".so"):
        return name.split(".", 1)[0]
    return None


def shadowing_write_reason(reach: Reach, verdict: PathVerdict) -> Reason | None:
    """ASK when the written file is a top-level standard-library module's shadow."""
    path = verdict.lexical
    folder, name = posixpath.split(path)
    stem = _module_name(name)
    if stem is None:
        return None  # the common case: no module's file
    if stem in _SHADOWED:
        module = stem
    elif stem == "__init__" and posixpath.basename(folder) in _SHADOWED:
        module = posixpath.basename(folder)
        folder = posixpath.dirname(folder)
    else:
        return None
    try:
        if reach.kind(posixpath.join(folder, "__init__.py"), follow=True) is Kind.FILE:
            return None  # inside a package: imported under the package's name
    except OverBudget:
        pass
    return Reason(
        Decision.ASK,
        "hardline.agent-config",
        "built-in",
        path[:200],
        f"{path} shadows the standard library's {module}: a Python started in {folder} "
        f"(python3 -m {module} …) imports it instead, so a person must confirm",
    )


def imported_shadow(reach: Reach, folder: str) -> str | None:
    """The first entry of ``folder`` that a Python with ``folder`` first on ``sys.path``
    imports instead of a standard-library module, or None: ``NAME.py``, ``NAME.pyc``,
    ``NAME….so``, or a ``NAME/`` package (a folder holding an ``__init__``; one without is a
    namespace portion, which the standard library's own module outranks), for NAME a
    standard-library name or any ``_private`` one. Raises OverBudget."""
    for entry in reach.listdir(folder):
        name, dot, suffix = entry.name.partition(".")
        if not (name in _SHADOWED or name.startswith("_")) or name == "__pycache__":
            continue
        path = posixpath.join(folder, entry.name)
        if dot and (suffix in ("py", "pyc") or suffix.endswith("so")):
            return path  # json.py, json.pyc, _json.cpython-311-x86_64-linux-gnu.so
        if (
            not dot
            and reach.kind(path, follow=True) is Kind.DIR
            and any(e.name.startswith("__init__.") for e in reach.listdir(path))
        ):
            return path
    return None


def shadow_reasons(reach: Reach, folders: tuple[str, ...] | None, label: str) -> list[Reason]:
    """ASK for each folder ``label`` (``python3 -m json.tool``) imports from first that holds
    a standard-library module's shadow, or whose content is unknown."""
    if folders is None:
        return [_shadow(label, "runs in a folder only known at run time: what it imports is unknown")]
    out = []
    for folder in folders:
        try:
            found = imported_shadow(reach, folder)
        except OverBudget as exc:
            unknown = f"{folder} has more entries than the budget: what it imports is unknown"
            out.append(_shadow(exc.where, unknown))
            continue
        if found is not None:
            out.append(
                _shadow(
                    found,
                    f"{label} imports from {folder} first, and {found} shadows a standard-library "
                    "module there: it runs as code",
                )
            )
    return out


def _shadow(where: str, message: str) -> Reason:
    return Reason(Decision.ASK, "shell.module-shadow", "built-in", where[:200], message)
