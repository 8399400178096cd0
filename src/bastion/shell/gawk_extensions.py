"""gawk's extensions: the functions a loaded extension adds that open a file by the name they
are given, so that ``readfile(ENVIRON["HOME"] "/.vault-token")`` is a read of that file and
``writea(ENVIRON["HOME"] "/.bashrc", a)`` a write of it, judged as ``getline <`` and
``print >`` are (``awkscript``); and ``inplace``, which rewrites every input file.

An extension is loaded with ``-l NAME`` / ``--load=NAME`` or ``@load "NAME"`` (a shared
library from AWKLIBPATH), an awk library with ``-i NAME`` / ``@include "NAME"`` (from AWKPATH,
whose first entry is the working directory: code the gate does not read, so ``-i`` stays
code). The functions and their arguments are gawk 5.2's ("The Sample Extensions" and "Library
Functions" in its manual; the libraries under /usr/lib/…/gawk and /usr/share/awk here). Loading
one not in this table leaves the program what its options make it (code), never a pure read.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from bastion.shell import awkscript
from bastion.shell.awkscript import Finding, Kind, Token

#: Per extension or library: function -> what it does with the file its first argument names
#: ("read", "write"), or "code" where what it touches is not one named file.
EXTENSIONS: dict[str, dict[str, str]] = {
    "readfile": {"readfile": "read"},  # the .so and /usr/share/awk/readfile.awk alike
    "rwarray": {"writea": "write", "reada": "read", "writeall": "write", "readall": "read"},
    # stat and statvfs read a file's metadata; fts walks an array of paths; chdir moves
    # every relative name after it.
    "filefuncs": {"stat": "read", "statvfs": "read", "fts": "code", "chdir": "code"},
    "inplace": {"inplace::begin": "write", "inplace::end": "write"},
    "fork": {"fork": "code", "waitpid": "code", "wait": "code"},
    # These open no file by a name they are given.
    "fnmatch": {},
    "intdiv": {},
    "ordchr": {},
    "readdir": {},
    "revoutput": {},
    "revtwoway": {},
    "time": {},
}


def extension_name(value: str) -> str:
    """``readfile``, ``readfile.so``, ``/usr/lib/…/gawk/readfile.so``, ``inplace.awk``: its name."""
    base = posixpath.basename(value)
    for suffix in (".so", ".awk"):
        base = base.removesuffix(suffix)
    return base


def loaded(program: str, options: Iterable[str]) -> set[str]:
    """The extensions and libraries ``options`` (the values of -l and -i) and the program's
    ``@load`` / ``@include`` directives name."""
    names = {extension_name(v) for v in options}
    toks = awkscript.tokens(program) or []
    for k, tok in enumerate(toks[:-2]):
        if tok.text == "@" and toks[k + 1].text in ("load", "include") and toks[k + 2].kind is Kind.STRING:
            names.add(extension_name(toks[k + 2].text))
    return names


def findings(program: str, names: set[str]) -> list[Finding] | None:
    """What the functions of the loaded extensions ``names`` do in ``program``: a read or a
    write of the file each call names (a literal name, ``ENVIRON["HOME"] "/x"``, or an
    expression whose literal end is known), or code; None when the program cannot be read."""
    toks = awkscript.tokens(program)
    if toks is None:
        return None
    functions = {f: what for n in names for f, what in EXTENSIONS.get(n, {}).items()}
    found: list[Finding] = []
    for k, tok in enumerate(toks):
        called = k + 1 < len(toks) and toks[k + 1].text == "(" and tok.kind in (Kind.FUNC_NAME, Kind.NAME)
        what = functions.get(tok.text) if called else None
        if what is None or (k and toks[k - 1].text in ("function", "func", "@")):
            continue  # not a call of one (its definition, or an indirect call: code already)
        why = f"gawk {tok.text}() {'reads' if what == 'read' else 'writes'} the file it names"
        if what == "code":
            found.append(Finding("code", None, f"gawk {tok.text}() is not modelled"))
            continue
        target, tail = awkscript.expression_target(toks, _first_argument(toks, k + 1))
        found.append(Finding(what, target, why, tail=tail))
    return found


def _first_argument(toks: list[Token], opening: int) -> list[Token]:
    """The tokens of the first argument of the call whose ``(`` is at ``opening``."""
    depth = 0
    for j in range(opening, len(toks)):
        text = toks[j].text if toks[j].kind is Kind.OP else ""
        if text in ("(", "["):
            depth += 1
        elif text in (")", "]"):
            depth -= 1
            if depth == 0:
                return toks[opening + 1 : j]
        elif text == "," and depth == 1:
            return toks[opening + 1 : j]
    return []
