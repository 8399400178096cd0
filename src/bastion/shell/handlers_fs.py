"""Handlers for file programs whose meaning tables cannot express: rm, mv, chmod, tar and
``uniq in out``; the device, find and script handlers live beside them (``HANDLERS`` joins all)."""

from __future__ import annotations

import posixpath

from bastion.call.effects import Effect
from bastion.shell import paths as P
from bastion.shell.ctx import Ctx
from bastion.shell.flags import Parsed, parse_args
from bastion.shell.handlers_devices import HANDLERS as DEVICE_HANDLERS
from bastion.shell.handlers_find import HANDLERS as FIND_HANDLERS
from bastion.shell.handlers_scripts import HANDLERS as SCRIPT_HANDLERS
from bastion.shell.model import Access, PathUse, read_below, replace_path_use
from bastion.shell.programs.spec import Spec
from bastion.shell.words import Word

E = Effect


def _targets(spec: Spec, parsed: Parsed, positionals: list[Word]) -> list[Word]:
    return positionals[spec.lead :] if spec.lead else positionals


def rm(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    recursive = parsed.has("-r") or ctx.program == "rmdir"
    forced = parsed.has("-f")
    for word in positionals:
        why = P.word_root(word)
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
        why = P.word_root(word)
        if why:
            ctx.catastrophic = f"mv of {why}"
            ctx.add(E.DESTRUCTIVE, note=f"moves away {why}")


def chmod(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    if not parsed.has("-r", "-R"):
        return
    for word in _targets(spec, parsed, positionals):
        why = P.word_root(word)
        if why:
            ctx.catastrophic = f"recursive {ctx.program} of {why}"
            ctx.add(E.DESTRUCTIVE, E.SYSTEM, note=f"recursive {ctx.program} of {why}")


_TAR_VALUES = frozenset(
    {
        "-f",
        "-C",
        "--file",
        "--directory",
        "-T",
        "--files-from",
        "-X",
        "--exclude-from",
        "--to-command",
        "--use-compress-program",
        "-I",
        "--checkpoint-action",
        "-H",
        "--format",
        "--exclude",
        "-b",
        "-N",
        "--transform",
        "--xform",
        "--owner",
        "--group",
        "--mode",
        "-V",
        "--rsh-command",
        "--rmt-command",
        "-F",
        "--info-script",
        "--new-volume-script",
    }
)
_TAR_ALIASES = {
    "--file": "-f",
    "--directory": "-C",
    "--extract": "-x",
    "--get": "-x",
    "--create": "-c",
    "--list": "-t",
    "--append": "-r",
    "--update": "-u",
    "--files-from": "-T",
    "--use-compress-program": "-I",
    "--delete": "--delete",
}


#: tar options that run another program (GNU tar 1.35 `tar --help`).
_TAR_RUNS = (
    "--to-command",
    "-I",
    "--checkpoint-action",
    "--rsh-command",
    "--rmt-command",
    "-F",
    "--info-script",
    "--new-volume-script",
)


def _remote_archive(name: str | None) -> str | None:
    """The host of GNU tar's remote archive ``[USER@]HOST:FILE`` (a colon before any slash)."""
    if not name or ":" not in name:
        return None
    head = name.split(":", 1)[0]
    if not head or "/" in head:
        return None
    return head.rsplit("@", 1)[-1] or None


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
    if parsed.has(*_TAR_RUNS) or any(f.name == "--use-compress-program" for f in parsed.flags):
        ctx.add(E.CODE, note="tar runs a program (--to-command / -I / --checkpoint-action / --rsh-command…)")
    for action in parsed.values("--checkpoint-action"):  # exec=CMD runs CMD through the shell
        if action.value is not None and action.value.startswith("exec="):
            ctx.inner.extend(ctx.run_source(ctx, action.value[5:], "tar --checkpoint-action=exec"))
    for command in parsed.values("--to-command"):
        if command.value is not None:
            ctx.inner.extend(ctx.run_source(ctx, command.value, "tar --to-command"))
    if not parsed.has("--force-local"):
        for w in archive:
            host = _remote_archive(w.value)
            if host:  # tar -f HOST:FILE opens the archive through rsh/ssh and rmt on HOST
                ctx.add(E.NETWORK, E.CODE, note=f"tar archive {w.text} is on host {host} (rsh / rmt)")
                ctx.host(host)
    for w in parsed.values("-T", "-X"):
        ctx.path(w, Access.READ, "tar file list")
    for w in parsed.values("-T"):
        if w.value and w.value != "-":
            ctx.listed(w.value, "tar -T: the files it archives")
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
        ctx.paths[first:] = [read_below(p) for p in ctx.paths[first:]]
        if any(f.name == "--remove-files" for f in parsed.flags):
            ctx.add(E.DELETE, note="tar --remove-files deletes each file it archives")
            for w in parsed.positionals:
                ctx.path(w, Access.DELETE, "archived, then removed (tar --remove-files)")
    else:
        ctx.add(E.UNKNOWN, note="tar mode not recognised")
    if any(f.value is not None and f.value.value == "-" for f in parsed.flags):
        ctx.paths[:] = [p for p in ctx.paths if p.path != "-"]


def ln(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """`ln -s ../README.md docs/README.md`: a symbolic link's relative target is looked up from
    the link's folder, not the cwd (`-r` makes it so; a hard link names a file from the cwd).
    Whether the last word is a folder is only known on disk, so a two-word form reads both: the
    target beside the destination and inside it."""
    if not parsed.has("-s") or parsed.has("-r"):
        return
    if parsed.has("-t"):
        folders = [w.value for w in parsed.values("-t")]
        targets = positionals
    elif len(positionals) >= 2:
        dest = positionals[-1].value
        targets = positionals[:-1]
        one = dest is not None and len(targets) == 1  # then `dest` may be a folder or the link
        folders = [dest, posixpath.dirname(dest) or "."] if one and dest is not None else [dest]
    else:
        return
    for word in targets:
        value = word.value
        if value is None or value.startswith(("/", "~")):
            continue
        ctx.paths[:] = [p for p in ctx.paths if not (p.raw == word.text and p.access is Access.READ)]
        for folder in dict.fromkeys(folders):
            if folder is None:  # the link's folder is only known at run time: so is its target
                ctx.paths.append(
                    PathUse(None, Access.READ, word.text, "target of a link in a run-time folder")
                )
                continue
            joined = posixpath.join(folder, value)  # the policy resolves `..` (after expanding ~)
            ctx.path(Word(word.text, joined, joined), Access.READ, f"target of the link in {folder}")


def zip_names(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """``zip -@`` archives the files its standard input names: a list file (``< list``) is read
    for them, as ``tar -T``'s; from a pipe or a heredoc they are only known at run time.
    ``zip -m`` moves what it archives into the archive: each file is deleted."""
    options = [w.value or "" for w in ctx.words[1:] if (w.value or "").startswith("-")]
    if any(o == "--move" or (not o.startswith("--") and "m" in o[1:]) for o in options):
        ctx.add(E.DELETE, note="zip -m deletes each file it archives")
        for w in positionals[1:]:
            ctx.path(w, Access.DELETE, "archived, then removed (zip -m)")
    if not any(w.value in ("-@", "--names-stdin") for w in ctx.words[1:]):
        return
    listing = next(
        (
            r.target.value
            for r in ctx.raw.redirects
            if r.op == "<" and r.target is not None and r.target.value
        ),
        None,
    )
    if listing is not None:
        ctx.listed(listing, "zip -@: the files it archives")
    else:
        ctx.paths.append(PathUse(None, Access.READ, "-@", "zip -@: files its standard input names"))


def second_is_output(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """`uniq in out` and `xxd in out` write their second positional."""
    if len(positionals) >= 2:
        ctx.paths[:] = [p for p in ctx.paths if p.raw != positionals[1].text]
        ctx.path(positionals[1], Access.WRITE, f"output of {ctx.program}")
        ctx.add(E.WRITE)


#: A compressor's options with which it only reads its files: to standard output, a listing,
#: a test (gzip 1.12 / bzip2 1.0.8 / xz 5.4 ``--help``).
_TO_STDOUT = frozenset({"-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test"})


def compressor(ctx: Ctx, spec: Spec, parsed: Parsed, positionals: list[Word]) -> None:
    """``gzip -dc F``, ``bzip2 -dc F``, ``xz -l F``: a read of each file, printed or listed;
    otherwise each file is replaced by its (de)compressed form."""
    if not parsed.has(*_TO_STDOUT):
        return
    ctx.effects.difference_update({Effect.WRITE, Effect.DELETE})
    ctx.effects.add(Effect.READ)
    ctx.reader = True
    ctx.paths[:] = [replace_path_use(u, access=Access.READ, why=f"{ctx.program} reads") for u in ctx.paths]
    ctx.note(f"{ctx.program} writes to its standard output only: a read of its files")


HANDLERS = {
    "rm": rm,
    "compressor": compressor,
    "mv": mv,
    "ln": ln,
    "zip": zip_names,
    "chmod": chmod,
    "tar": tar,
    "uniq": second_is_output,
    **DEVICE_HANDLERS,
    **FIND_HANDLERS,
    **SCRIPT_HANDLERS,
}
