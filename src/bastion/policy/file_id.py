"""A file's identity by (device, inode), shared by the path decision and the tree views
(its own module, so that the tree need not import the path decision that reads it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FileId:
    """A regular file's identity: the same (device, inode) is the same file under any name;
    ``links`` is how many names it has (a hard link makes two)."""

    device: int
    inode: int
    links: int
