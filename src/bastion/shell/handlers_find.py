"""The ``find`` handler: its tests, actions that write or delete, and ``-exec`` commands run
once per file found."""

from __future__ import annotations

import re
from dataclasses import replace

from bastion.call.effects import Effect
from bastion.shell import paths as P
from bastion.shell.ctx import Ctx
from bastion.shell.flags import Parsed
from bastion.shell.model import Access, PathUse, SimpleCommand, read_below
from bastion.shell.programs.spec import Spec
from bastion.shell.words import Word

E = Effect


_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_FIND_WRITES = frozenset({"-fprint", "-fprint0", "-fprintf", "-fls"})
_FIND_VALUE = frozenset(
    {
        "-name",
        "-iname",
        "-path",
        "-ipath",
        "-regex",
        "-iregex",
        "-type",
        "-newer",
        "-user",
        "-group",
        "-perm",
        "-size",
        "-mtime",
        "-mmin",
        "-atime",
        "-amin",
        "-ctime",
        "-cmin",
        "-maxdepth",
        "-mindepth",
        "-printf",
        "-wholename",
        "-iwholename",
        "-lname",
        "-ilname",
        "-inum",
        "-links",
        "-uid",
        "-gid",
        "-samefile",
        "-used",
        "-fstype",
        "-regextype",
        "-context",
        "-anewer",
        "-cnewer",
        "-D",
        "-O",
        "-xtype",
    }
)
#: Primaries without a value (GNU findutils 4.9 man page).
_FIND_PLAIN = frozenset(
    {
        "-depth",
        "-d",
        "-daystart",
        "-follow",
        "-help",
        "--help",
        "-ignore_readdir_race",
        "-mount",
        "-noignore_readdir_race",
        "-noleaf",
        "-nowarn",
        "-version",
        "--version",
        "-warn",
        "-xdev",
        "-empty",
        "-executable",
        "-false",
        "-nogroup",
        "-nouser",
        "-readable",
        "-true",
        "-writable",
        "-ls",
        "-print",
        "-print0",
        "-prune",
        "-quit",
        "-not",
        "-a",
        "-and",
        "-o",
        "-or",
        "(",
        ")",
        "!",
        ",",
    }
)
_NEWER_XY = re.compile(r"^-newer[aBcm][aBcmt]$")


def find(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    ctx.paths.clear()
    args = ctx.words[1:]
    i = 0
    while i < len(args) and args[i].value in ("-H", "-L", "-P"):
        i += 1
    starts: list[Word] = []
    while i < len(args) and not (args[i].value or "x").startswith(("-", "(", "!")):
        starts.append(args[i])
        i += 1
    for w in starts or [Word(".", ".", ".")]:
        ctx.path(w, Access.READ, "find start")
    ctx.paths[:] = [read_below(p) for p in ctx.paths]  # find walks the tree
    deletes = False
    while i < len(args):
        tok = args[i].value
        at = i + 1  # index in argv
        if tok is None:
            ctx.raise_at(at, E.UNKNOWN, note=f"find expression word {args[i].text!r} only known at run time")
            i += 1
            continue
        if tok in _FIND_EXEC:
            j = i + 1
            while j < len(args) and args[j].value not in (";", "+"):
                j += 1
            inner, found = _exec_words(tok, args[i + 1 : j], starts or [Word(".", ".", ".")])
            if found:  # `{}` is each file found: the inner command decides, paths recursive
                ctx.note(f"find {tok} runs a command on each file found below the start paths")
            else:
                ctx.raise_at(at, E.CODE, note=f"find {tok} runs a command")
            if inner:
                ctx.inner.extend(_each_found(ctx.run_words(ctx, inner, f"find {tok}"), found))
            if j >= len(args):
                ctx.errors.append(f"find {tok} without a terminating ';' or '+'")
            i = j + 1
            continue
        if tok == "-delete":
            deletes = True
            ctx.raise_at(at, E.DELETE, note="find -delete removes what matches")
            for w in starts or [Word(".", ".", ".")]:
                ctx.path(w, Access.DELETE, "find -delete")
        elif tok in _FIND_WRITES and i + 1 < len(args):
            ctx.raise_at(at, E.WRITE, note=f"find {tok} writes a file")
            ctx.path(args[i + 1], Access.WRITE, f"find {tok}")
            i += 1
        elif tok == "-files0-from" and i + 1 < len(args):
            ctx.raise_at(at, E.UNKNOWN, note="find -files0-from: start points from a file")
            ctx.path(args[i + 1], Access.READ, "find -files0-from")
            i += 1
        elif tok in _FIND_VALUE or _NEWER_XY.match(tok):
            i += 1
        elif tok.startswith("-") and tok not in _FIND_PLAIN:
            ctx.raise_at(at, E.UNKNOWN, note=f"find: primary {tok!r} is not in its table (unknown)")
        i += 1
    if deletes:
        for w in starts:
            why = P.word_root(w)
            if why:
                ctx.catastrophic = f"find -delete of {why}"
    if ctx.reader and ctx.effects <= {E.READ}:
        ctx.reader = True


_FOUND = "{}"


def _exec_words(tok: str, words: list[Word], starts: list[Word]) -> tuple[list[Word], list[str]]:
    """The command of `find -exec`/`-ok`: a `{}` word is each file found below the start
    paths, so it stands for them (expanded by ``_each_found``, recursively). With `-execdir`,
    a glob or run-time start, or `{}` inside a word, it is a run-time value."""
    found = [w.value for w in starts if w.value is not None and not w.glob]
    known = tok in ("-exec", "-ok") and len(found) == len(starts)
    out: list[Word] = []
    for w in words:
        if w.value == _FOUND and known:
            out.append(Word(_FOUND, found[0], found[0]))
        elif _FOUND in (w.value or ""):
            out.append(Word(w.text, None, "\x00"))
        else:
            out.append(w)
    return out, (found if known and any(w.value == _FOUND for w in words) else [])


def _each_found(cmds: list[SimpleCommand], starts: list[str]) -> list[SimpleCommand]:
    """Turn the `{}` stand-in into one recursive path use per start: what find finds is
    everything below it (the policy checks all of it, links included). In the argv it stays
    a word only known at run time: ``git -C {} status`` acts on each folder found, whose
    repository config is not the start's."""
    if not starts:
        return cmds
    out: list[SimpleCommand] = []
    for cmd in cmds:
        found_at = tuple(i for i, word in enumerate(cmd.argv) if i and word in starts)
        if found_at:
            cmd = replace(cmd, dynamic_words=tuple(sorted({*cmd.dynamic_words, *found_at})))
        paths: list[PathUse] = []
        for use in cmd.paths:
            if use.raw != _FOUND:
                paths.append(use)
                continue
            paths.extend(
                replace(use, path=s, raw=s, recursive=True, why=f"{use.why} (each file find finds below {s})")
                for s in starts
            )
        out.append(replace(cmd, paths=tuple(paths)))
    return out


HANDLERS = {"find": find}
