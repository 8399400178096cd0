"""The file-system port for what a shell command *reaches*: directory listings, entry kinds
and small file reads (git config, git index), never writes.

The policy stage uses it to expand globs, walk what a recursive reader reads and read the
repository configuration git would load. ``OsTree`` is the real one; ``MemoryTree`` is a
fake for tests (and for the differential oracle) that also resolves paths like the kernel,
so one object can serve as the Gate's ``fs`` and ``tree``.
"""

from __future__ import annotations

import os
import posixpath
import stat
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from bastion.policy.file_id import FileId
from bastion.shell.records import builder


class Kind(StrEnum):
    FILE = "file"
    DIR = "dir"
    LINK = "link"
    OTHER = "other"  # fifo, socket, device
    MISSING = "missing"


@dataclass(frozen=True, slots=True)
class Entry:
    name: str
    kind: Kind  # of the entry itself (a symlink is LINK, not what it points to)


class Tree(Protocol):
    """Read-only views of the file system; every method may raise OSError."""

    def scandir(self, path: str) -> tuple[Entry, ...]:
        """The entries of a directory (following symlinks to reach it), without . and .."""
        ...

    def kind(self, path: str, *, follow: bool) -> Kind:
        """What ``path`` is; ``follow`` resolves a final symlink first."""
        ...

    def read(self, path: str, limit: int) -> bytes:
        """At most ``limit`` bytes of a regular file; raises OSError when it is not one."""
        ...


#: ``Entry(name, kind)`` without the frozen dataclass's per-field ``object.__setattr__``.
_new_entry = builder(Entry)

_KINDS = {stat.S_IFLNK: Kind.LINK, stat.S_IFDIR: Kind.DIR, stat.S_IFREG: Kind.FILE}


class OsTree:
    """The real file system."""

    def scandir(self, path: str) -> tuple[Entry, ...]:
        out = []
        new = _new_entry
        with os.scandir(path) as it:
            for entry in it:
                if entry.is_symlink():
                    kind = Kind.LINK
                elif entry.is_dir(follow_symlinks=False):
                    kind = Kind.DIR
                elif entry.is_file(follow_symlinks=False):
                    kind = Kind.FILE
                else:
                    kind = Kind.OTHER
                out.append(new(entry.name, kind))
        return tuple(out)

    def kind(self, path: str, *, follow: bool) -> Kind:
        try:
            info = os.stat(path, follow_symlinks=follow)
        except (FileNotFoundError, NotADirectoryError):
            return Kind.MISSING
        return _KINDS.get(stat.S_IFMT(info.st_mode), Kind.OTHER)

    def read(self, path: str, limit: int) -> bytes:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NONBLOCK", 0))
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise IsADirectoryError(f"{path} is not a regular file")
            return os.read(fd, limit)
        finally:
            os.close(fd)


class MemoryTree:
    """An in-memory file system for tests: ``files`` maps absolute paths to contents,
    ``links`` to symlink targets, ``dirs`` lists extra (empty) directories; parents of
    every entry exist. Listing a directory in ``huge`` yields that many generated files."""

    def __init__(
        self,
        files: dict[str, bytes] | None = None,
        links: dict[str, str] | None = None,
        dirs: tuple[str, ...] = (),
        huge: dict[str, int] | None = None,
    ) -> None:
        self.files = dict(files or {})
        self.links = dict(links or {})
        self.huge = dict(huge or {})
        self.dirs: set[str] = {"/"}
        for path in (*self.files, *self.links, *dirs, *self.huge):
            parent = path if path in dirs or path in self.huge else posixpath.dirname(path)
            while parent not in self.dirs:
                self.dirs.add(parent)
                parent = posixpath.dirname(parent)

    def _own_kind(self, path: str) -> Kind:
        if path in self.links:
            return Kind.LINK
        if path in self.dirs:
            return Kind.DIR
        if path in self.files:
            return Kind.FILE
        parent, name = posixpath.split(path)
        if parent in self.huge and name.startswith("f") and name[1:].isdigit():
            return Kind.FILE
        return Kind.MISSING

    def identity(self, path: str) -> FileId | None:
        """Memory files have one name each (no hard links): one link, an inode per path."""
        if path not in self.files:
            return None
        return FileId(0, hash(path), 1)

    def resolve(self, path: str) -> str:
        """Every symlink followed, ``..`` after a link taken against its target."""
        done = "/"
        todo = [p for p in path.split("/") if p]
        hops = 0
        while todo:
            part = todo.pop(0)
            if part == ".":
                continue
            if part == "..":
                done = posixpath.dirname(done)
                continue
            candidate = posixpath.join(done, part)
            target = self.links.get(candidate)
            if target is None:
                done = candidate
                continue
            hops += 1
            if hops > 40:
                raise OSError(40, f"{path} is a symlink loop")
            todo = [p for p in target.split("/") if p] + todo
            done = "/" if target.startswith("/") else done
        return done

    def scandir(self, path: str) -> tuple[Entry, ...]:
        real = self.resolve(path)
        if real not in self.dirs:
            raise NotADirectoryError(path)
        count = self.huge.get(real, 0)
        generated = tuple(Entry(f"f{i}", Kind.FILE) for i in range(count))
        names = {
            posixpath.basename(p)
            for p in (*self.files, *self.links, *self.dirs)
            if p != "/" and posixpath.dirname(p) == real
        }
        return generated + tuple(Entry(n, self._own_kind(posixpath.join(real, n))) for n in sorted(names))

    def kind(self, path: str, *, follow: bool) -> Kind:
        parent, name = posixpath.split(path.rstrip("/") or "/")
        spot = posixpath.join(self.resolve(parent), name) if name else "/"
        if follow and spot in self.links:
            spot = self.resolve(spot)
        return self._own_kind(spot)

    def read(self, path: str, limit: int) -> bytes:
        real = self.resolve(path)
        if real not in self.files:
            raise FileNotFoundError(path)
        return self.files[real][:limit]
