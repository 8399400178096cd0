"""The settings page's form (mode, workspace roots, granted folders) and what a save says:
HTML built from the settings object, and the form translated into the change
``POST /v1/settings`` takes. Pure: no request, no store (``settings_page`` handles the post).
"""

from __future__ import annotations

from html import escape
from typing import Any

from bastion.policy.kinds import Mode

#: What each mode means, in a sentence (the README's words, shortened).
MODE_HELP = {
    Mode.READ_ONLY: "no writes, no shell beyond pure reads",
    Mode.ASK_BEFORE_EDIT: "reads as in workspace; every write asks",
    Mode.WORKSPACE: "writes inside the workspace roots; everything else asks",
    Mode.FULL_ACCESS: "everything not denied is allowed; deletes and installs still ask",
}


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def changed_fields(fields: dict[str, str], current: dict[str, Any]) -> dict[str, Any]:
    """The form's values that differ from what is in force, as ``POST /v1/settings`` takes
    them (an unchanged value is not written into the person's file)."""
    data: dict[str, Any] = {}
    mode = fields.get("mode", "").strip()
    if mode and mode != current["mode"]["value"]:
        data["mode"] = mode
    if "workspace" in fields and _lines(fields["workspace"]) != current["workspace_roots"]:
        data["workspace"] = _lines(fields["workspace"])
    if "granted_read" in fields or "granted_write" in fields:
        read, write = _lines(fields.get("granted_read", "")), _lines(fields.get("granted_write", ""))
        shown = current["trusted_roots"]
        if (read, write) != (
            [r["path"] for r in shown if not r["writable"]],
            [r["path"] for r in shown if r["writable"]],
        ):
            data["trusted_roots"] = [*read, *({"path": p, "rw": True} for p in write)]
    return data


def change_form(data: dict[str, Any], *, csrf: str) -> str:
    """The form, filled with what is in force."""
    current = data["mode"]["value"]
    options = "".join(
        f'<option value="{m.value}"{" selected" if m.value == current else ""}>'
        f"{m.value}: {escape(MODE_HELP[m])}</option>"
        for m in Mode
    )
    read = "\n".join(r["path"] for r in data["trusted_roots"] if not r["writable"])
    write = "\n".join(r["path"] for r in data["trusted_roots"] if r["writable"])
    return (
        '<form method="post" action="/settings" class="change">'
        f'<input type="hidden" name="csrf" value="{escape(csrf)}">'
        f'<label for="mode">Mode</label><select id="mode" name="mode">{options}</select>'
        '<label for="workspace">Workspace roots (read-write; one folder per line)</label>'
        f'<textarea id="workspace" name="workspace" rows="3" spellcheck="false">'
        f"{escape(chr(10).join(data['workspace_roots']))}</textarea>"
        '<label for="granted_read">Granted folders (trusted roots), read-only; one per line</label>'
        f'<textarea id="granted_read" name="granted_read" rows="3" spellcheck="false">{escape(read)}'
        "</textarea>"
        '<label for="granted_write">Granted folders (trusted roots), read-write; one per line</label>'
        f'<textarea id="granted_write" name="granted_write" rows="3" spellcheck="false">{escape(write)}'
        "</textarea>"
        '<button type="submit">Save settings</button></form>'
    )


def saved(change: dict[str, Any]) -> str:
    """What a save did, for a person: the file written, and any later file that decides."""
    if change["file"] is None:
        return '<p role="status" class="saved">Saved.</p>'
    notes = "".join(f"<li>{escape(n)}</li>" for n in change["notes"])
    return (
        f'<p role="status" class="saved">Saved to <code>{escape(change["file"])}</code>; '
        "the next call is decided with it.</p>" + (f'<ul class="notes">{notes}</ul>' if notes else "")
    )
