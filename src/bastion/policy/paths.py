"""Path policy: normalise a path, then decide read or write access with reasons.

The lexical path (``~`` expanded, made absolute, ``..`` collapsed) and its symlink-resolved
target are both checked: deny if either is denied, allow only if both are allowed. A path
that does not exist yet resolves through its deepest existing ancestor.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from typing import Protocol

from bastion.call.effects import Effect
from bastion.policy.compiled import Policy
from bastion.policy.credential_inodes import Linked
from bastion.policy.decision import Decision, Reason
from bastion.policy.file_id import FileId
from bastion.policy.hard_links import Lister, credential_ids, file_ids, home_credentials, linked_reason
from bastion.policy.hardline import RC_FILES

#: Longer paths than this are refused (PATH_MAX on Linux).
MAX_PATH = 4096


class SymlinkLoop(OSError):
    """A path whose symlinks never resolve."""


class FileSystem(Protocol):
    """The only I/O a path decision needs."""

    def resolve(self, path: str) -> str:
        """Resolve every symlink; a missing tail resolves through its deepest existing
        ancestor. Raises SymlinkLoop for a loop."""
        ...

    def identity(self, path: str) -> FileId | None:
        """The identity of the regular file at ``path`` (symlinks followed); None when it
        is missing, not a regular file, or cannot be looked at."""
        ...


class OsFileSystem:
    """Resolves with the kernel where it can: one ``open(O_PATH)`` and a ``readlink`` of its
    ``/proc/self/fd`` entry instead of an ``lstat`` per component (os.path.realpath)."""

    def __init__(self) -> None:
        self._fast = hasattr(os, "O_PATH") and os.path.isdir("/proc/self/fd")

    def identity(self, path: str) -> FileId | None:
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            return None
        if not stat.S_ISREG(st.st_mode):
            return None
        return FileId(st.st_dev, st.st_ino, st.st_nlink)

    def resolve(self, path: str) -> str:
        if self._fast:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except FileNotFoundError:
                return self._resolve_missing(path)
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    raise SymlinkLoop(exc.errno, f"{path} is a symlink loop") from exc
            else:
                try:
                    resolved = os.readlink(f"/proc/self/fd/{fd}")
                finally:
                    os.close(fd)
                if resolved.startswith("/") and not resolved.endswith(" (deleted)"):
                    return resolved
        return self._realpath(path)

    def _resolve_missing(self, path: str) -> str:
        """A new file resolves through its deepest existing ancestor; a dangling link (the
        leaf exists, its target does not) is followed by realpath."""
        tail: list[str] = []
        current = path
        while True:
            parent, leaf = os.path.split(current)
            if leaf in ("", ".", "..") or parent == current:
                return self._realpath(path)
            try:
                os.lstat(current)
            except FileNotFoundError:
                tail.append(leaf)
                current = parent
                try:
                    fd = os.open(current, os.O_PATH | os.O_CLOEXEC)
                except FileNotFoundError:
                    continue
                except OSError:
                    return self._realpath(path)
                try:
                    base = os.readlink(f"/proc/self/fd/{fd}")
                finally:
                    os.close(fd)
                return os.path.join(base, *reversed(tail))
            except OSError:
                return self._realpath(path)
            return self._realpath(path)  # the leaf exists: a dangling link or a broken ancestor

    def _realpath(self, path: str) -> str:
        try:
            return os.path.realpath(path, strict=True)
        except FileNotFoundError:
            pass
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise SymlinkLoop(exc.errno, f"{path} is a symlink loop") from exc
        resolved = os.path.realpath(path)
        # Non-strict realpath stops at a loop and returns a path that is still a link.
        if os.path.islink(resolved):
            raise SymlinkLoop(errno.ELOOP, f"{path} is a symlink loop")
        return resolved


class CallFs:
    """One decision's memo over a ``FileSystem``: each path is resolved once, and each path
    verdict of ``policy`` computed once, for the length of ONE decision (made afresh for
    every call, never shared: a symlink may change between two calls). Within a call the
    answers are the same ones the file system would give again, so decisions are identical."""

    __slots__ = ("_linked", "_rc_ids", "_resolved", "failed", "fs", "policy", "tree", "verdicts")

    def __init__(self, fs: FileSystem, policy: Policy, tree: Lister | None = None) -> None:
        self.fs = fs
        self.policy = policy
        #: Where HOME's credential folders are listed (``credential_inodes``); None: ``fs``
        #: when it lists folders too (an in-memory tree), else the real file system.
        self.tree = tree
        self._resolved: dict[str, str] = {}
        self.verdicts: dict[tuple[str, bool, str], PathVerdict] = {}
        #: Resolutions that raised (not kept: asked again), so not the same answer twice.
        self.failed = 0
        self._linked: Linked | None = None
        self._rc_ids: dict[tuple[int, int], str] | None = None

    def identity(self, path: str) -> FileId | None:
        return self.fs.identity(path)

    def linked(self) -> Linked:
        """The credential files of this policy's home that have another name, by (device,
        inode): looked for once per call, and only when a file with several names is read."""
        if self._linked is None:
            self._linked = home_credentials(self.fs, self.policy, self.tree)
        return self._linked

    def credential_ids(self) -> dict[tuple[int, int], str]:
        return self.linked().ids

    def rc_ids(self) -> dict[tuple[int, int], str]:
        """The home's shell start-up files by (device, inode), looked at as ``credential_ids``."""
        if self._rc_ids is None:
            self._rc_ids = file_ids(self.fs, self.policy.home, RC_FILES)
        return self._rc_ids

    def resolve(self, path: str) -> str:
        found = self._resolved.get(path)
        if found is None:  # errors (a symlink loop) are not kept: they are asked again
            try:
                found = self._resolved[path] = self.fs.resolve(path)
            except BaseException:
                self.failed += 1
                raise
        return found


