"""HOME's credential files by (device, inode), from the globs the read policy denies them by.

A hard link is the file itself under a second name: ``ln ~/.bash_history ws/notes.txt`` makes
``notes.txt`` the history, which no name-based glob matches. The files to recognise by inode
are exactly those the read policy denies by name (``hardline.credentials`` and the secrets
read-deny: one piece of knowledge, not a second list), wherever they are below HOME: each
glob gives the folder or file it starts from (its components up to the first wildcard:
``**/.config/gcloud`` starts at ``~/.config/gcloud``, ``~/.*_history`` at HOME's own listing,
a bare name such as ``.netrc`` or ``*.pem`` at HOME's top level), which is expanded to the
files below it that the globs match. Only a file with more than one name can have another
name elsewhere, so only such files are kept (none, commonly).

Bounded: at most ``BUDGET`` entries are looked at; past it the answer is marked incomplete
and the caller fails closed for a file with several names (it cannot tell it is not one of
the files left unseen). Globs anchored elsewhere (``/proc/*/environ``, a project's own
``deny_read``) name nothing in HOME and give no start.

The walk goes through the ports it is given (``identity`` and ``scandir``): the gate's
recorded ports in a decision, the real file system in the sandbox (``bastion.exec.linked``).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bastion.policy.globs import Glob, GlobSet

if TYPE_CHECKING:  # a type only: the walk is given its listing, never the tree itself
    from bastion.policy.tree import Entry

#: ``Kind.DIR`` and ``Kind.FILE`` of ``bastion.policy.tree`` (a StrEnum: equal to these).
_DIR, _FILE = "dir", "file"

#: Entries looked at below HOME's credential locations, at most (a browser profile holds a
#: few thousand; a HOME without one, a few dozen).
BUDGET = 6000

FileKey = tuple[int, int]  # (device, inode)
_WILDCARDS = frozenset("*?[")


@dataclass(frozen=True, slots=True)
class Linked:
    """The credential files below HOME with more than one name, by (device, inode) -> path;
    ``complete`` False: the budget ran out before every location was looked at."""

    ids: dict[FileKey, str]
    complete: bool = True


@dataclass(frozen=True, slots=True)
class Places:
    """The credential globs of a policy and where below HOME they start (``starts``):
    worked out once, when the policy is compiled."""

    globs: GlobSet
    home: str
    starts: tuple[str, ...]
    listing: bool

    @classmethod
    def of(cls, globs: GlobSet, home: str) -> Places:
        found, listing = starts(globs.globs, home)
        return cls(globs, home.rstrip("/"), found, listing)


def starts(globs: Iterable[Glob], home: str) -> tuple[tuple[str, ...], bool]:
    """The paths below ``home`` the credential ``globs`` start from (exact files and
    folders: their fixed leading components), and whether any glob needs HOME's own
    listing (a wildcard in its first component below HOME, or a bare name)."""
    home = home.rstrip("/")
    found: dict[str, None] = {}
    listing = False
    for glob in globs:
        rel = _below_home(glob.pattern, home)
        if rel is None:
            continue
        parts = [p for p in rel.split("/") if p]
        fixed: list[str] = []
        for part in parts:
            if _WILDCARDS.intersection(part) or part == "**":
                break
            fixed.append(part)
        if not fixed or "/" not in rel.strip("/"):
            listing = True  # a bare name matches at HOME's top level too
        if fixed and ".." not in fixed:
            found[posixpath.join(home, *fixed)] = None
    return tuple(found), listing


def _below_home(pattern: str, home: str) -> str | None:
    """The part of ``pattern`` below HOME, or None when it names nothing there."""
    if pattern == "~" or pattern.startswith("~/"):
        return pattern[2:]
    if pattern.startswith("**/"):
        return pattern[3:]
    if pattern.startswith("/"):
        return pattern[len(home) + 1 :] if pattern.startswith(home + "/") else None
    # A name with no slash matches at any depth; any other relative glob is anchored at
    # the policy file that wrote it (not HOME).
    return pattern if "/" not in pattern.rstrip("/") else None


def linked_credentials(
    places: Places,
    identity: Callable[[str], tuple[int, int, int] | None],
    scandir: Callable[[str], tuple[Entry, ...]],
    *,
    budget: int = BUDGET,
) -> Linked:
    """Every file below HOME that the credential globs match and that has more than one name.
    ``identity(path)``: (device, inode, links) of the regular file at ``path`` (symlinks
    followed), None when it is not one; ``scandir``: a folder's entries (raises OSError
    when it is not a folder). A symlink met in a folder is not followed: the file it
    names is recognised under its own name."""
    home, credentials, paths, listing = places.home, places.globs, places.starts, places.listing
    if not home:
        return Linked({})
    found: dict[FileKey, str] = {}
    seen = 0
    folders: list[str] = []
    names: dict[str, dict[str, str] | None] = {}  # folder -> its entries' kinds (None: none)

    def kind(path: str) -> str | None:
        """What ``path`` is, from its folder's listing (one per folder, kept): a start
        whose folder does not exist costs no look of its own."""
        parent, name = path.rsplit("/", 1)
        if parent not in names:
            above = kind(parent) if parent != home and parent.startswith(home + "/") else _DIR
            try:
                names[parent] = {e.name: str(e.kind) for e in scandir(parent)} if above else None
            except OSError:
                names[parent] = None
        listed = names[parent]
        return None if listed is None else listed.get(name)

    for path in paths:  # the exact files first: one look each
        seen += 1
        what = kind(path)
        if what == _DIR:
            folders.append(path)
        elif what is not None and (file_id := identity(path)) is not None and file_id[2] > 1:
            found.setdefault((file_id[0], file_id[1]), path)
        elif what is not None and what != _FILE and file_id is None:
            folders.append(path)  # a symlink to a folder
    stack = [(home, False)] if listing else []
    stack += [(folder, True) for folder in reversed(folders)]
    visited: set[str] = set()
    while stack:
        folder, below = stack.pop()
        if folder in visited:
            continue
        visited.add(folder)
        try:
            entries = scandir(folder)
        except OSError:
            continue  # missing, or not a folder
        for entry in entries:
            seen += 1
            if seen > budget:
                return Linked(found, complete=False)
            path = f"{folder}/{entry.name}"
            matched = credentials.first_match(path) is not None
            if entry.kind == _DIR and (below or matched):
                stack.append((path, True))
            elif entry.kind == _FILE and matched:
                file_id = identity(path)
                if file_id is not None and file_id[2] > 1:
                    found.setdefault((file_id[0], file_id[1]), path)
    return Linked(found)
