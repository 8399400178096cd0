"""What a pure text program prints, worked out without running it: ``echo``, ``printf``,
``tr``, ``rev``, ``base64 -d``, ``xxd -r -p``, ``dirname``, ``basename``, ``cat`` over their
literal arguments and stdin. A path built at run time (``cat $(echo LmdpdC1j… | base64 -d)``,
``cat ~/$(rev <<< crten.)``) is thereby known before it runs (``shell/resolve.py``).

Values may hold ``HOME_MARK`` for the home folder (``~``, ``$HOME``): a dirname or a string
operation keeps it in place. Anything not modelled exactly (an option, a format directive,
bytes that are not text) gives ``None``: the value stays unknown.
"""

from __future__ import annotations

import base64
import binascii
import posixpath
import re
from collections.abc import Callable

#: Stands for the home folder in a value (never a character of a real path).
HOME_MARK = "\x01"
#: Stands for the working directory (``$PWD``, ``~+``): spelled ``.`` where it begins a path.
PWD_MARK = "\x02"

_PRINTF = re.compile(r"%%|%[sbdi]|%|\\x[0-9A-Fa-f]{1,2}|\\[0-7]{1,3}|\\.|[^%\\]+", re.DOTALL)
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "a": "\a", "r": "\r", "v": "\v", "f": "\f", '"': '"'}


def run_pure(argv: list[str], stdin: str | None) -> str | None:
    """The output of ``argv`` fed ``stdin`` (None: no stdin given), or None when the
    program is not one of the pure ones or is used in a way not modelled exactly."""
    if not argv or HOME_MARK in argv[0] or PWD_MARK in argv[0]:
        return None
    program, args = argv[0], argv[1:]
    if program == "echo":
        return _echo(args)
    if program == "pwd" and all(a in ("-L", "-P") for a in args):
        return PWD_MARK + "\n"  # the working directory (-P: without its symlinks, the same folder)
    if program == "printf":
        return _printf(args[0], args[1:]) if args and not args[0].startswith("-") else None
    if program in ("dirname", "basename"):
        if not args or args[0].startswith("-") or len(args) > (2 if program == "basename" else 1):
            return None
        if program == "basename" and PWD_MARK in args[0]:
            return None  # the working directory's own name is not known here
        return _dir_or_base(program, args) + "\n"
    if stdin is None or HOME_MARK in stdin or PWD_MARK in stdin:
        return None
    if program == "cat" and not args:
        return stdin
    if program == "rev" and not args:
        return "".join(line[::-1] + "\n" for line in stdin.splitlines())
    if program == "tr":
        return _tr(args, stdin)
    if program == "base64" and args in (["-d"], ["--decode"], ["-D"]):
        return _decoded(base64.b64decode, "".join(stdin.split()))
    if program == "xxd" and args in (["-r", "-p"], ["-p", "-r"], ["-rp"], ["-pr"]):
        return _decoded(binascii.unhexlify, "".join(stdin.split()))
    return None


def _echo(args: list[str]) -> str | None:
    end = "\n"
    if args[:1] == ["-n"]:
        args, end = args[1:], ""
    if any(a.startswith("-") and len(a) > 1 and set(a[1:]) <= set("neE") for a in args[:1]):
        return None  # -e / -E: escapes this model does not decode
    return " ".join(args) + end


def _printf(fmt: str, args: list[str]) -> str | None:
    """bash's printf for %s, %b (no escapes in the argument), %d over integers, %% and
    backslash escapes (``\\xHH`` and ``\\NNN`` too); the format is reused while arguments
    remain."""
    out: list[str] = []
    rest = list(args)
    while True:
        used = 0
        for tok in _PRINTF.findall(fmt):
            if tok == "%%":
                out.append("%")
            elif tok in ("%s", "%b", "%d", "%i"):
                value = rest.pop(0) if rest else ""
                used += 1
                if tok == "%b" and "\\" in value:
                    return None
                if tok in ("%d", "%i") and not re.fullmatch(r"-?[0-9]*", value):
                    return None
                out.append(value if tok in ("%s", "%b") else str(int(value or "0")))
            elif tok == "%":
                return None  # a directive this model does not know
            elif (len(tok) > 2 and tok[1] == "x") or tok[1:2] in tuple("01234567"):
                code = int(tok[2:], 16) if tok[1] == "x" else int(tok[1:], 8)
                out.append(chr(code & 0xFF))  # \xHH, \NNN: one byte (bash's printf format)
            elif tok.startswith("\\"):
                if tok[1] not in _ESCAPES:
                    return None
                out.append(_ESCAPES[tok[1]])
            else:
                out.append(tok)
        if not rest or not used:
            return "".join(out)


def _dir_or_base(program: str, args: list[str]) -> str:
    path = args[0].rstrip("/") or ("/" if args[0] else "")
    if program == "dirname" and path.startswith(PWD_MARK) and all(p == ".." for p in path.split("/")[1:]):
        # the working directory's parent (dirname prints it as a path of its own, so the
        # dirname of that is the grandparent: `dirname $(dirname $PWD)`)
        return path + "/.."
    if program == "dirname":
        return posixpath.dirname(path) or "." if path != "/" else "/"
    base = posixpath.basename(path) or path
    if len(args) == 2 and base != args[1] and base.endswith(args[1]):
        base = base[: -len(args[1])]
    return base


def _tr_set(spec: str) -> list[str] | None:
    if "[" in spec or "\\" in spec:
        return None  # classes, equivalences, escapes: not modelled
    chars: list[str] = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-":
            lo, hi = ord(spec[i]), ord(spec[i + 2])
            if hi < lo:
                return None
            chars.extend(chr(c) for c in range(lo, hi + 1))
            i += 3
        else:
            chars.append(spec[i])
            i += 1
    return chars


def _tr(args: list[str], stdin: str) -> str | None:
    if len(args) == 2 and args[0] == "-d":
        gone = _tr_set(args[1])
        return None if gone is None else "".join(c for c in stdin if c not in gone)
    if len(args) != 2 or any(a.startswith("-") for a in args):
        return None
    src, dst = _tr_set(args[0]), _tr_set(args[1])
    if not src or not dst:
        return None
    dst = dst + [dst[-1]] * (len(src) - len(dst))
    table: dict[str, str] = {}
    for a, b in zip(src, dst, strict=False):
        table[a] = b  # the last mapping of a repeated character wins, as in GNU tr
    return "".join(table.get(c, c) for c in stdin)


def _decoded(decode: Callable[[bytes], bytes], data: str) -> str | None:
    try:
        text = decode(data.encode("ascii")).decode("utf-8")
    except (ValueError, UnicodeError):
        return None
    return None if HOME_MARK in text or "\x00" in text else text


_FIND_GLOB = frozenset("*?[")


def find_output(argv: list[str]) -> str | None:
    """``find ROOT -name NAME`` may print ROOT/NAME (a literal name, no glob)."""
    if len(argv) < 4 or argv[2] not in ("-name", "-iname") or argv[1].startswith("-"):
        return None
    name = argv[3]
    if _FIND_GLOB & set(name) or "/" in name:
        return None
    return f"{argv[1].rstrip('/')}/{name}\n"
