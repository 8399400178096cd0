"""A person changes settings (the settings page, ``POST /v1/settings``): the mode, the
workspace roots, the granted folders (``trusted_roots``), and standing grants revoked.

One change, in this order, under one lock:

1. the values are checked (a mode that exists, folders that exist, grants that are active);
2. the person's own file is amended in memory (``bastion.policy.amend``: ``--policy FILE``
   when the daemon was given one, else ``~/.config/bastion/policy.toml``; never a project
   file) and the *merged* result of every file that applies is loaded and boot-checked
   with it, exactly as the daemon would load it: a change that would not load, or would
   put the credentials dir inside a readable root, is refused and nothing is written;
3. the change is recorded in the ledger with the approver's key (a ledger that cannot be
   written refuses the change);
4. the file is replaced atomically, grants are revoked, and the policy is reloaded, so the
   very next call is decided under it;
5. what is in force is compared with what was asked: an untrusted project file's
   restriction still wins (it is never edited, and it may only tighten), and the answer
   says so, naming the file that decides.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bastion.approval.clock import Clock
from bastion.approval.model import new_id
from bastion.approval.store import Store
from bastion.audit.changes import REVOKE_RULE, SETTINGS_RULE, ChangeOutcome, settings_event
from bastion.audit.ledger import Ledger
from bastion.boot import boot_problem
from bastion.configuration import load_sources
from bastion.errors import PolicyError
from bastion.lifecycle import PolicyWatch
from bastion.policy.amend import (
    ChangeError,
    FileChange,
    amended_text,
    checked_folders,
    checked_roots,
    parse_mode,
    write_atomically,
)
from bastion.policy.compiled import Policy
from bastion.policy.loader import parse_policy_text
from bastion.policy.sources import PolicySources, home_of

SETTABLE = ("mode", "workspace", "trusted_roots", "revoke_grants")
MAX_REVOKES = 100


@dataclass(frozen=True, slots=True)
class SettingsChange:
    file: FileChange = field(default_factory=FileChange)
    revoke_grants: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Applied:
    """What a change did: the file written (None when only grants were revoked), the grants
    revoked, and notes where what is in force is not what was asked."""

    file: str | None
    revoked: tuple[str, ...]
    notes: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "revoked": list(self.revoked), "notes": list(self.notes)}


def change_from(data: object, *, home: str) -> SettingsChange:
    """A change from its JSON form; ChangeError (key, what, how to fix) for anything else."""
    if not isinstance(data, Mapping):
        raise ChangeError("send a JSON object of settings to change", key="body")
    unknown = sorted(str(k) for k in data if k not in SETTABLE)
    if unknown:
        raise ChangeError(f"not a setting the page can change: use {', '.join(SETTABLE)}", key=unknown[0])
    if not data:
        raise ChangeError(f"nothing to change: send at least one of {', '.join(SETTABLE)}", key="body")
    grants = data.get("revoke_grants", [])
    if not isinstance(grants, list | tuple) or not all(isinstance(g, str) and g for g in grants):
        raise ChangeError("expected a list of grant ids", key="revoke_grants")
    if len(grants) > MAX_REVOKES:
        raise ChangeError(f"at most {MAX_REVOKES} grants at once", key="revoke_grants")
    mode, workspace, roots = data.get("mode"), data.get("workspace"), data.get("trusted_roots")
    file = FileChange(
        mode=parse_mode(mode) if "mode" in data else None,
        workspace=checked_roots(workspace, key="workspace", home=home) if "workspace" in data else None,
        trusted_roots=checked_folders(roots, home=home) if "trusted_roots" in data else None,
    )
    return SettingsChange(file, tuple(dict.fromkeys(grants)))


class SettingsEditor:
    """Applies changes for one daemon: its policy watch, ledger and store."""

    def __init__(self, watch: PolicyWatch, ledger: Ledger, store: Store, clock: Clock) -> None:
        self.watch = watch
        self.ledger = ledger
        self.store = store
        self.clock = clock
        self._lock = threading.Lock()

    @property
    def home(self) -> str:
        return home_of(self.watch.env)

    def own_file(self) -> str:
        """The person's own trusted file: the explicit one, else the user file."""
        sources = self._sources()
        own = sources.explicit or sources.user
        assert own is not None  # PolicySources: the user file whenever none is explicit
        return own

    def _sources(self) -> PolicySources:
        return PolicySources.find(self.watch.policy_path, cwd=self.watch.cwd, env=self.watch.env)

    def apply(self, change: SettingsChange, *, approver: str) -> Applied:
        with self._lock:
            active = {g.id for g in self.store.list_grants()}
            gone = [g for g in change.revoke_grants if g not in active]
            if gone:
                why = f"no active grant {gone[0]}: reload the page to see the grants"
                raise ChangeError(why, key="revoke_grants")
            written = None
            if not change.file.empty:
                path, old, text = self._checked_text(change.file)
                if _read(path) != old:  # edited by hand meanwhile: never overwrite that
                    why = f"{path} changed while this change was checked: reload the page and try again"
                    raise ChangeError(why, key="file")
                what = _describe(change.file, path)
                self._record(change.file.to_json(), SETTINGS_RULE, path, what, approver)
                try:
                    write_atomically(path, text)
                except OSError as exc:
                    why = f"{path} could not be written: {exc.strerror or exc}"
                    self._record(change.file.to_json(), SETTINGS_RULE, path, why, approver,
                                 ChangeOutcome.NOT_APPLIED)  # fmt: skip
                    raise ChangeError(f"{why}; nothing changed", key="file") from exc
                written = path
            for grant in change.revoke_grants:
                self._record({"grant": grant}, REVOKE_RULE, "store", f"revoke grant {grant}", approver)
                self.store.revoke_grant(grant)
            if written is None:
                return Applied(None, change.revoke_grants, ())
            policy = self.watch.reload().policy
            return Applied(written, change.revoke_grants, _notes(change.file, policy, self.home, written))

    def _checked_text(self, change: FileChange) -> tuple[str, str, str]:
        """The person's file (path, text as read) and its amended text, once the merged
        result loads and passes the boot check with it."""
        sources = self._sources()
        path = self.own_file()
        old = _read(path)
        if old.strip():
            try:  # a file that does not load as it is: its own line numbers, fixed by hand
                parse_policy_text(old, path=path, trusted=True)
            except PolicyError as exc:
                raise PolicyError(
                    f"{exc.detail} (the file does not load as it is: fix it by hand first)",
                    file=exc.file,
                    line=exc.line,
                    key=exc.key,
                ) from exc
        text = amended_text(old, change, file=path)
        layer = parse_policy_text(text, path=path, trusted=True)
        config = load_sources(sources, self.watch.env, own=layer)
        problem = boot_problem(config.policy)
        if problem:
            raise ChangeError(problem, key="workspace" if change.workspace is not None else "trusted_roots")
        return path, old, text

    def _record(
        self,
        change: Mapping[str, Any],
        rule: str,
        source: str,
        summary: str,
        approver: str,
        outcome: ChangeOutcome = ChangeOutcome.APPLIED,
    ) -> None:
        event = settings_event(change, rule=rule, decision_id=new_id(), time=self.clock.now(),
                               approver=approver, source=source, summary=summary,
                               message=f"{summary} (by key {approver})", outcome=outcome)  # fmt: skip
        self.ledger.append(event)


