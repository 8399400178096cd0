"""Amend the person's own policy file: the settings page's change (mode, workspace roots,
granted folders) written into its TOML text, keeping everything else in it as written.

Pure text in, text out (:func:`amended_text`, with tomlkit, which keeps comments, order and
the rest of the file), plus the one atomic write (:func:`write_atomically`). Which file is
the person's own, checking the merged result and recording the change are the caller's
(``bastion.policy_edit``): this module never decides whether a change may apply.

Only a trusted file of the person's is ever amended (``--policy FILE`` / ``BASTION_POLICY``
when given, else ``~/.config/bastion/policy.toml``): never a project file, so an untrusted
project layer keeps every restriction it makes.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bastion.errors import BastionError, PolicyError
from bastion.policy.kinds import Mode

#: At most this many roots in one list (a person's list, not a data set).
MAX_ROOTS = 64
MAX_PATH = 4096


class ChangeError(BastionError):
    """A change that cannot be made as asked: ``key`` names the setting, the message says
    what is wrong and how to fix it."""

    def __init__(self, message: str, *, key: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.detail = message


@dataclass(frozen=True, slots=True)
class GrantedFolder:
    """A ``trusted_roots`` entry: a folder outside the workspace an agent may read (and,
    ``writable``, write)."""

    path: str
    writable: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "rw": self.writable}


@dataclass(frozen=True, slots=True)
class FileChange:
    """What to set in the person's file; None leaves a key as it is."""

    mode: Mode | None = None
    workspace: tuple[str, ...] | None = None
    trusted_roots: tuple[GrantedFolder, ...] | None = None

    @property
    def empty(self) -> bool:
        return self.mode is None and self.workspace is None and self.trusted_roots is None

    def to_json(self) -> dict[str, Any]:
        """The keys set (only those), as the ledger records them."""
        out: dict[str, Any] = {}
        if self.mode is not None:
            out["mode"] = self.mode.value
        if self.workspace is not None:
            out["workspace"] = list(self.workspace)
        if self.trusted_roots is not None:
            out["trusted_roots"] = [root.to_json() for root in self.trusted_roots]
        return out


def parse_mode(value: object) -> Mode:
    if isinstance(value, str):
        try:
            return Mode(value.strip())
        except ValueError:
            pass
    choices = ", ".join(m.value for m in Mode)
    raise ChangeError(f"{value!r} is not a mode: use one of {choices}", key="mode")


def checked_root(value: object, *, key: str, home: str) -> str:
    """One root as the person wrote it: absolute or under ``~``, an existing folder."""
    if not isinstance(value, str) or not value.strip():
        raise ChangeError("each entry must be a non-empty path", key=key)
    path = value.strip()
    if "\x00" in path or len(path) > MAX_PATH:
        raise ChangeError(f"{path[:80]!r} is not a usable path (a NUL byte, or too long)", key=key)
    expanded = home + path[1:] if path == "~" or path.startswith("~/") else path
    if not os.path.isabs(expanded):
        raise ChangeError(
            f"{path!r} is relative: write the whole path (/home/me/project) or start it with ~/", key=key
        )
    if not os.path.isdir(expanded):
        why = f"{path!r} is not an existing folder: create it first, or correct the path"
        raise ChangeError(why, key=key)
    return os.path.normpath(path) if path != "~" else path


def checked_roots(values: object, *, key: str, home: str) -> tuple[str, ...]:
    if not isinstance(values, list | tuple):
        raise ChangeError("expected a list of folders", key=key)
    if len(values) > MAX_ROOTS:
        raise ChangeError(f"at most {MAX_ROOTS} folders", key=key)
    return tuple(dict.fromkeys(checked_root(v, key=key, home=home) for v in values))


def checked_folders(values: object, *, home: str) -> tuple[GrantedFolder, ...]:
    """``trusted_roots`` as given: each a path, or ``{"path": ..., "rw": bool}``."""
    key = "trusted_roots"
    if not isinstance(values, list | tuple):
        raise ChangeError("expected a list of folders (a path, or {path, rw})", key=key)
    if len(values) > MAX_ROOTS:
        raise ChangeError(f"at most {MAX_ROOTS} folders", key=key)
    out: dict[str, GrantedFolder] = {}
    for value in values:
        if isinstance(value, Mapping):
            unknown = sorted(set(value) - {"path", "rw"})
            if unknown or not isinstance(value.get("rw", False), bool):
                raise ChangeError('an entry is a path or {"path": ..., "rw": true|false}', key=key)
            folder = GrantedFolder(checked_root(value.get("path"), key=key, home=home), bool(value.get("rw")))
        else:
            folder = GrantedFolder(checked_root(value, key=key, home=home))
        # One entry per folder: read-write wins over read-only when both are given.
        if folder.path not in out or folder.writable:
            out[folder.path] = folder
    return tuple(out.values())


def amended_text(text: str, change: FileChange, *, file: str) -> str:
    """``text`` with the change's keys set and nothing else touched (comments, order, other
    keys and tables stay). A seed-form file (000's ``workspace_dirs``) keeps its own key."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        doc = tomlkit.parse(text)
    except TOMLKitError as exc:
        raise PolicyError(f"not valid TOML ({exc}): fix the file by hand first", file=file) from exc
    if change.mode is not None:
        doc["mode"] = change.mode.value
    if change.workspace is not None:
        key = "workspace_dirs" if "workspace_dirs" in doc else "workspace"
        doc[key] = _array(list(change.workspace))
    if change.trusted_roots is not None:
        entries: list[Any] = []
        for root in change.trusted_roots:
            if root.writable:
                table = tomlkit.inline_table()
                table.update({"path": root.path, "rw": True})
                entries.append(table)
            else:
                entries.append(root.path)
        if "trusted_roots" in doc:
            del doc["trusted_roots"]  # an [[trusted_roots]] array of tables too
        doc["trusted_roots"] = _array(entries)
    return doc.as_string()


def _array(items: Sequence[Any]) -> Any:
    import tomlkit

    array = tomlkit.array()
    array.extend(items)
    if len(items) > 1:
        array.multiline(True)
    return array


def write_atomically(path: str, text: str) -> None:
    """Replace ``path`` with ``text`` at once (a temporary file in the same folder, synced,
    then renamed over it): a reader sees the old file or the new one, never half. A new file
    and its folder are the person's alone (0600, 0700); an existing file keeps its mode. A
    symbolic link is followed: the person's own link (to a dotfiles repository) stays one."""
    path = os.path.realpath(path)
    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    try:
        mode = os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        mode = 0o600
    fd, tmp = tempfile.mkstemp(prefix=".policy-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
