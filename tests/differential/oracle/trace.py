"""strace output (``-f -y``) to effect events: what was read, written, deleted, executed,
connected. Paths come from the decoded fds (``3</abs/path>``: symlinks resolved by the
kernel) when a call succeeded, else from the string argument joined to its decoded dirfd."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from enum import StrEnum


class Op(StrEnum):
    READ = "read"  # opened for reading (a file or a directory listing)
    WRITE = "write"  # opened for writing, created, truncated, linked, chmod/chown/utime
    DELETE = "delete"  # unlinked, removed, renamed away
    EXEC = "exec"
    CONNECT = "connect"  # connect/bind/sendto/sendmsg with an address


@dataclass(frozen=True, slots=True)
class Event:
    op: Op
    path: str  # absolute path; for CONNECT the address text
    ok: bool  # the syscall succeeded
    line: str  # the strace line, for the report
    detail: str = ""  # CONNECT: the address family; EXEC: argv[1] (a script, for its interpreter)


_LINE = re.compile(r"^(\d+)\s+(.*)$")
_CALL = re.compile(r"^(\w+)\((.*)\)\s+=\s+(-?\d+|\?)(<(?:[^>\\]|\\.)*>)?")
_UNFINISHED = " <unfinished ...>"
_RESUMED = re.compile(r"^<\.\.\. (\w+) resumed>(.*)$")
_FD_PATH = re.compile(r"^(?:-?\d+|AT_FDCWD)<(.*)>$")
_WRITE_FLAGS = ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "v": "\v", "f": "\f", '"': '"', "\\": "\\"}


def split_args(text: str) -> list[str]:
    """Top-level comma-separated arguments, respecting strings, [], {} and <>-decoded fds."""
    args, depth, current, quoted, i = [], 0, [], False, 0
    while i < len(text):
        ch = text[i]
        if quoted:
            current.append(ch)
            if ch == "\\" and i + 1 < len(text):
                current.append(text[i + 1])
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
            current.append(ch)
        elif ch in "[{(<":
            depth += 1
            current.append(ch)
        elif ch in "]})>":
            depth -= 1
            current.append(ch)
        elif ch == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
        i += 1
    if current:
        args.append("".join(current).strip())
    return args


def unquote(token: str) -> str | None:
    """A strace C string literal (``"a\\nb"``, maybe followed by ``...``) decoded; else None."""
    if not token.startswith('"'):
        return None
    body = token[1 : token.rfind('"')]
    out, i = bytearray(), 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt == "x" and i + 3 < len(body) + 1:
                out.append(int(body[i + 2 : i + 4], 16))
                i += 4
                continue
            if nxt.isdigit():
                digits = re.match(r"[0-7]{1,3}", body[i + 1 :])
                assert digits is not None
                out.append(int(digits.group(0), 8))
                i += 1 + len(digits.group(0))
                continue
            out += _ESCAPES.get(nxt, nxt).encode()
            i += 2
            continue
        out += ch.encode()
        i += 1
    return out.decode(errors="replace")


def fd_path(token: str) -> str | None:
    match = _FD_PATH.match(token)
    return match.group(1) if match else None


def join(dirfd: str | None, path: str | None) -> str:
    if path is None:
        return ""
    if path.startswith("/") or dirfd is None:
        return os.path.normpath(path) if path.startswith("/") else path
    base = fd_path(dirfd) or ""
    return os.path.normpath(os.path.join(base, path))


def logical_lines(lines: list[str] | tuple[str, ...]) -> list[tuple[str, str]]:
    """(pid, call text) with ``<unfinished ...>``/``resumed`` halves joined."""
    pending: dict[str, str] = {}
    out: list[tuple[str, str]] = []
    for raw in lines:
        match = _LINE.match(raw)
        if not match:
            continue
        pid, rest = match.groups()
        if rest.endswith(_UNFINISHED):
            pending[pid] = rest[: -len(_UNFINISHED)]
            continue
        resumed = _RESUMED.match(rest)
        if resumed:
            rest = pending.pop(pid, resumed.group(1) + "(") + resumed.group(2)
        out.append((pid, rest))
    return out


# (syscall) -> (index of dirfd or None, index of path, op). Two-path calls are listed twice.
_PATH_CALLS: dict[str, tuple[tuple[int | None, int, Op], ...]] = {
    "truncate": ((None, 0, Op.WRITE),),
    "unlink": ((None, 0, Op.DELETE),),
    "rmdir": ((None, 0, Op.DELETE),),
    "unlinkat": ((0, 1, Op.DELETE),),
    "rename": ((None, 0, Op.DELETE), (None, 1, Op.WRITE)),
    "renameat": ((0, 1, Op.DELETE), (2, 3, Op.WRITE)),
    "renameat2": ((0, 1, Op.DELETE), (2, 3, Op.WRITE)),
    "mkdir": ((None, 0, Op.WRITE),),
    "mkdirat": ((0, 1, Op.WRITE),),
    "symlink": ((None, 1, Op.WRITE),),
    "symlinkat": ((1, 2, Op.WRITE),),
    "link": ((None, 1, Op.WRITE),),
    "linkat": ((2, 3, Op.WRITE),),
    "mknod": ((None, 0, Op.WRITE),),
    "mknodat": ((0, 1, Op.WRITE),),
    "chmod": ((None, 0, Op.WRITE),),
    "fchmodat": ((0, 1, Op.WRITE),),
    "chown": ((None, 0, Op.WRITE),),
    "lchown": ((None, 0, Op.WRITE),),
    "fchownat": ((0, 1, Op.WRITE),),
    "utime": ((None, 0, Op.WRITE),),
    "utimes": ((None, 0, Op.WRITE),),
    "futimesat": ((0, 1, Op.WRITE),),
    "execve": ((None, 0, Op.EXEC),),
    "execveat": ((0, 1, Op.EXEC),),
}
_FD_CALLS: dict[str, Op] = {"ftruncate": Op.WRITE, "fchmod": Op.WRITE, "fchown": Op.WRITE}
_NET_CALLS: dict[str, int] = {"connect": 1, "bind": 1, "sendto": 4, "sendmsg": 1}
_FAMILY = re.compile(r"sa_family=(\w+)")


def _open_event(name: str, args: list[str], ok: bool, ret_path: str | None, line: str) -> Event:
    if name == "creat":
        dirfd, path, flags = None, args[0], "O_CREAT|O_WRONLY|O_TRUNC"
    elif name == "open":
        dirfd, path, flags = None, args[0], args[1] if len(args) > 1 else ""
    else:  # openat, openat2 ({flags=…} is the third argument of openat2)
        dirfd, path, flags = args[0], args[1], args[2] if len(args) > 2 else ""
    op = Op.WRITE if any(flag in flags for flag in _WRITE_FLAGS) else Op.READ
    where = ret_path if ok and ret_path else join(dirfd, unquote(path))
    return Event(op, where, ok, line)


def _exec_event(name: str, args: list[str], ok: bool, line: str) -> Event:
    dirfd, path, argv = (None, args[0], args[1]) if name == "execve" else (args[0], args[1], args[2])
    words = [unquote(w) for w in split_args(argv.strip()[1:-1])] if argv.startswith("[") else []
    first = words[1] if len(words) > 1 and words[1] is not None else ""
    return Event(Op.EXEC, join(dirfd, unquote(path)), ok, line, detail=first)


def _events_of(name: str, args: list[str], ok: bool, ret_path: str | None, line: str) -> list[Event]:
    if name in ("open", "openat", "openat2", "creat"):
        if "O_PATH" in (args[2] if name.startswith("openat") and len(args) > 2 else ""):
            return []  # an O_PATH fd only names a file: it can neither read nor write it
        return [_open_event(name, args, ok, ret_path, line)]
    if name in ("execve", "execveat") and len(args) >= 3:
        return [_exec_event(name, args, ok, line)]
    if name in _FD_CALLS:
        return [Event(_FD_CALLS[name], fd_path(args[0]) or args[0], ok, line)]
    if name == "utimensat":
        target = unquote(args[1]) if len(args) > 1 else None
        where = join(args[0], target) if target is not None else fd_path(args[0]) or args[0]
        return [Event(Op.WRITE, where, ok, line)]
    if name in _NET_CALLS:
        index = _NET_CALLS[name]
        address = args[index] if len(args) > index else ""
        family = _FAMILY.search(address)
        if family is None:  # sendto/sendmsg on a connected socket: no new address
            return []
        return [Event(Op.CONNECT, address, ok, line, detail=family.group(1))]
    out = []
    for dir_index, path_index, op in _PATH_CALLS.get(name, ()):
        if path_index >= len(args):
            continue
        dirfd = args[dir_index] if dir_index is not None else None
        out.append(Event(op, join(dirfd, unquote(args[path_index])), ok, line))
    return out


def events(lines: list[str] | tuple[str, ...]) -> list[Event]:
    """Every judged effect in a trace, in order."""
    out: list[Event] = []
    for pid, text in logical_lines(lines):
        match = _CALL.match(text)
        if not match:
            continue
        name, arg_text, ret, decoded = match.groups()
        ok = ret != "?" and not ret.startswith("-")
        ret_path = decoded[1:-1] if decoded else None
        out += _events_of(name, split_args(arg_text), ok, ret_path, f"{pid} {text}")
    return out
