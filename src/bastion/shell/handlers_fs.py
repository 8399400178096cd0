"""Handlers for file programs whose meaning tables cannot express: rm, mv, chmod, tar, dd,
mkfs, find, sed/awk scripts, and ``uniq in out``."""

from __future__ import annotations

import re
from dataclasses import replace

from bastion.call.effects import Effect
from bastion.shell import paths as P
from bastion.shell import sedscript
from bastion.shell.ctx import Ctx
from bastion.shell.flags import Parsed, parse_args
from bastion.shell.model import Access, PathUse, SimpleCommand
from bastion.shell.programs.spec import Spec
from bastion.shell.words import Word, literal_word

E = Effect


def _targets(spec: Spec, parsed: Parsed, positionals: list[Word]) -> list[Word]:
    return positionals[spec.lead :] if spec.lead else positionals


def _root_reason(word: Word) -> str | None:
    if word.value is not None:
        return P.root_like(word.value)
    return P.empty_variable_root(word)


def rm(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    recursive = parsed.has("-r") or ctx.program == "rmdir"
    forced = parsed.has("-f")
    for word in positionals:
        why = _root_reason(word)
        if why and (recursive or forced or ctx.program == "shred"):
            ctx.catastrophic = f"{ctx.program} of {why}"
            ctx.add(E.DESTRUCTIVE, note=f"deletes {why}")
        elif recursive and word.value is not None and P.workspace_like(word.value):
            ctx.add(E.DESTRUCTIVE, note=f"recursive delete of {word.text!r} (cwd or parent)")
        elif recursive and word.value is not None and word.value.startswith("~"):
            ctx.add(E.DESTRUCTIVE, note=f"recursive delete under the home directory: {word.text}")
    if recursive and forced:
        ctx.note("recursive forced delete")
    if ctx.program == "shred" and any(
        w.value and P.is_block_device(P.normalise(w.value)) for w in positionals
    ):
        ctx.catastrophic = "shred of a block device"


def mv(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    sources = positionals if parsed.has("-t") else positionals[:-1]
    for word in sources:
        why = _root_reason(word)
        if why:
            ctx.catastrophic = f"mv of {why}"
            ctx.add(E.DESTRUCTIVE, note=f"moves away {why}")


def chmod(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    if not parsed.has("-r", "-R"):
        return
    for word in _targets(spec, parsed, positionals):
        why = _root_reason(word)
        if why:
            ctx.catastrophic = f"recursive {ctx.program} of {why}"
            ctx.add(E.DESTRUCTIVE, E.SYSTEM, note=f"recursive {ctx.program} of {why}")


_TAR_VALUES = frozenset({"-f", "-C", "--file", "--directory", "-T", "--files-from", "-X",
                         "--exclude-from", "--to-command", "--use-compress-program", "-I",
                         "--checkpoint-action", "-H", "--format", "--exclude", "-b", "-N",
                         "--transform", "--xform", "--owner", "--group", "--mode", "-V"})
_TAR_ALIASES = {"--file": "-f", "--directory": "-C", "--extract": "-x", "--get": "-x",
                "--create": "-c", "--list": "-t", "--append": "-r", "--update": "-u",
                "--files-from": "-T", "--use-compress-program": "-I", "--delete": "--delete"}


def tar(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    args = list(ctx.words[1:])
    mode = args[0].value if args else None
    if mode and not mode.startswith("-"):  # `tar xzf a.tgz`: old-style bundled mode letters
        args = [Word("-" + args[0].text, "-" + mode, "-" + mode), *args[1:]]
    parsed, _ = parse_args(args, frozenset(_TAR_VALUES), _TAR_ALIASES)
    ctx.paths.clear()
    ctx.effects.discard(E.WRITE)
    archive = parsed.values("-f")
    into = parsed.values("-C")
    if parsed.has("--to-command", "-I", "--checkpoint-action") or any(
        f.name == "--use-compress-program" for f in parsed.flags
    ):
        ctx.add(E.CODE, note="tar runs a program (--to-command / -I / --checkpoint-action)")
    for w in parsed.values("-T", "-X"):
        ctx.path(w, Access.READ, "tar file list")
    if parsed.has("-t"):
        ctx.add(E.READ)
        ctx.reader = True
        for w in archive:
            ctx.path(w, Access.READ, "archive listed")
    elif parsed.has("-x"):
        ctx.add(E.WRITE, note="tar -x extracts files")
        for w in archive:
            ctx.path(w, Access.READ, "archive extracted")
        if into:
            for w in into:
                ctx.path(w, Access.WRITE, "tar -C extraction directory")
        else:
            ctx.paths.append(PathUse(".", Access.WRITE, ".", "tar extracts into the cwd"))
        for w in parsed.positionals:
            ctx.path(w, Access.WRITE, "member extracted")
    elif parsed.has("-c", "-r", "-u", "-A", "--delete"):
        ctx.add(E.WRITE, note="tar writes an archive")
        for w in archive:
            ctx.path(w, Access.WRITE, "archive written")
        first = len(ctx.paths)
        for w in parsed.positionals:
            ctx.path(w, Access.READ, "archived")
        ctx.paths[first:] = [replace(p, recursive=True) for p in ctx.paths[first:]]
    else:
        ctx.add(E.UNKNOWN, note="tar mode not recognised")
    if any(f.value is not None and f.value.value == "-" for f in parsed.flags):
        ctx.paths[:] = [p for p in ctx.paths if p.path != "-"]


def dd(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    for word in positionals:
        key, eq, val = (word.value or "").partition("=")
        if not eq:
            continue
        target = Word(val, val, val) if word.value is not None else Word(word.text, None, "\x00")
        if key == "if":
            ctx.path(target, Access.READ, "dd if=")
        elif key == "of":
            ctx.path(target, Access.WRITE, "dd of=")
            if word.value is not None and P.is_block_device(P.normalise(val)):
                ctx.catastrophic = f"dd to block device {val}"


def disk(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    ctx.catastrophic = f"{ctx.program} destroys a filesystem"
    for word in positionals:
        ctx.path(word, Access.WRITE, f"device for {ctx.program}")


_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_FIND_WRITES = frozenset({"-fprint", "-fprint0", "-fprintf", "-fls"})
_FIND_VALUE = frozenset({"-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-type",
                         "-newer", "-user", "-group", "-perm", "-size", "-mtime", "-mmin",
                         "-atime", "-amin", "-ctime", "-cmin", "-maxdepth", "-mindepth",
                         "-printf", "-wholename", "-iwholename", "-lname", "-ilname", "-inum",
                         "-links", "-uid", "-gid", "-samefile", "-used", "-fstype",
                         "-regextype", "-context", "-anewer", "-cnewer", "-D", "-O",
                         "-xtype"})
#: Primaries without a value (GNU findutils 4.9 man page).
_FIND_PLAIN = frozenset({
    "-depth", "-d", "-daystart", "-follow", "-help", "--help", "-ignore_readdir_race",
    "-mount", "-noignore_readdir_race", "-noleaf", "-nowarn", "-version", "--version",
    "-warn", "-xdev", "-empty", "-executable", "-false", "-nogroup", "-nouser", "-readable",
    "-true", "-writable", "-ls", "-print", "-print0", "-prune", "-quit", "-not", "-a", "-and",
    "-o", "-or", "(", ")", "!", ",",
})
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
    ctx.paths[:] = [replace(p, recursive=True) for p in ctx.paths]  # find walks the tree
    deletes = False
    while i < len(args):
        tok = args[i].value
        at = i + 1  # index in argv
        if tok is None:
            ctx.raise_at(at, E.UNKNOWN, note=f"find expression word {args[i].text!r} only "
                                             "known at run time")
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
            ctx.raise_at(at, E.UNKNOWN, note=f"find: primary {tok!r} is not in its table "
                                             "(unknown)")
        i += 1
    if deletes:
        for w in starts:
            why = _root_reason(w)
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
    everything below it (the policy checks all of it, links included)."""
    if not starts:
        return cmds
    out: list[SimpleCommand] = []
    for cmd in cmds:
        paths: list[PathUse] = []
        for use in cmd.paths:
            if use.raw != _FOUND:
                paths.append(use)
                continue
            paths.extend(replace(use, path=s, raw=s, recursive=True,
                                 why=f"{use.why} (each file find finds below {s})")
                         for s in starts)
        out.append(replace(cmd, paths=tuple(paths)))
    return out


def sed(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    scripts = [(f.value, f.index + (1 if f.inline else 2)) for f in parsed.flags
               if f.name == "-e" and f.value is not None]
    if not scripts and positionals:
        scripts = [(positionals[0], ctx.index_of(positionals[0]))]
    for file_word in parsed.values("-f"):
        ctx.path(file_word, Access.READ, "sed script file")
        ctx.raise_at(ctx.index_of(file_word), E.UNKNOWN, note="sed script from a file")
    for word, at in scripts:
        text = word.value
        commands = sedscript.parse(text) if text is not None else None
        if commands is None:
            why = "only known at run time" if text is None else "not understood"
            ctx.raise_at(at, E.UNKNOWN, note=f"sed script {why}: {word.text[:60]!r}")
            continue
        for cmd in commands:
            _sed_effect(ctx, cmd, at)


def _sed_effect(ctx: Ctx, cmd: sedscript.Command, at: int) -> None:
    if cmd.letter == "e":
        ctx.raise_at(at, E.CODE, note="sed e runs a shell command")
    elif cmd.letter in "wW":
        if cmd.arg in ("/dev/stdout", "/dev/stderr"):
            return
        if not cmd.arg:
            ctx.raise_at(at, E.UNKNOWN, note=f"sed {cmd.letter} without a file name")
            return
        ctx.raise_at(at, E.WRITE, note=f"sed {cmd.letter} writes {cmd.arg!r}")
        ctx.path(literal_word(cmd.arg), Access.WRITE, f"sed {cmd.letter} command")
    elif cmd.letter in "rR" and cmd.arg:  # `r` without a file name reads nothing
        ctx.path(literal_word(cmd.arg), Access.READ, f"sed {cmd.letter} command")
        ctx.note(f"sed {cmd.letter} reads {cmd.arg!r}")


_AWK_RISK = re.compile(r"system\s*\(|\|\s*getline|\bgetline\b|print[f]?\b[^;}]*[|>]|"
                       r"close\s*\(|fflush\s*\(|ENVIRON|@include|@load")


def awk(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    if parsed.has("-f"):
        at = next(f.index + 1 for f in parsed.flags if f.name == "-f")
        ctx.raise_at(at, E.CODE, note="awk program from a file")
        return
    programs = parsed.values("-e") or positionals[:1]
    for word in programs:
        program = word.value
        at = ctx.index_of(word)
        if program is None:
            ctx.raise_at(at, E.UNKNOWN, note="awk program only known at run time")
        elif _AWK_RISK.search(program):
            ctx.raise_at(at, E.CODE, note="awk program runs commands or writes files")


def second_is_output(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """`uniq in out` and `xxd in out` write their second positional."""
    if len(positionals) >= 2:
        ctx.paths[:] = [p for p in ctx.paths if p.raw != positionals[1].text]
        ctx.path(positionals[1], Access.WRITE, f"output of {ctx.program}")
        ctx.add(E.WRITE)


def positional_system(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """`hostname NAME`, `mount DEV DIR`, `ifconfig eth0 up`: any argument changes the system."""
    if positionals or (parsed.flags and ctx.program == "mount"):
        ctx.add(E.SYSTEM, note=f"{ctx.program} with arguments changes the system")
    else:
        ctx.reader = True
        ctx.effects.discard(E.SYSTEM)
        ctx.effects.add(E.READ)


#: Partition / encryption tools: the forms that only print (anything else rewrites a disk).
_PARTITION_READS: dict[str, frozenset[str]] = {
    "fdisk": frozenset({"-l", "--list", "-V", "--version", "-h", "--help"}),
    "sfdisk": frozenset({"-l", "--list", "-d", "--dump", "-J", "--json", "-s", "--show-size",
                         "-g", "--show-geometry", "-V", "--verify", "-F", "--list-free",
                         "--version", "-h", "--help"}),
    "gdisk": frozenset({"-l", "--version"}),
    "sgdisk": frozenset({"-p", "--print", "-i", "--info", "-v", "--verify", "-O",
                         "--print-mbr", "-L", "--list-types", "-V", "--version", "-?", "--help"}),
    "parted": frozenset({"-l", "--list", "print", "-v", "--version", "-h", "--help", "-s",
                         "--script", "-m", "--machine"}),
    "cfdisk": frozenset({"-V", "--version", "-h", "--help"}),
    "cryptsetup": frozenset({"status", "isLuks", "luksDump", "luksUUID", "tcryptDump",
                             "benchmark", "--version", "-V", "--help", "-h", "-v", "--verbose",
                             "--debug"}),
}
#: cryptsetup verbs that destroy what a device holds.
_CRYPT_WIPE = frozenset({"luksFormat", "erase", "luksErase", "luksKillSlot", "luksRemoveKey",
                         "reencrypt", "repair", "convert"})


def partition(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """fdisk, sfdisk, parted, sgdisk, cryptsetup…: a print/list form only reads; any other
    form acting on a device (or on one only known at run time) is catastrophic."""
    reads = _PARTITION_READS.get(ctx.program, frozenset())
    words = [w.value for w in ctx.words[1:]]
    options = [v.partition("=")[0] if v else v for v in words]
    devices = [w for w in ctx.words[1:] if w.value is None or P.normalise(w.value).startswith(
        "/dev/")]
    listing = bool(options) and all(
        o in reads or (o is not None and o.startswith("/dev/")) for o in options
    ) and any(o in reads and o not in ("-s", "--script", "-m", "--machine") for o in options)
    if ctx.program == "cryptsetup":
        verb = next((v for v in words if v is None or not v.startswith("-")), "")
        if verb in reads:
            listing = True
        elif verb is None or verb in _CRYPT_WIPE:
            ctx.catastrophic = f"cryptsetup {verb or '(run-time verb)'} destroys a device's data"
            return
        else:
            listing = False
            devices = []  # open/close/resize: system control, asked
    if listing:  # still system control: it reads raw devices (asked, not catastrophic)
        ctx.effects.discard(E.DESTRUCTIVE)
        ctx.add(E.SYSTEM, note=f"{ctx.program} prints partition / device information")
        return
    for w in devices:
        ctx.catastrophic = f"{ctx.program} rewrites the partition table of {w.text}"
    if not devices and ctx.program in ("cfdisk", "gdisk", "fdisk", "parted"):
        ctx.catastrophic = f"{ctx.program} edits a partition table"


HANDLERS = {
    "partition": partition,
    "rm": rm, "mv": mv, "chmod": chmod, "tar": tar, "dd": dd, "disk": disk, "find": find,
    "sed": sed, "awk": awk, "uniq": second_is_output, "positional_system": positional_system,
}
