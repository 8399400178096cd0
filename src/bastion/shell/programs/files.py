"""File writers, deleters and archivers."""

from __future__ import annotations

from bastion.call.effects import Effect
from bastion.shell.model import Access
from bastion.shell.programs.spec import DELETE, WRITE, FlagRule, Spec, fs

E = Effect
_RM_ALIASES = {"-R": "-r", "--recursive": "-r", "--force": "-f", "--dir": "-d",
               "--verbose": "-v", "--interactive": "-i"}  # fmt: skip
_CP_VALUES = fs("-t", "--target-directory", "-S", "--suffix")
_WRITE_T = {"-t": FlagRule(WRITE, value=Access.WRITE, note="-t names the destination")}
#: Options under which cp/mv write more than a copy at the destination each path names: a
#: backup under a name the suffix chooses, a link, the source's own path below the folder.
_BACKUP = {
    "-b": FlagRule(WRITE, note="-b also keeps a backup under another name"),
    "--backup": FlagRule(WRITE, note="--backup also keeps a backup under another name"),
    "-S": FlagRule(WRITE, note="-S names the backup's suffix"),
}
_CP_MORE = {
    **_BACKUP,
    "-l": FlagRule(WRITE, note="-l makes hard links, not copies"),
    "-s": FlagRule(WRITE, note="-s makes symbolic links, not copies"),
    "--parents": FlagRule(WRITE, note="--parents writes each source's path below the folder"),
    # -r / -a copy every file below each source: each is read (a credential below one too)
    "-r": FlagRule(recursive=True),
    "-a": FlagRule(recursive=True),
}

#: Editors whose command line takes ex commands (``-c``, ``+cmd``): read by ``editor``.
_VI_FAMILY = frozenset({"vi", "vim", "nvim", "view", "vimdiff", "ex"})

