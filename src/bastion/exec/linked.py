"""Other names of the files a sandbox keeps from its run (hard links in a mounted root).

A hard link is the file itself under a second name: after ``ln ~/.bashrc ws/notes``,
``ws/notes`` opens ``~/.bashrc`` wherever ``ws`` is mounted, whatever the profile does with
HOME. The walk of the mounted roots (``bastion.exec.protected``) compares each entry's inode
(``DirEntry.inode()``: read with the listing, no system call) with the files the profile
keeps from the run, and looks at a file (one ``lstat``) only on a match, to confirm that it
is a regular file on the same device. A file with one name has no other: when every kept
file has ``st_nlink == 1`` there is nothing to look for and the comparison is skipped.

Kept are HOME's credential files (hidden, as the credential itself is: every file below
HOME the read policy denies as a credential, found from its own globs by
``bastion.policy.credential_inodes``, as the gate finds them) and the files a run may see
but never change: shell start-up files, git's and Mercurial's user config, each agent's
settings, the policy files (bound read-only). The tables are the path policy's own
(``bastion.policy.hardline``) and the agents' records: no second list.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field

from bastion.agents.registry import AGENTS
from bastion.policy.credential_inodes import Places, linked_credentials
from bastion.policy.credential_locations import CREDENTIAL_GLOBS, SECRET_READ_GLOBS
from bastion.policy.globs import GlobSet, compile_glob
from bastion.policy.hardline import RC_FILES
from bastion.policy.tree import OsTree

#: The person's own git and Mercurial config in HOME: every repository's git reads them.
USER_VCS_CONFIG: tuple[str, ...] = (
    ".gitconfig",
    ".config/git/config",
    ".config/git/attributes",
    ".hgrc",
    ".config/hg/hgrc",
)

FileKey = tuple[int, int]  # (device, inode)


def _agent_settings() -> tuple[str, ...]:
    """Each agent's settings files under HOME, as its record names them (folders too: a
    folder has no hard link, so it never matches)."""
    return tuple(os.path.join(a.home.folders[0], s) for a in AGENTS for s in a.home.settings)


@dataclass(frozen=True, slots=True)
class Kept:
    """Files kept from a run, by (device, inode), each with more than one name."""

    hidden: frozenset[FileKey] = frozenset()
    readonly: frozenset[FileKey] = frozenset()
    #: The inode numbers alone, compared with each listed entry before anything is looked at.
    inodes: frozenset[int] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "inodes", frozenset(i for _, i in (*self.hidden, *self.readonly)))

    def __bool__(self) -> bool:
        return bool(self.inodes)

    def match(self, entry: os.DirEntry[str]) -> bool | None:
        """True: ``entry`` is another name of a hidden file; False: of a read-only one; None:
        of neither. Free unless the inode number matches one of the kept files."""
        if entry.inode() not in self.inodes:
            return None
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode) or st.st_nlink < 2:
            return None
        key = (st.st_dev, st.st_ino)
        if key in self.hidden:
            return True
        return False if key in self.readonly else None

    def without(self, other: Kept) -> Kept:
        return Kept(self.hidden - other.hidden, self.readonly - other.readonly - other.hidden)


def _linked_key(path: str, *, follow: bool) -> FileKey | None:
    """(device, inode) of the regular file at ``path`` when it has more than one name."""
    try:
        st = os.stat(path, follow_symlinks=follow)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_nlink < 2:
        return None
    return st.st_dev, st.st_ino


#: Files looked at inside HOME's credential folders, beyond the named credential files.
FOLDER_FILES = 400


def _folder_keys(folders: Iterable[str]) -> set[FileKey]:
    """The files with more than one name inside credential folders (``~/.ssh/deploy_key``,
    ``~/.gnupg/private-keys-v1.d/…``, whatever their names), up to ``FOLDER_FILES`` entries."""
    found: set[FileKey] = set()
    stack, seen = [f for f in folders if os.path.isdir(f) and not os.path.islink(f)], 0
    while stack and seen < FOLDER_FILES:
        try:
            with os.scandir(stack.pop()) as listing:
                entries = list(listing)
        except OSError:
            continue
        for entry in entries[: FOLDER_FILES - seen]:
            seen += 1
            if entry.is_dir(follow_symlinks=False):
                stack.append(entry.path)
            elif entry.is_file(follow_symlinks=False) and (key := _linked_key(entry.path, follow=False)):
                found.add(key)
    return found


def builtin_credentials(home: str) -> Places:
    """The built-in credential globs the read policy denies (a policy's own set is
    ``Policy.path_checks.credentials``: these and any it adds)."""
    patterns = (*CREDENTIAL_GLOBS, *SECRET_READ_GLOBS)
    globs = [compile_glob(p, source="built-in", base="/", home=home, ignore_case=True) for p in patterns]
    return Places.of(GlobSet.of(globs), home)


def _identity(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino, st.st_nlink) if stat.S_ISREG(st.st_mode) else None


def home_kept(
    home: str,
    readonly: Iterable[str] = (),
    folders: Iterable[str] = (),
    credentials: Places | None = None,
) -> Kept:
    """HOME's credential files (hidden: every file the read policy's ``credentials`` globs
    deny below HOME, by default the built-in ones, and any file in ``folders``), its rc
    files, git and Mercurial config and agent settings, and ``readonly`` (the policy files:
    read-only) that have more than one name. A symlink in HOME is followed: its target is
    the file a link would name. Past the walk's budget, what was found is kept (the gate
    asks for a read of an unknown file with several names: ``bastion.policy.hard_links``)."""
    if not home:
        return Kept()
    globs = credentials if credentials is not None else builtin_credentials(home)
    found = linked_credentials(globs, _identity, OsTree().scandir)
    hidden = set(found.ids) | _folder_keys(folders)
    names = (*RC_FILES, *USER_VCS_CONFIG, *_agent_settings())
    ro = {k for name in names if (k := _linked_key(os.path.join(home, name), follow=True))}
    ro |= {k for path in readonly if (k := _linked_key(path, follow=True))}
    return Kept(frozenset(hidden), frozenset(ro - hidden))


def kept_below(hidden: Iterable[str], readonly: Iterable[str], budget: int) -> tuple[Kept, int]:
    """The files the walk found to hide or bind read-only (each, or every file below a
    folder), with more than one name: their other names in the roots must be kept too; and
    how many entries were looked at (stops past ``budget``: the caller fails closed)."""
    found: dict[bool, set[FileKey]] = {True: set(), False: set()}
    seen = 0
    for hide, path in [*((True, p) for p in hidden), *((False, p) for p in readonly)]:
        stack = [path]
        while stack and seen <= budget:
            current = stack.pop()
            seen += 1
            key = _linked_key(current, follow=False)
            if key is not None:
                found[hide].add(key)
                continue
            if os.path.isdir(current) and not os.path.islink(current):
                try:
                    stack += [entry.path for entry in os.scandir(current)]
                except OSError:
                    continue
    return Kept(frozenset(found[True]), frozenset(found[False] - found[True])), seen
