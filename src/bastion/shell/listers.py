"""What a lister prints: the files below one folder, one per line.

``git ls-files | xargs wc -l``, ``find src -name '*.py' | xargs grep -n TODO`` and ``wc -l
$(git ls-files)`` give the last command only paths of files below one folder (the working
directory, or find's start): what it runs then reads files below that folder, as a recursive
reader of it does, so the policy checks them as it checks ``grep -r`` (credential files, hard
links, symlinks leading out) instead of asking about arguments "only known at run time".

A lister is recognised only in forms whose every output line is such a path: ``git ls-files``
with listing options and plain pathspecs, ``git grep -l``, ``find START`` with tests but no
action that prints anything else or runs anything, ``rg --files``, ``git status --porcelain``
and ``git diff --name-only``. Between it and the command only line filters that keep whole
lines (``grep`` without ``-o``, ``sort``, ``uniq``, ``head``, ``tail``), or a word of each
(``awk '{print $2}'``, ``cut -c4-``), may stand. Anything else — an unknown option, a word only
known at run time, a second start — and the words are nothing known.
"""

from __future__ import annotations

import re

#: git ls-files options that list (paths relative to the working directory, one per line).
_LS_FILES = frozenset(
    {
        "-c",
        "--cached",
        "-m",
        "--modified",
        "-o",
        "--others",
        "-d",
        "--deleted",
        "--exclude-standard",
        "-z",
        "--",
    }
)
#: find's primaries that print something other than the path, or run or change something.
_FIND_OTHER_OUTPUT = frozenset(
    {
        "-printf",
        "-fprintf",
        "-fprint",
        "-fprint0",
        "-ls",
        "-fls",
        "-exec",
        "-execdir",
        "-ok",
        "-okdir",
        "-delete",
    }
)
#: git grep printing only the names of files (and what would make it print or run more).
_GREP_NAMES = frozenset({"-l", "--files-with-matches", "--name-only", "-L", "--files-without-match"})
_GREP_OTHER = ("-O", "--open-files-in-pager", "--full-name", "--recurse-submodules", "-c", "--count")
_RG_FILES = frozenset({"--files", "--hidden", "-.", "--no-ignore", "-u", "-uu", "--null", "-0"})
_GREP = frozenset({"grep", "egrep", "fgrep", "rg"})
#: grep options that change what a matching line prints, or read patterns or files.
_GREP_NOT_FILTERING = frozenset(
    {
        "-o",
        "--only-matching",
        "-r",
        "-R",
        "--recursive",
        "-f",
        "--file",
        "-c",
        "--count",
        "-l",
        "-L",
        "-n",
        "-b",
        "-H",
    }
)
_LINE_FILTERS = frozenset({"sort", "uniq", "head", "tail"})


def listed_folder(stages: list[list[str] | None]) -> str | None:
    """The folder below which every word a pipeline of ``stages`` (each a literal argv, or
    None) prints is a file, or None: a lister, then only filters up to its end. Also what
    ``cat $(git ls-files)`` gives cat."""
    fields = False  # a stage passed on words of lines, not whole lines
    for values in reversed(stages):
        if values is None:
            return None
        folder = _lister(values)
        if folder is not None:
            # a word of a relative name below "." is below "." too; of "/etc/a b", "b" is not
            return folder if not fields or folder == "." else None
        if _field_filter(values):
            fields = True
        elif not _filter(values):
            return None
    return None


def _lister(words: list[str]) -> str | None:
    program, args = words[0], words[1:]
    if program == "git" and args[:1] == ["ls-files"]:
        rest = args[1:]
        if all(a in _LS_FILES or _plain_pathspec(a) for a in rest):
            return "."
        return None
    if program == "git" and args[:1] == ["grep"]:
        rest = args[1:]
        names_only = any(a in _GREP_NAMES for a in rest)
        if names_only and not any(a.startswith(_GREP_OTHER) or ".." in a.split("/") for a in rest):
            return "."  # the names of matching files below the working directory
        return None
    if program == "find" and args and not args[0].startswith(("-", "(", "!")):
        start, tests = args[0], args[1:]
        starts_done = not tests or tests[0].startswith(("-", "(", "!"))
        if starts_done and not any(t in _FIND_OTHER_OUTPUT for t in tests):
            return start
        return None
    if (
        program == "git"
        and args[:1] == ["status"]
        and all(a in _STATUS for a in args[1:])
        and ("--porcelain" in args[1:] or "--porcelain=v1" in args[1:])
    ):
        return "."  # "XY name" lines, names relative to the top (porcelain v1 never says "..")
    if program == "git" and args[:1] == ["diff"] and "--name-only" in args[1:]:
        rest = [a for a in args[1:] if a != "--name-only"]
        if all(a in _DIFF_NAMES or _plain_pathspec(a) for a in rest):
            return "."  # names relative to the top, or with --relative to the cwd: never ".."
        return None
    if program == "rg" and "--files" in args:
        paths = [a for a in args if not a.startswith("-")]
        if all(a in _RG_FILES for a in args if a.startswith("-")) and len(paths) <= 1:
            return paths[0] if paths else "."
    return None


def _plain_pathspec(word: str) -> bool:
    """A pathspec that only narrows what is listed below the working directory."""
    return not word.startswith(("-", "/", ":")) and ".." not in word.split("/")


#: ``git status`` options that keep its porcelain output to "XY name" lines.
_STATUS = frozenset({"--porcelain", "--porcelain=v1", "-u", "-uall", "-uno", "-unormal",
                     "--untracked-files", "--untracked-files=all", "--untracked-files=no",
                     "--untracked-files=normal", "--ignored", "--", "."})  # fmt: skip
#: ``git diff`` options that keep ``--name-only`` output to names.
_DIFF_NAMES = frozenset({"--cached", "--staged", "--relative", "HEAD", "--", "--diff-filter=d",
                         "--diff-filter=AM", "--diff-filter=ACMR"})  # fmt: skip
_AWK_FIELD = re.compile(r"^\s*\{\s*print\s+\$(\d+|NF)\s*;?\s*\}\s*$")


def _field_filter(words: list[str]) -> bool:
    """A stage that passes on one blank-separated word of each line (``awk '{print $2}'``,
    ``cut -c4-``, ``cut -d' ' -f2``): a part of a name, relative names stay relative."""
    program, args = words[0], words[1:]
    if program in ("awk", "gawk", "mawk"):
        return len(args) == 1 and _AWK_FIELD.match(args[0]) is not None
    if program == "cut":
        return args in (["-c4-"], ["-c", "4-"], ["-d", " ", "-f2"], ["-d ", "-f2"], ["-f2", "-d", " "])
    return False


def _filter(words: list[str]) -> bool:
    """A stage that passes on some of its input lines, each whole."""
    program, args = words[0], words[1:]
    if program in _GREP:
        options = [a for a in args if a.startswith("-")]
        positionals = [a for a in args if not a.startswith("-")]
        return len(positionals) == 1 and not any(
            o in _GREP_NOT_FILTERING or o.lstrip("-")[:1] in "oRrfclLnbHAB" for o in options
        )
    if program in _LINE_FILTERS:
        return all(a.startswith("-") or a.isdigit() for a in args)
    return False
