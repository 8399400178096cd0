"""File I/O pinned to the directory the gate decided on (no time-of-check/time-of-use gap).

A call may wait minutes for a person; reopening its path by name afterwards follows
whatever symlink was swapped in meanwhile (``drop/`` → ``~/.ssh``). So the parent directory
is opened *before* the decision, with no symlink followed on the way (``openat2`` with
``RESOLVE_NO_SYMLINKS`` where the kernel has it, an ``O_NOFOLLOW`` walk from ``/``
otherwise), and every later step works relative to that descriptor, never following a
symlink: missing parents are created with ``mkdir(dir_fd=…)``, the target is opened with
``RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS`` / ``O_NOFOLLOW``, and writes are atomic (a temp
file in the same directory, then ``rename`` within it). At I/O time the path is resolved
again: if it no longer names the pinned directory, nothing is read or written.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import secrets
import stat
from dataclasses import dataclass, field

from bastion.tools.base import ToolError

_SYS_OPENAT2 = 437  # the same number on every architecture (unified syscall table, 5.6+)
RESOLVE_NO_MAGICLINKS = 0x02
RESOLVE_NO_SYMLINKS = 0x04
RESOLVE_BENEATH = 0x08
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC


class _OpenHow(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64)]


class _Openat2:
    """``openat2(2)`` through libc's ``syscall``; ``available`` is False on older kernels."""

    def __init__(self) -> None:
        self.available = False
        try:
            self._syscall = ctypes.CDLL(None, use_errno=True).syscall
        except (OSError, AttributeError):
            return
        self._syscall.restype = ctypes.c_long
        probe = self.call(-100, "/", _DIR_FLAGS, 0, RESOLVE_NO_SYMLINKS)  # AT_FDCWD
        if isinstance(probe, int) and probe >= 0:
            os.close(probe)
            self.available = True

    def call(self, dirfd: int, path: str, flags: int, mode: int, resolve: int) -> int | OSError:
        how = _OpenHow(flags, mode if flags & os.O_CREAT else 0, resolve)
        fd = self._syscall(
            ctypes.c_long(_SYS_OPENAT2),
            ctypes.c_int(dirfd),
            ctypes.c_char_p(os.fsencode(path)),
            ctypes.byref(how),
            ctypes.c_size_t(ctypes.sizeof(how)),
        )
        if fd < 0:
            code = ctypes.get_errno()
            return OSError(code, os.strerror(code), path)
        return int(fd)


_OPENAT2: _Openat2 | None = None


def openat2() -> _Openat2:
    global _OPENAT2  # one probe per process: the kernel does not change under us
    if _OPENAT2 is None:
        _OPENAT2 = _Openat2()
    return _OPENAT2


def open_dir(path: str, *, use_openat2: bool | None = None) -> int:
    """A descriptor of the absolute directory ``path``; OSError (ELOOP) if any component
    is a symlink."""
    sys2 = openat2()
    if sys2.available if use_openat2 is None else use_openat2:
        fd = sys2.call(-100, path, _DIR_FLAGS, 0, RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)
        if isinstance(fd, OSError):
            raise fd
        return fd
    current = os.open("/", _DIR_FLAGS)
    try:
        for part in [p for p in path.split("/") if p]:
            following = os.open(part, _DIR_FLAGS | os.O_NOFOLLOW, dir_fd=current)
            os.close(current)
            current = following
    except BaseException:
        os.close(current)
        raise
    return current


def open_beneath(
    dirfd: int, name: str, flags: int, mode: int = 0o666, *, use_openat2: bool | None = None
) -> int:
    """Open the single component ``name`` under ``dirfd``, never following a symlink."""
    if not name or "/" in name or name in (".", ".."):
        raise OSError(errno.EINVAL, "not a single path component", name)
    sys2 = openat2()
    if sys2.available if use_openat2 is None else use_openat2:
        fd = sys2.call(dirfd, name, flags | os.O_CLOEXEC, mode, RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)
        if isinstance(fd, OSError):
            raise fd
        return fd
    return os.open(name, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=dirfd)


