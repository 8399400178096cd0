"""A write that adds or changes a ``package.json`` lifecycle script.

npm, pnpm and yarn run a project's ``preinstall``/``install``/``postinstall``/``prepare``
scripts on every install of its dependencies, and the pack scripts on ``npm pack`` and
``npm publish``: installing dependencies is no choice to run the project's own code. The
rest of ``package.json`` (dependencies, other scripts, which run only when someone runs
them) is everyday editing and stays a plain write. The file after the write is computed
the way the tool will write it (the content, or the edits applied in order to what is
there now) and its lifecycle scripts compared with the current ones: a script added or
changed asks; one removed does not. A result that cannot be told asks when it names one.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Mapping
from typing import Any

from bastion.policy.decision import Decision, Reason
from bastion.policy.treewalk import OverBudget, Reach

#: The scripts a package manager runs on its own (npm docs: "Life Cycle Scripts").
LIFECYCLE_SCRIPTS = frozenset({
    "preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare",
    "prepublish", "prepublishOnly", "prepack", "postpack", "dependencies",
    "preuninstall", "uninstall", "postuninstall",
})  # fmt: skip


def lifecycle_write_reason(reach: Reach, path: str, args: Mapping[str, Any]) -> Reason | None:
    """An ASK when a write (``content``) or an edit (``old_string``/``new_string``, or
    ``edits``) of ``path``, a ``package.json``, adds or changes a lifecycle script."""
    if posixpath.basename(path) != "package.json":
        return None  # the common case: one string test
    try:
        data = reach.read(path)
    except (OSError, OverBudget) as exc:
        return _ask(path, f"cannot read {path} to tell whether the write adds a lifecycle script: {exc}")
    before = data.decode("utf-8", "replace") if data is not None else None
    after = after_write(before, args)
    if after is None:
        # An edit that cannot apply changes nothing, as far as can be told here; one whose new
        # text names a lifecycle script asks all the same (the tool may apply it otherwise).
        named = [n for n in sorted(LIFECYCLE_SCRIPTS) if any(f'"{n}"' in text for text in new_texts(args))]
        if named:
            return _ask(path, f"an edit of {path} that cannot be applied here names the {named[0]} script")
        return None
    new = _scripts(after)
    if new is None:
        if any(f'"{name}"' in after for name in LIFECYCLE_SCRIPTS):
            return _ask(path, f"{path} would not parse as JSON and names a lifecycle script")
        return None
    old = (_scripts(before) if before is not None else None) or {}
    changed = sorted(name for name, script in new.items() if old.get(name) != script)
    if not changed:
        return None
    return _ask(
        path,
        f"the write adds or changes the {', '.join(changed)} script of {path}: npm, pnpm and yarn run it "
        "on the next install of its dependencies, so a person must confirm",
    )


def after_write(before: str | None, args: Mapping[str, Any]) -> str | None:
    """The file a write (``content``) or edits leave, from ``before`` (None: no file); None
    when an edit cannot apply."""
    content = args.get("content")
    if isinstance(content, str):
        return content
    edits = args.get("edits")
    steps = list(edits) if isinstance(edits, list | tuple) else [args]
    if before is None:
        return None
    text = before
    for step in steps:
        if not isinstance(step, Mapping):
            return None
        old, new = step.get("old_string"), step.get("new_string")
        if not isinstance(old, str) or not isinstance(new, str) or not old or old not in text:
            return None
        text = text.replace(old, new) if step.get("replace_all") else text.replace(old, new, 1)
    return text


def new_texts(args: Mapping[str, Any]) -> list[str]:
    edits = args.get("edits")
    steps = list(edits) if isinstance(edits, list | tuple) else [args]
    return [str(step.get("new_string", "")) for step in steps if isinstance(step, Mapping)]


def _scripts(text: str) -> dict[str, str] | None:
    """The lifecycle scripts of a ``package.json`` text; None when it does not parse."""
    try:
        document = json.loads(text)
    except ValueError:
        return None
    scripts = document.get("scripts") if isinstance(document, dict) else None
    if not isinstance(scripts, dict):
        return {}
    return {name: json.dumps(value) for name, value in scripts.items() if name in LIFECYCLE_SCRIPTS}


def _ask(path: str, message: str) -> Reason:
    return Reason(Decision.ASK, "hardline.agent-config", "built-in", path[:200], message)
