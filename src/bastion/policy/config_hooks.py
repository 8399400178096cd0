"""A write that adds code a tool loads from an ordinary project file when the folder opens.

Some settings files are data except for one key that names code: pylint's ``init-hook`` (a
Python line it runs) and ``load-plugins``, mypy's ``plugins``, the TypeScript server's
``plugins`` in ``tsconfig.json`` / ``jsconfig.json``. An editor's Python or TypeScript
extension reads them as soon as the folder opens, so the code runs without anyone choosing
to run it (#31 root cause 7, suite F). The rest of these files is everyday editing: only a
line of such a key added or changed asks, compared with what the file holds now (the way
``lifecycle`` compares a package.json's install scripts). The file after the write is the
tool's content or its edits applied; one that cannot be told asks when its new text names
such a key.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import Any

from bastion.policy.decision import Decision, Reason
from bastion.policy.lifecycle import after_write, new_texts
from bastion.policy.treewalk import OverBudget, Reach

#: Per file name, the keys whose value is code a tool loads (from each tool's documentation:
#: pylint's ``init-hook`` and ``load-plugins``, mypy's ``plugins``, TypeScript's ``plugins``).
_PYTHON_KEYS = re.compile(r"^[ \t]*(init-hook|init_hook|load-plugins|load_plugins|plugins)[ \t]*=.*$", re.M)
_TS_KEYS = re.compile(r"\"plugins\"[ \t\r\n]*:[ \t\r\n]*\[[^\]]*\]", re.S)
HOOKED_FILES: dict[str, re.Pattern[str]] = {
    "pyproject.toml": _PYTHON_KEYS,
    "setup.cfg": _PYTHON_KEYS,
    "tox.ini": _PYTHON_KEYS,
    "tsconfig.json": _TS_KEYS,
    "jsconfig.json": _TS_KEYS,
}


def config_hook_reason(reach: Reach, path: str, args: Mapping[str, Any]) -> Reason | None:
    """An ASK when a write or an edit of ``path`` adds or changes a key that names code."""
    keys = HOOKED_FILES.get(posixpath.basename(path))
    if keys is None:
        return None
    try:
        data = reach.read(path)
    except (OSError, OverBudget) as exc:
        return _ask(path, f"cannot read {path} to tell whether the write adds code a tool loads: {exc}")
    before = data.decode("utf-8", "replace") if data is not None else ""
    after = after_write(before if data is not None else None, args)
    if after is None:
        if any(keys.search(text) for text in new_texts(args)):
            return _ask(path, f"an edit of {path} that cannot be applied here names code a tool loads")
        return None
    added = sorted(
        {m.group(0).strip() for m in keys.finditer(after)}
        - {m.group(0).strip() for m in keys.finditer(before)}
    )
    if not added:
        return None
    return _ask(
        path,
        f"the write adds {added[0][:80]!r} to {path}: an editor's extension loads what it names when the "
        "folder opens, so a person must confirm",
    )


def _ask(path: str, message: str) -> Reason:
    return Reason(Decision.ASK, "hardline.agent-config", "built-in", path[:200], message)
