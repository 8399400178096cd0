"""A write that shadows a standard-library module for every Python started beside it.

Python puts the directory of the script it runs (or the working directory, for ``-m`` and
``-c``) first on ``sys.path``, so a ``json.py`` or a ``json/`` package written there is what
``python3 -m json.tool`` imports: a later read, the agent's or the person's, runs it. The read
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


def shadowing_write_reason(reach: Reach, verdict: PathVerdict) -> Reason | None:
    """ASK when the written file is a top-level standard-library module's shadow."""
    path = verdict.lexical
    folder, name = posixpath.split(path)
    if name.endswith(".py") and name[:-3] in STDLIB:
        module = name[:-3]
    elif name == "__init__.py" and posixpath.basename(folder) in STDLIB:
        module = posixpath.basename(folder)
        folder = posixpath.dirname(folder)
    else:
        return None  # the common case: one string test
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