PROGRAMS: dict[str, Spec] = {
    "rm": Spec(DELETE, args=Access.DELETE, aliases=_RM_ALIASES, handler="rm"),
    "rmdir": Spec(DELETE, args=Access.DELETE, aliases={"--parents": "-p"}, handler="rm"),
    "unlink": Spec(DELETE, args=Access.DELETE, handler="rm"),
    "shred": Spec(
        frozenset({E.DELETE, E.DESTRUCTIVE}),
        args=Access.DELETE,
        takes_value=fs("-n", "-s", "--iterations", "--size", "--random-source"),
        aliases={"--remove": "-u", "--force": "-f"},
        handler="rm",
    ),
    "cp": Spec(
        WRITE,
        args=Access.READ,
        dest_last=True,
        takes_value=_CP_VALUES,
        aliases={
            "--target-directory": "-t",
            "-R": "-r",
            "--recursive": "-r",
            "--force": "-f",
            "--archive": "-a",
        },
        flags={**_WRITE_T, **_CP_MORE},
        writer=True,
    ),
    "mv": Spec(
        frozenset({E.WRITE, E.DELETE}),
        args=Access.DELETE,
        dest_last=True,
        takes_value=_CP_VALUES,
        aliases={"--target-directory": "-t", "--force": "-f"},
        flags={**_WRITE_T, **_BACKUP},
        handler="mv",
        writer=True,
    ),
    "ln": Spec(
        WRITE,
        args=Access.READ,  # a new name for a file gives its content to whoever reads the name
        dest_last=True,
        takes_value=_CP_VALUES,
        aliases={"--target-directory": "-t", "--symbolic": "-s", "--force": "-f", "--relative": "-r"},
        flags=_WRITE_T,
        handler="ln",
    ),
    "install": Spec(
        WRITE,
        args=Access.READ,
        dest_last=True,
        takes_value=fs("-m", "-o", "-g", "-t", "--mode", "--owner", "--group", "--target-directory"),
        aliases={"--target-directory": "-t", "--directory": "-d"},
        flags={**_WRITE_T, "-d": FlagRule(args=Access.WRITE)},
    ),
    "mkdir": Spec(WRITE, args=Access.WRITE, takes_value=fs("-m", "--mode"), writer=True),
    "touch": Spec(
        WRITE, args=Access.WRITE, takes_value=fs("-d", "-t", "-r", "--date", "--reference"), writer=True
    ),
    "tee": Spec(WRITE, args=Access.WRITE),
    "truncate": Spec(WRITE, args=Access.WRITE, takes_value=fs("-s", "-r", "--size", "--reference")),
    "chmod": Spec(
        WRITE,
        args=Access.WRITE,
        lead=1,
        takes_value=fs("--reference"),
        aliases={"--recursive": "-R"},
        handler="chmod",
    ),
    "chown": Spec(
        WRITE,
        args=Access.WRITE,
        lead=1,
        takes_value=fs("--reference", "--from"),
        aliases={"--recursive": "-R"},
        handler="chmod",
    ),
    "chgrp": Spec(
        WRITE,
        args=Access.WRITE,
        lead=1,
        takes_value=fs("--reference"),
        aliases={"--recursive": "-R"},
        handler="chmod",
    ),
    "chattr": Spec(frozenset({E.WRITE, E.SYSTEM}), args=Access.WRITE, lead=1),
    "setfacl": Spec(WRITE, args=Access.WRITE, takes_value=fs("-m", "-x", "-M", "-X")),
    "dos2unix": Spec(WRITE, args=Access.WRITE),
    "unix2dos": Spec(WRITE, args=Access.WRITE),
    "patch": Spec(
        WRITE,
        takes_value=fs("-i", "-p", "-d", "-o", "--input", "--directory"),
        flags={
            "-i": FlagRule(value=Access.READ),
            "-o": FlagRule(value=Access.WRITE),
            "-d": FlagRule(value=Access.WRITE),
        },
        aliases={"--input": "-i", "--directory": "-d", "--output": "-o"},
        note="patch writes the files named inside the patch",
    ),
    "split": Spec(WRITE, args=Access.READ, takes_value=fs("-b", "-l", "-n", "-a")),
    "mktemp": Spec(WRITE, takes_value=fs("-p", "--tmpdir", "--suffix")),
    "mkfifo": Spec(WRITE, args=Access.WRITE, takes_value=fs("-m")),
    "gzip": Spec(
        frozenset({E.WRITE, E.DELETE}), args=Access.WRITE, takes_value=fs("-S"), handler="compressor"
    ),
    "gunzip": Spec(
        frozenset({E.WRITE, E.DELETE}), args=Access.WRITE, takes_value=fs("-S"), handler="compressor"
    ),
    "bzip2": Spec(frozenset({E.WRITE, E.DELETE}), args=Access.WRITE, handler="compressor"),
    "bunzip2": Spec(frozenset({E.WRITE, E.DELETE}), args=Access.WRITE, handler="compressor"),
    "xz": Spec(frozenset({E.WRITE, E.DELETE}), args=Access.WRITE, handler="compressor"),
    "unxz": Spec(frozenset({E.WRITE, E.DELETE}), args=Access.WRITE, handler="compressor"),
    "zstd": Spec(WRITE, args=Access.WRITE, takes_value=fs("-o")),
    "zip": Spec(WRITE, args=Access.READ, takes_value=fs("-x", "-i", "-P"), handler="zip"),
    "unzip": Spec(
        WRITE,
        args=Access.READ,
        takes_value=fs("-d", "-x", "-P"),
        flags={"-d": FlagRule(value=Access.WRITE, note="unzip -d extracts there")},
        note="unzip extracts into the current directory unless -d",
    ),
    "7z": Spec(WRITE, args=Access.WRITE),
    "tar": Spec(WRITE, handler="tar"),
    "dd": Spec(WRITE, handler="dd"),
    # Editors open the files they are given: read (a batch run prints them: vim -es -c '%p'),
    # written, and their scripts, modelines and plugins run. Options are not modelled (any is
    # unknown); those that take a value are known, so the value is no file.
    **{
        editor: Spec(
            frozenset({E.READ, E.WRITE, E.CODE}),
            args=Access.READ,
            takes_value=fs("-c", "--cmd", "-S", "-u", "-U", "-T", "-i", "-w", "-W", "-t", "-q", "--eval"),
            plus_unknown=True,
            handler="editor" if editor in _VI_FAMILY else None,
        )
        for editor in (
            "vi",
            "vim",
            "nvim",
            "view",
            "vimdiff",
            "ex",
            "nano",
            "emacs",
            "ed",
            "micro",
            "kak",
            "hx",
        )
    },
}
