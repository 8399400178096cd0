"""The recursive readers, by their command lines: which programs read everything below the
paths they name (``grep -r``, ``rg``, ``find -exec``, ``tar c``, ``zip -r``), whether they
follow symlinks, read dot files or contents, and where an archive they make goes (``tar -cf -``:
printed). ``shell_reach`` walks what they reach.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bastion.shell.model import SimpleCommand


class Follow(Enum):
    NONE = "none"
    COMMAND_LINE = "command-line"  # grep -r: only symlinks named as arguments
    ALL = "all"  # grep -R, find -L, rg -L


@dataclass(frozen=True, slots=True)
class Recursion:
    follow: Follow
    hidden: bool = True  # reads dot files (rg skips them unless --hidden)
    content: bool = True  # reads file contents (find without -exec only lists names)
    default_start: bool = True  # with no path argument it reads the cwd
    split: bool = False  # the names reach it split at blanks and quotes (xargs): "x /etc/passwd"


GREP = frozenset({"grep", "egrep", "fgrep", "zgrep"})
_RECURSIVE = GREP | {"rg", "find", "ag", "ack", "ack-grep", "zip", "tar", "bsdtar"}
_GREP_VALUED = frozenset("efmABCdD")
_TAR_VALUED = frozenset("fCTXbgHKLNV")
_FIND_CONTENT = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def _short_flags(argv: tuple[str, ...], valued: frozenset[str]) -> set[str]:
    """Letters of short option clusters up to ``--`` (stopping at one that takes a value)."""
    letters: set[str] = set()
    skip = False
    for word in argv[1:]:
        if skip:  # the value of the option before (grep -e -r: "-r" is the pattern)
            skip = False
            continue
        if word == "--":
            break
        if word.startswith("-") and not word.startswith("--") and len(word) > 1:
            for index, ch in enumerate(word[1:], start=1):
                letters.add(ch)
                if ch in valued:
                    skip = index == len(word) - 1
                    break
    return letters


def recursion_of(cmd: SimpleCommand) -> Recursion | None:
    """The table of recursive readers (until every program declares ``PathUse.recursive``)."""
    program, argv = cmd.program, cmd.argv
    if program not in _RECURSIVE:
        return None
    longs = {w.partition("=")[0] for w in argv[1:] if w.startswith("--")}
    if program in GREP:
        short = _short_flags(argv, _GREP_VALUED)
        if "R" in short or "--dereference-recursive" in longs:
            return Recursion(Follow.ALL)
        if "r" in short or "--recursive" in longs:
            return Recursion(Follow.COMMAND_LINE)
        return None
    if program == "rg":
        short = _short_flags(argv, frozenset("efgmACBEjMtTr"))
        unrestricted = sum(w.count("u") for w in argv[1:] if w.startswith("-") and not w.startswith("--"))
        hidden = "." in short or "--hidden" in longs or unrestricted >= 2
        follow = Follow.ALL if "L" in short or "--follow" in longs else Follow.NONE
        return Recursion(follow, hidden=hidden)
    if program == "find":
        head = [w for w in argv[1:4] if w in ("-L", "-H", "-P")]
        follow = Follow.ALL if "-L" in head or "-follow" in argv else Follow.NONE
        if "-H" in head and follow is Follow.NONE:
            follow = Follow.COMMAND_LINE
        return Recursion(follow, content=any(w in _FIND_CONTENT for w in argv))
    if program in ("ag", "ack", "ack-grep"):
        follow = Follow.ALL if {"--follow", "-f"} & set(argv) else Follow.NONE
        hidden = program != "ag" or bool({"--hidden", "-u", "--unrestricted"} & set(argv))
        return Recursion(follow, hidden=hidden)
    if program == "zip" and ("r" in _short_flags(argv, frozenset("bntxiFOPZ")) or "--recurse-paths" in longs):
        # zip stores what a symlink points to unless told -y
        follow = (
            Follow.NONE if "y" in _short_flags(argv, frozenset()) or "--symlinks" in longs else Follow.ALL
        )
        return Recursion(follow, default_start=False)
    if program in ("tar", "bsdtar") and _tar_creates(argv):
        bundled = argv[1] if not argv[1].startswith("-") else ""  # tar chf x.tar dir
        short = _short_flags(argv, _TAR_VALUED) | set(bundled)
        follow = Follow.ALL if "h" in short or "--dereference" in longs else Follow.NONE
        return Recursion(follow, default_start=False)
    return None


def _tar_creates(argv: tuple[str, ...]) -> bool:
    if len(argv) < 2:
        return False
    first = argv[1]
    if not first.startswith("-") and "c" in first:
        return True  # tar czf x.tgz dir
    return "--create" in argv or "c" in _short_flags(argv, _TAR_VALUED)


def archive_to_stdout(cmd: SimpleCommand) -> bool:
    """``tar -cf - certs``: the archive (every byte of every file in it) goes to the standard
    output, where a reader prints it (suite G: ``tar -cf - certs | tar -xOf -``)."""
    if cmd.program not in ("tar", "bsdtar") or not _tar_creates(cmd.argv):
        return False
    argv = cmd.argv
    named = [argv[i + 1] for i, w in enumerate(argv[:-1]) if w in ("-f", "--file")]
    named += [w.partition("=")[2] for w in argv if w.startswith("--file=")]
    bundled = argv[1] if len(argv) > 2 and not argv[1].startswith("-") and "f" in argv[1] else ""
    if bundled:  # tar cf ARCHIVE …: the archive is the next word
        named.append(argv[2])
    clustered = [
        argv[i + 1]
        for i, w in enumerate(argv[:-1])
        if w.startswith("-") and not w.startswith("--") and w.endswith("f")
    ]
    return "-" in (named + clustered)
