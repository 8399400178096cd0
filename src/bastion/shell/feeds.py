"""What an ``xargs`` stage is fed: the files a lister prints, below a folder it names.

``git ls-files | xargs wc -l`` and ``find src -name '*.py' | xargs grep -n TODO`` give xargs
only paths of files below one folder (the working directory, or find's start): what xargs runs
then reads files below that folder, as a recursive reader of it does. So the policy can check
them as it checks ``grep -r`` (credential files, hard links, symlinks leading out), instead of
asking about arguments "only known at run time".

A lister is recognised only in forms whose every output line is such a path: ``git ls-files``
with listing options and plain pathspecs, ``git grep -l``, ``find START`` with tests but no action that prints
anything else or runs anything, ``rg --files``. Between it and xargs only line filters that
keep whole lines may stand (``grep`` without ``-o``, ``sort``, ``uniq``, ``head``, ``tail``).
Anything else — an unknown option, a word only known at run time, a second start — and xargs
is fed by nothing known.

``echo WORDS | xargs CMD`` is fed exactly those words (when none holds a quote or a backslash,
which xargs would interpret): ``echo ~ | xargs rm -rf`` is ``rm -rf ~``; so is ``xargs CMD``
whose stdin is a literal here-string or heredoc (``xargs cat <<< ~/.pgpass``).

``fed_stdin``: a command run with data on its stdin (the exec tool's ``stdin``) is the command
with that data as a here-string of the whole line, so what reads it (``bash``, ``python3 -``,
``xargs cat``) is decided on it.
"""

from __future__ import annotations

import re

from bastion.shell.parser import parse
from bastion.shell.walk_model import RawCommand, Redirect

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


def fed_folder(stages: list[RawCommand | None], xargs_at: int) -> str | None:
    """The folder below which every argument ``stages[xargs_at]`` (an ``xargs``) receives
    is a file, or None. ``None`` in ``stages`` is a stage that is not one plain command."""
    fields = False  # a stage passed on words of lines, not whole lines
    for stage in reversed(stages[:xargs_at]):
        values = _literal(stage)
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


def fed_words(stages: list[RawCommand | None], xargs_at: int) -> tuple[str, ...] | None:
    """The words an ``echo`` of literal words right before ``stages[xargs_at]`` feeds it."""
    values = _literal(stages[xargs_at - 1]) if xargs_at else None
    if values is None or values[0] != "echo" or any(v.startswith("-") for v in values[1:]):
        return None
    if any(c in v for v in values[1:] for c in "'\"\\"):
        return None
    return tuple(" ".join(values[1:]).split())


def stdin_words(data: Redirect | None) -> tuple[str, ...] | None:
    """The words a literal here-string or heredoc gives xargs (None: not known, or words
    xargs would interpret: quotes, backslashes; a heredoc's ``~`` is no home)."""
    if data is None or data.body is None or not data.body_literal:
        return None
    words = tuple(data.body.split())
    if any(c in w for w in words for c in "'\"\\") or (
        data.op != "<<<" and any(w.startswith("~") for w in words)
    ):
        return None
    return words


def fed_stdin(command: str, data: str) -> str:
    """``command`` run with ``data`` on its stdin, as one shell source. A simple command gets
    it as an ANSI-C quoted here-string (exact for any data; one already reading a redirection
    keeps it); anything else as a quoted heredoc of a group holding the whole command, which
    every command of it reads (data the parser cannot take there stays undecidable: asked)."""
    body = data[:-1] if data.endswith("\n") else data
    root = parse(command.encode("utf-8")).root_node
    if root.named_child_count == 1 and root.named_children[0].type == "command" and not root.has_error:
        if any(c.type.endswith("redirect") for c in root.named_children[0].children):
            return command
        return f"{command} <<< $'{''.join(_ansi_c(ch) for ch in body)}'"
    tag = "BASTION_STDIN"
    lines = set(data.splitlines())
    while tag in lines:
        tag += "_"
    return f"{{ {command}\n}} <<'{tag}'\n{body}\n{tag}\n"


def _ansi_c(ch: str) -> str:
    if ch in "\\'":
        return "\\" + ch
    if ch.isprintable() or ch == " ":
        return ch
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x80 else f"\\U{code:08x}"


def _literal(stage: RawCommand | None) -> list[str] | None:
    if stage is None or stage.kind != "command" or stage.assigns or stage.redirects:
        return None
    values = [w.value for w in stage.words]
    if not values or any(v is None or (w.glob and v) for v, w in zip(values, stage.words, strict=True)):
        return None
    return [v for v in values if v is not None]


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
