"""What a git command prints of the repository's history, read from its words alone.

``git show [REV...]`` prints each commit's changes; ``git log -p``, ``whatchanged -p`` and
``format-patch`` every commit of a range (``-N``, ``--all``, ``A..B``, ``^A``; format-patch's
single ``R`` is ``R..HEAD``); ``git diff`` two trees (``A B``, ``A..B``, ``A...B``, ``REV``
against the work tree). Options are known by name: one that shapes the output, one that
selects commits by content (then a limit cannot be applied: the kept commits may lie further
back), or an unknown one (``HistoryUnknown``: asked, never allowed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum


class HistoryUnknown(Exception):
    """What the command prints of the history cannot be known exactly."""


class Walk(Enum):
    LOG = "log"  # every commit of a range, each against its first parent
    EACH = "each"  # each revision's commit (``git show``)
    TREES = "trees"  # two trees compared (``git diff``)
    FILES = "files"  # every file of each revision's tree (``git grep PATTERN REV``, ``git archive``)


@dataclass(frozen=True, slots=True)
class Printed:
    walk: Walk
    revs: tuple[str, ...] = ()  # revisions (or, without ``--``, perhaps paths)
    exclude: tuple[str, ...] = ()  # ``^A``, the left of ``A..B``
    limit: int | None = None
    all_refs: bool = False
    paths: tuple[str, ...] = ()  # pathspec after ``--``
    since: bool = False  # format-patch R: R..HEAD
    filtered: bool = False  # commits selected by content (-S, --grep): a limit cannot be applied
    content: bool = True  # the output holds the files' lines (a patch), not only their names
    blobs: tuple[str, ...] = ()  # ``REV:path``: a file's content at a revision, printed whole
    objects: tuple[str, ...] = ()  # an object named by its id (``git cat-file -p 1a2b3c``)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Options whose value is the next word.
_LOG_VALUED = _words(
    "--after --author --before --committer --diff-filter --grep --max-count --max-parents "
    "--min-parents --output-directory --since --since-as-filter --skip --until -G -O -S -n -o "
)
#: Options that choose commits by what they hold: a limit counts only those.
_SELECTING = _words(
    "--after --all-match --ancestry-path --author --before --cherry-mark --cherry-pick --committer "
    "--diff-filter --first-parent --grep --invert-grep --left-only --max-parents --merges "
    "--min-parents --no-merges --pickaxe-all --pickaxe-regex --regexp-ignore-case --right-only "
    "--simplify-by-decoration --since --since-as-filter --skip --until -E -F -G -P -S -i "
)
_ALL = frozenset({"--all", "--branches", "--tags", "--remotes", "--glob"})
#: Options that only shape (or restrict) the output: known harmless for what is printed.
_SHAPING = _words(
    "--abbrev --abbrev-commit --author-date-order --binary --cached --cc --check --children --color "
    "--color-moved --color-words --compact-summary --cover-letter --date --date-order --decorate "
    "--diff-algorithm --diff-merges --exit-code --expand-tabs --find-copies --find-renames "
    "--first-parent --follow --format --full-diff --full-index --graph --histogram --ignore-all-space "
    "--ignore-blank-lines --ignore-space-change --ignore-submodules --keep-subject --left-right "
    "--log-size --mailmap --merge-base --merges --minimal --name-only --name-status "
    "--no-abbrev-commit --no-color --no-color-moved --no-cover-letter --no-decorate --no-expand-tabs "
    "--no-ext-diff --no-index --no-merges --no-notes --no-numbered --no-patch --no-prefix "
    "--no-renames --no-signature --no-textconv --no-walk --notes --numbered --numstat --oneline "
    "--output-directory --parents --patch --patch-with-raw --patch-with-stat --patience --pretty "
    "--quiet --raw --relative-date --reverse --root --shortstat --show-signature --signoff --staged "
    "--stat --stat-width --stdout --submodule --summary --text --topo-order --unified --use-mailmap "
    "--word-diff --word-diff-regex -C -M -R -a -b -c -k -m -o -p -s -u -w "
)
_NO_CONTENT = _words(
    "--compact-summary --name-only --name-status --no-patch --numstat --raw --shortstat --stat --summary -s "
)
_PATCH = frozenset({"-p", "-u", "--patch", "--patch-with-stat", "--patch-with-raw", "--cc", "-m", "-c"})
_LIMIT = re.compile(r"-(\d+)|-n(\d+)")


#: The commands that print commits' or trees' changes (log and whatchanged with a patch option).
PRINTERS = frozenset({"show", "log", "whatchanged", "format-patch", "diff"})


def printed(sub: str | None, args: tuple[str, ...]) -> Printed | None:
    """What ``git SUB ARGS`` prints of the history, or None for nothing (``git diff`` of
    the work tree, ``git show --stat``). Raises HistoryUnknown for an option not known."""
    if sub not in PRINTERS:
        return None
    walk = {"show": Walk.EACH, "diff": Walk.TREES}.get(sub, Walk.LOG)
    revs: list[str] = []
    exclude: list[str] = []
    paths: list[str] = []
    limit: int | None = None
    all_refs = filtered = follow = False
    blobs: list[str] = []
    shaping: set[str] = set()
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if word == "--":
            paths.extend(args[i:])
            break
        flag, eq, value = word.partition("=")
        if not word.startswith("-") or word == "-":
            if word.startswith("^") and len(word) > 1:
                exclude.append(word[1:])
            elif ":" in word:  # ``REV:path`` is a blob: its path judged by name, its content here
                blobs.append(word)
            else:
                revs.append(word)
            continue
        if flag in _LOG_VALUED and not eq:
            if i >= len(args):
                raise HistoryUnknown(f"{word} without its value")
            value, i = args[i], i + 1
        number = _LIMIT.fullmatch(word)
        if number or flag in ("-n", "--max-count"):
            limit = int(number[1] or number[2]) if number else _count(value)
            continue
        if flag in _ALL:
            all_refs = True
        elif flag in _SELECTING or flag[:2] in ("-S", "-G"):
            filtered = True
        elif flag == "--follow":
            follow = True
        elif flag[:2] in ("-U", "-M", "-C") or flag in _SHAPING:
            shaping.add(flag)
        elif flag not in _LOG_VALUED:
            raise HistoryUnknown(f"git {sub} {word}: an option the history check does not know")
    if "--no-index" in shaping or (sub == "show" and shaping & _NO_CONTENT and not shaping & _PATCH):
        return None
    if walk is Walk.TREES and not revs and not exclude and not blobs:
        return None  # the work tree against the index: judged by name
    if follow:
        paths = []  # --follow prints the file under its earlier names too
    since = (
        sub == "format-patch"
        and "--root" not in shaping
        and limit is None
        and len(revs) == 1
        and ".." not in revs[0]
        and not exclude
    )
    names_only = bool(shaping & _NO_CONTENT) and not shaping & _PATCH
    content = not names_only and (walk is not Walk.LOG or sub == "format-patch" or bool(shaping & _PATCH))
    return Printed(
        walk,
        tuple(revs),
        tuple(exclude),
        limit,
        all_refs,
        tuple(paths),
        since,
        filtered,
        content,
        tuple(blobs),
    )


def _count(value: str) -> int:
    if not value.isdigit():
        raise HistoryUnknown(f"a commit count {value!r}")
    return int(value)