def _read(path: str) -> str:
    """The person's file as it is now ("" when there is none yet)."""
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as exc:
        raise ChangeError(f"{path} cannot be read ({exc}): fix it by hand first", key="file") from exc


def _describe(change: FileChange, path: str) -> str:
    parts = [f"{key} = {value!r}" for key, value in change.to_json().items()]
    return f"set {', '.join(parts)} in {path}"


def _absolute(path: str, home: str) -> str:
    return os.path.normpath(home + path[1:] if path == "~" or path.startswith("~/") else path)


def _notes(change: FileChange, policy: Policy, home: str, path: str) -> tuple[str, ...]:
    """Where what is in force differs from what was just written, and what decides it."""
    notes = []
    if change.mode is not None and policy.mode is not change.mode:
        notes.append(
            f"mode {change.mode.value!r} is written to {path}, but {policy.mode.value!r} is in force, "
            f"from {policy.mode_source}, which applies after it (an untrusted project file may "
            "only tighten, and its restriction wins)"
        )
    if change.workspace is not None:
        asked = tuple(_absolute(p, home) for p in change.workspace)
        if asked != policy.workspace:
            notes.append(
                f"workspace roots in force are {', '.join(policy.workspace) or 'none'}: "
                f"a later trusted policy file ({', '.join(policy.sources)}) sets them"
            )
    for root in change.trusted_roots or ():
        where = _absolute(root.path, home)
        roots = policy.write_roots if root.writable else policy.read_roots
        if where not in roots:
            notes.append(f"granted folder {root.path} is not in force: a later policy file decides the roots")
    if policy.ceiling is not None and change.mode is not None:
        notes.append(f"the ceiling from {policy.ceiling_source} still caps every call, whatever the mode")
    return tuple(notes)
