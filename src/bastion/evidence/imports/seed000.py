"""The 000 seed's flat ``permissions.toml`` (``mode``, ``workspace_dirs``, ``allowed_commands``…)
as Bastion's own form: the translation the loader applies to such a file as written
(bastion.policy.seed_form), so the imported file and the original decide alike. One entry per
source entry (``allowed_commands``: one allow rule each), and a note per key."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any

from bastion.evidence.imports.model import Imported, ImportedRule
from bastion.policy.seed_form import NOTES, is_seed_form, translate


def is_permissions_toml(data: Mapping[str, Any]) -> bool:
    return is_seed_form(data)


def import_permissions(text: str, source: str) -> Imported:
    """PolicyError (a ValueError's sibling, raised by the translation) for what cannot be said."""
    data = tomllib.loads(text)
    form = translate(data, file=source)
    out = Imported(source, "seed-000")
    out.carried += [NOTES[key] for key in form.keys if key in NOTES]
    settings = dict(form.data)
    mode = settings.pop("mode", None)
    out.mode = str(mode) if mode is not None else None
    for spec in settings.pop("rule", []):
        out.rules.append(
            ImportedRule(
                spec["tool"],
                spec["action"],
                spec.get("pattern"),
                spec.get("reason", ""),
                tuple(spec.get("match", ())),
            )
        )
    out.settings = settings
    return out