def _identity(fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    return info.st_dev, info.st_ino


@dataclass
class Pinned:
    """The directory a file call was decided on, held open from decision to I/O."""

    path: str  # as the gate normalised it
    anchor: str  # the deepest existing directory on the resolved path
    fd: int
    missing: tuple[str, ...]  # directories to create under the anchor (write only)
    name: str  # the final component
    use_openat2: bool | None = None
    identity: tuple[int, int] = field(init=False)

    def __post_init__(self) -> None:
        self.identity = _identity(self.fd)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def recheck(self) -> None:
        """The path must still resolve to the pinned directory (same inode, no symlink)."""
        again = _resolve(self.path)
        if again != (self.anchor, self.missing, self.name):
            raise ToolError(
                f"{self.path}: the path changed while the call waited (now {_join(*again)}); nothing was done"
            )
        try:
            fresh = open_dir(self.anchor, use_openat2=self.use_openat2)
        except OSError as exc:
            raise ToolError(
                f"{self.path}: {self.anchor} changed while the call waited ({exc.strerror}); nothing was done"
            ) from None
        try:
            if _identity(fresh) != self.identity:
                raise ToolError(
                    f"{self.path}: {self.anchor} was replaced while the call waited; nothing was done"
                )
        finally:
            os.close(fresh)

    def parent(self, *, create: bool) -> int:
        """A new descriptor of the target's directory, creating missing ones if asked."""
        current = os.dup(self.fd)
        try:
            for part in self.missing:
                if not create:
                    raise FileNotFoundError(errno.ENOENT, "no such directory", part)
                with contextlib.suppress(FileExistsError):  # made meanwhile: opened below
                    os.mkdir(part, 0o777, dir_fd=current)  # without following a symlink
                following = open_beneath(current, part, _DIR_FLAGS, use_openat2=self.use_openat2)
                os.close(current)
                current = following
        except BaseException:
            os.close(current)
            raise
        return current


def _join(anchor: str, missing: tuple[str, ...], name: str) -> str:
    return os.path.join(anchor, *missing, name)


def _resolve(path: str) -> tuple[str, tuple[str, ...], str]:
    """(deepest existing directory, directories missing below it, final name) of the
    resolved path. A final symlink is followed (an edit edits what it points to); the gate
    checked that resolved spelling too."""
    real = os.path.realpath(path)
    parent, name = os.path.split(real)
    missing: list[str] = []
    while not os.path.isdir(parent) and parent != "/":
        parent, tail = os.path.split(parent)
        missing.insert(0, tail)
    return parent, tuple(missing), name


def pin(path: str, *, use_openat2: bool | None = None) -> Pinned:
    """Open the directory of ``path`` now; raises ToolError when it cannot be pinned."""
    anchor, missing, name = _resolve(path)
    if not name:
        raise ToolError(f"{path}: not a file path")
    try:
        fd = open_dir(anchor, use_openat2=use_openat2)
    except OSError as exc:
        raise ToolError(
            f"{path}: cannot open {anchor} without following a symlink ({exc.strerror})"
        ) from None
    return Pinned(path, anchor, fd, missing, name, use_openat2)


def read_pinned(target: Pinned, limit: int) -> bytes:
    """Up to ``limit + 1`` bytes of the target, a regular file opened without following."""
    target.recheck()
    try:
        parent = target.parent(create=False)
    except FileNotFoundError:
        raise ToolError(f"{target.path}: no such file") from None
    try:
        fd = open_beneath(parent, target.name, os.O_RDONLY | os.O_NONBLOCK, use_openat2=target.use_openat2)
    except FileNotFoundError:
        raise ToolError(f"{target.path}: no such file") from None
    except OSError as exc:
        raise ToolError(_why(target.path, exc)) from None
    finally:
        os.close(parent)
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(handle.fileno()).st_mode
        if stat.S_ISDIR(mode):
            raise ToolError(f"{target.path}: is a directory (use the list tool)")
        if not stat.S_ISREG(mode):
            raise ToolError(f"{target.path}: not a regular file")
        return handle.read(limit + 1)


def write_pinned(target: Pinned, data: bytes, *, create_parents: bool) -> bool:
    """Replace the target atomically (temp file + rename in the pinned directory); keeps
    an existing file's mode. Returns whether the file is new."""
    target.recheck()
    try:
        parent = target.parent(create=create_parents)
    except OSError as exc:
        raise ToolError(_why(target.path, exc)) from None
    temp = f".{target.name}.bastion-{secrets.token_hex(6)}"
    try:
        try:
            existing = os.stat(target.name, dir_fd=parent, follow_symlinks=False)
        except FileNotFoundError:
            existing = None
        if existing is not None and not stat.S_ISREG(existing.st_mode):
            kind = "a symlink" if stat.S_ISLNK(existing.st_mode) else "not a regular file"
            raise ToolError(f"{target.path}: is {kind} now; nothing was written")
        mode = stat.S_IMODE(existing.st_mode) if existing is not None else 0o666
        fd = open_beneath(
            parent, temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode, use_openat2=target.use_openat2
        )
        try:
            with os.fdopen(fd, "wb") as handle:
                if existing is not None:
                    os.fchmod(handle.fileno(), mode)  # the umask does not narrow a kept mode
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.rename(temp, target.name, src_dir_fd=parent, dst_dir_fd=parent)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=parent)
            raise
    except OSError as exc:
        raise ToolError(_why(target.path, exc)) from None
    finally:
        os.close(parent)
    return existing is None


def _why(path: str, exc: OSError) -> str:
    if exc.errno in (errno.ELOOP, errno.EXDEV):
        return f"{path}: a symlink is in the way (swapped in after the decision?); nothing was done"
    return f"{path}: {exc.strerror or exc}"


@dataclass(frozen=True)
class PinFailure:
    """A path that could not be pinned; reported only after the gate allowed the call (a
    refusal must not be preceded by "no such file" for a path the agent may not see)."""

    message: str

    def close(self) -> None:
        return None