class PathError(ValueError):
    """A path that cannot be checked (NUL byte, not UTF-8, too long)."""


@dataclass(frozen=True, slots=True)
class PathVerdict:
    """``decision`` None: the path policy has no opinion (the mode decides)."""

    decision: Decision | None
    reasons: tuple[Reason, ...]
    effects: frozenset[Effect]
    lexical: str
    resolved: str
    inside_roots: bool  # both spellings inside the roots for this access


def normalise(path: str, *, cwd: str, home: str) -> str:
    """``~`` expanded, made absolute against ``cwd``, ``..`` collapsed (lexically)."""
    return os.path.normpath(absolute(path, cwd=cwd, home=home))


def absolute(path: str, *, cwd: str, home: str) -> str:
    """``~`` expanded and made absolute, ``..`` kept: the kernel resolves a ``..`` after a
    symlink against the link's target, so resolution must see the path as written."""
    if "\x00" in path:
        raise PathError("path contains a NUL byte")
    if not path.isascii():  # ASCII is UTF-8: only other text can hold a lone surrogate
        try:
            path.encode("utf-8")
        except UnicodeEncodeError:
            raise PathError("path is not valid UTF-8") from None
    if len(path) > MAX_PATH:
        raise PathError(f"path is longer than {MAX_PATH} characters")
    if path == "~" or path.startswith("~/"):
        path = home + path[1:]
    return os.path.join(cwd, path)


def _under(path: str, roots: tuple[str, ...]) -> str | None:
    for root in roots:
        if path == root or path.startswith(root.rstrip("/") + "/"):
            return root
    return None


def check_path(policy: Policy, path: str, *, write: bool, cwd: str, fs: FileSystem) -> PathVerdict:
    """Decide one path for read (``write=False``) or write access."""
    if isinstance(fs, CallFs) and fs.policy is policy:
        key = (path, write, cwd)
        known = fs.verdicts.get(key)
        if known is None:
            known = fs.verdicts[key] = _check_path(policy, path, write=write, cwd=cwd, fs=fs)
        return known
    return _check_path(policy, path, write=write, cwd=cwd, fs=fs)


