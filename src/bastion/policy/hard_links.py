"""Hard links in a path decision: a file with several names is every one of them.

A credential file of HOME under another name is denied as the credential; a write through
a file with several names changes it under its other names. Which files are HOME's
credentials comes from the read policy's own credential globs (``credential_inodes``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from bastion.call.effects import Effect
from bastion.policy.credential_inodes import Linked, linked_credentials
from bastion.policy.decision import Decision, Reason
from bastion.policy.hardline import RC_FILES

if TYPE_CHECKING:
    from bastion.policy.compiled import Policy
    from bastion.policy.paths import FileSystem
    from bastion.policy.tree import Entry


class Memo(Protocol):
    """One call's answers (``paths.CallFs``), looked at once per call."""

    def linked(self) -> Linked: ...

    def rc_ids(self) -> dict[tuple[int, int], str]: ...


@runtime_checkable
class Lister(Protocol):
    """What lists a folder (``bastion.policy.tree.Tree`` has it)."""

    def scandir(self, path: str) -> tuple[Entry, ...]: ...


def home_credentials(fs: FileSystem, policy: Policy, tree: Lister | None = None) -> Linked:
    """Every file below HOME the read policy denies as a credential that has more than one
    name (``bastion.policy.credential_inodes``), listed through ``tree`` (default: ``fs``
    when it lists folders, else the real file system)."""

    def identity(path: str) -> tuple[int, int, int] | None:
        found = fs.identity(path)
        return None if found is None else (found.device, found.inode, found.links)

    if tree is None:
        from bastion.policy.tree import OsTree  # the real listing only when none is given

        tree = fs if isinstance(fs, Lister) else OsTree()
    return linked_credentials(policy.path_checks.credentials, identity, tree.scandir)


def credential_ids(fs: FileSystem, policy: Policy) -> dict[tuple[int, int], str]:
    """(device, inode) -> path of each credential file under HOME with another name."""
    return home_credentials(fs, policy).ids


def file_ids(
    fs: FileSystem, home: str, names: tuple[str, ...], *, linked: bool = False
) -> dict[tuple[int, int], str]:
    """(device, inode) -> path of each of ``names`` under ``home`` that exists (``linked``:
    and has more than one name)."""
    found: dict[tuple[int, int], str] = {}
    for name in names:
        path = os.path.join(home, name)
        file_id = fs.identity(path)
        if file_id is not None and (not linked or file_id.links > 1):
            found.setdefault((file_id.device, file_id.inode), path)
    return found


def linked_reason(
    policy: Policy, fs: FileSystem, memo: Memo | None, lexical: str, resolved: str, *, write: bool
) -> tuple[Reason, Effect] | None:
    """A regular file with more than one name (a hard link) is every one of its names: a
    known credential file under any name is denied; a write through one changes the file
    under its other names, which may be outside the workspace, so it is no plain workspace
    write: a home's shell start-up file is denied, any other asks (its other names are not
    known to be harmless). One stat in the common case (one name); HOME's credentials are looked for
    only for a file with several names."""
    file_id = fs.identity(resolved)
    if file_id is None or file_id.links < 2:
        return None
    verb = "write" if write else "read"
    key = (file_id.device, file_id.inode)
    found = memo.linked() if memo is not None else home_credentials(fs, policy)
    if (linked := found.ids.get(key)) is not None:
        message = (
            f"{lexical} is another name (a hard link) of the credential file {linked}: "
            f"never {verb} by an agent"
        )
        reason = Reason(Decision.DENY, "hardline.credentials", "built-in", f"{resolved} = {linked}", message)
        return reason, Effect.CREDENTIALS
    rcs = memo.rc_ids() if memo is not None else file_ids(fs, policy.home, RC_FILES)
    if not write:
        if (linked := rcs.get(key)) is not None and linked != resolved:  # read as the file itself
            message = (
                f"{lexical} is another name (a hard link) of the shell start-up file {linked}, "
                "which often exports tokens: a person must confirm reading it"
            )
            return Reason(
                Decision.ASK, "paths.hard-link", "built-in", f"{resolved} = {linked}", message
            ), Effect.READ
        return None if found.complete else _unseen(lexical, resolved, file_id.links)
    if (linked := rcs.get(key)) is not None:
        message = (
            f"{lexical} is another name (a hard link) of the shell start-up file {linked}: "
            "never written by an agent"
        )
        reason = Reason(Decision.DENY, "hardline.agent-config", "built-in", f"{resolved} = {linked}", message)
        return reason, Effect.SELF
    message = (
        f"{lexical} has {file_id.links} names (hard links): a write through it changes the same file "
        "under its other names, which may be outside the workspace: a person must confirm"
    )
    return Reason(Decision.ASK, "paths.hard-link", "built-in", resolved, message), Effect.WRITE


def _unseen(lexical: str, resolved: str, links: int) -> tuple[Reason, Effect]:
    """A read of a file with several names when HOME's credential locations were too many
    to look at all: it may be another name of a credential file (asks)."""
    message = (
        f"{lexical} has {links} names (hard links) and HOME's credential locations are too many "
        "to look at all: it may be another name of a credential file"
    )
    return Reason(Decision.ASK, "paths.hard-link", "built-in", resolved, message), Effect.READ
