"""The paths a git index lists (``.git/index``, versions 2, 3 and 4), read without git.

Layout (gitformat-index(5)): "DIRC", version, entry count; each entry has 40 bytes of stat
data, a 20-byte object id (SHA-1; 32 for SHA-256 repositories), 2 bytes of flags, in
version 3 optional 2 bytes of extended flags, then the path: NUL-terminated and padded to a
multiple of 8 (versions 2, 3), or prefix-compressed without padding (version 4). A split
index ("link") or a sparse index ("sdir") lists only part of the tree: ``IndexUnknown``.
"""

from __future__ import annotations

import struct


class IndexUnknown(ValueError):
    """The index cannot be read completely (the caller fails closed)."""


_STAT = 40
_EXTENDED = 0x4000


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    """git's offset encoding (varint.c): each continuation adds one before shifting."""
    if pos >= len(data):
        raise IndexUnknown("truncated index")
    byte = data[pos]
    pos += 1
    value = byte & 0x7F
    while byte & 0x80:
        if pos >= len(data):
            raise IndexUnknown("truncated index")
        byte = data[pos]
        pos += 1
        value = ((value + 1) << 7) | (byte & 0x7F)
    return value, pos


def index_paths(data: bytes, *, oid_size: int = 20, limit: int | None = None) -> list[str]:
    """Every path in the index, in order. ``limit``: raise IndexUnknown beyond that many."""
    if len(data) < 12 or data[:4] != b"DIRC":
        raise IndexUnknown("not a git index")
    version, count = struct.unpack(">II", data[4:12])
    if version not in (2, 3, 4):
        raise IndexUnknown(f"index version {version} is not supported")
    if limit is not None and count > limit:
        raise IndexUnknown(f"the index lists {count} entries")
    paths: list[str] = []
    pos = 12
    previous = b""
    fixed = _STAT + oid_size + 2
    for _ in range(count):
        start = pos
        if pos + fixed > len(data):
            raise IndexUnknown("truncated index")
        (flags,) = struct.unpack(">H", data[pos + fixed - 2 : pos + fixed])
        pos += fixed
        if flags & _EXTENDED:
            if version < 3:
                raise IndexUnknown("extended flags in a version 2 index")
            pos += 2
        if version == 4:
            strip, pos = _varint(data, pos)
            end = data.find(b"\x00", pos)
            if end < 0 or strip > len(previous):
                raise IndexUnknown("corrupt path in index")
            name = previous[: len(previous) - strip] + data[pos:end]
            pos = end + 1
        else:
            end = data.find(b"\x00", pos)
            if end < 0:
                raise IndexUnknown("corrupt path in index")
            name = data[pos:end]
            pos = start + ((end - start + 8) & ~7)
        previous = name
        paths.append(name.decode("utf-8", "surrogateescape"))
    _check_extensions(data, pos, oid_size)
    return paths


def _check_extensions(data: bytes, pos: int, oid_size: int) -> None:
    while pos + 8 <= len(data) - oid_size:
        signature = data[pos : pos + 4]
        (size,) = struct.unpack(">I", data[pos + 4 : pos + 8])
        if signature in (b"link", b"sdir"):
            kind = "split" if signature == b"link" else "sparse"
            raise IndexUnknown(f"a {kind} index lists only part of the tree")
        pos += 8 + size