def _check_path(policy: Policy, path: str, *, write: bool, cwd: str, fs: FileSystem) -> PathVerdict:
    try:
        written = absolute(path, cwd=cwd, home=policy.home)
    except PathError as exc:
        reason = Reason(Decision.DENY, "paths.invalid", "built-in", repr(path)[:200], str(exc))
        return PathVerdict(Decision.DENY, (reason,), frozenset({Effect.UNKNOWN}), path, path, False)
    lexical = os.path.normpath(written)
    try:
        resolved = fs.resolve(written)
    except SymlinkLoop:
        reason = Reason(
            Decision.DENY, "paths.symlink-loop", "built-in", lexical, f"{lexical} is a symlink loop"
        )
        return PathVerdict(Decision.DENY, (reason,), frozenset({Effect.UNKNOWN}), lexical, lexical, False)
    spellings = (lexical,) if resolved == lexical else (lexical, resolved)
    checks = policy.path_checks
    denies: list[Reason] = []
    asks: list[Reason] = []
    effects: set[Effect] = {Effect.WRITE if write else Effect.READ}
    verb = "write" if write else "read"
    guard = checks.write_guard if write else checks.read_guard
    for spelled in spellings:
        if guard.first_match(spelled) is None:
            continue  # the common case: nothing denies or asks about this spelling
        via = "" if spelled == lexical else f" (symlink target of {lexical})"
        for check in checks.write if write else checks.read:
            if spelled in check.skip:
                continue
            glob = check.globs.first_match(spelled)
            if glob is None:
                continue
            message = check.template.format(spelled=spelled, via=via, verb=verb)
            reason = Reason(check.decision, check.rule, glob.source, f"{spelled} ~ {glob.pattern}", message)
            (denies if check.decision is Decision.DENY else asks).append(reason)
            if check.effect is not None:
                effects.add(check.effect)
    memo = fs if isinstance(fs, CallFs) and fs.policy is policy else None
    if not denies and (linked := linked_reason(policy, fs, memo, lexical, resolved, write=write)) is not None:
        effects.add(linked[1])
        (denies if linked[0].decision is Decision.DENY else asks).append(linked[0])
    if denies:
        return PathVerdict(Decision.DENY, tuple(denies), frozenset(effects), lexical, resolved, False)
    allowed = _allowed(policy, spellings, write=write, verb=verb)
    inside = len(allowed) == len(spellings)
    if asks:
        return PathVerdict(Decision.ASK, tuple(asks), frozenset(effects), lexical, resolved, inside)
    if inside:
        return PathVerdict(Decision.ALLOW, tuple(allowed), frozenset(effects), lexical, resolved, True)
    outside = Reason(
        Decision.ASK,
        "paths.outside-roots",
        policy.mode_source,
        lexical,
        f"{lexical}{' -> ' + resolved if resolved != lexical else ''} is outside every "
        f"{'writable' if write else 'readable'} root",
    )
    return PathVerdict(None, (outside,), frozenset(effects), lexical, resolved, False)


def _allowed(policy: Policy, spellings: tuple[str, ...], *, write: bool, verb: str) -> list[Reason]:
    """Why each spelling is allowed: inside a root for this access, or in allow_read/write."""
    roots = policy.write_roots if write else policy.read_roots
    allow_globs = policy.allow_write if write else policy.allow_read
    allowed: list[Reason] = []
    for spelled in spellings:
        root = _under(spelled, roots)
        if root is not None:
            allowed.append(
                Reason(
                    Decision.ALLOW,
                    "paths.roots",
                    policy.mode_source,
                    root,
                    f"{spelled} is inside {'a writable' if write else 'a readable'} root",
                )
            )
            continue
        glob = allow_globs.first_match(spelled)
        if glob is not None:
            allowed.append(
                Reason(
                    Decision.ALLOW,
                    f"paths.allow_{verb}",
                    glob.source,
                    f"{spelled} ~ {glob.pattern}",
                    f"{spelled} is in allow_{verb}",
                )
            )
    return allowed


def hard_link_to_credential(policy: Policy, fs: FileSystem, resolved: str) -> str | None:
    """The known credential file ``resolved`` is another name of, by (device, inode): only
    a file with more than one name can be one. Within a call HOME's credentials are looked
    for once, and no file is looked at when none has another name (the common case)."""
    memo = fs if isinstance(fs, CallFs) and fs.policy is policy else None
    if memo is not None and not memo.credential_ids():
        return None  # a walk stats no file when no credential file has another name
    file_id = fs.identity(resolved)
    if file_id is None or file_id.links < 2:
        return None
    known = memo.credential_ids() if memo is not None else credential_ids(fs, policy)
    return known.get((file_id.device, file_id.inode))


def inside_write_roots(policy: Policy, verdict: PathVerdict) -> bool:
    """For the ``workspace_write`` ceiling: both spellings under a workspace/rw root."""
    return all(_under(p, policy.write_roots) is not None for p in {verdict.lexical, verdict.resolved})


__all__ = ["FileId", "credential_ids", "file_ids", "home_credentials"]  # kept importable from here
