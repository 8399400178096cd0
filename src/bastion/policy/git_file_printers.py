"""What the git commands that print files of a revision print, read from their words: ``git
grep PATTERN REV…`` (the matching lines of every file of each revision's tree), ``git archive
REV`` (every file), ``git blame REV -- FILE`` (the file, line by line), ``git cat-file -p
REV:FILE`` or ``git cat-file blob ID`` (one file's content). Suite F printed a password that
only an earlier commit held with the first; the others print it as surely.

Each gives a ``Printed`` for the history check (``git_history``): the revisions whose trees it
prints whole (``Walk.FILES``), the ``REV:path`` blobs, the objects named by id. A command that
prints nothing of the history (``git grep`` of the work tree, ``git cat-file -t``) gives None;
an option not known, or an object only known at run time (``--batch`` reads them from its
input), is ``HistoryUnknown``: asked, never allowed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bastion.policy.git_revisions import HistoryUnknown, Printed, Walk, printed


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: git grep's options (git 2.39 `git help grep`): those taking a value, and switches.
_GREP_VALUED = _words("-e -f -A -B -C -m --max-count --max-depth --threads --context --after-context "
                      "--before-context")  # fmt: skip
_GREP_SWITCHES = _words(
    "-a --text --textconv --no-textconv -i --ignore-case -I --max-depth -r --recursive --no-recursive "
    "-w --word-regexp -v --invert-match -h -H --full-name -E --extended-regexp -G --basic-regexp "
    "-P --perl-regexp -F --fixed-strings -n --line-number --column -l --files-with-matches "
    "--name-only -L --files-without-match -z --null -o --only-matching -c --count --color "
    "--no-color --break --heading -p --show-function -W --function-context --and --or --not "
    "--all-match -q --quiet --recurse-submodules --exclude-standard --no-exclude-standard"
)
#: Options with which git grep searches the work tree or the index, not a revision.
_GREP_NOT_HISTORY = _words("--cached --untracked --no-index")
_GREP_NAMES_ONLY = _words(
    "-l --files-with-matches --name-only -L --files-without-match -c --count -q --quiet"
)
#: git blame's options (`git help blame`) taking a value, and switches.
_BLAME_VALUED = _words("-L -S --contents --date --abbrev --ignore-rev --ignore-revs-file --reverse")
_BLAME_SWITCHES = _words(
    "-C -M -b --root --show-stats -f --show-name -n --show-number -s -e --show-email -w -c -l -t "
    "--porcelain --line-porcelain --incremental --encoding --progress --no-progress --minimal "
    "--color-lines --color-by-age --score-debug -p"
)
_HEX = re.compile(r"[0-9a-fA-F]{4,64}")
#: ``$(git rev-list --all)``: every commit of every ref, the idiom for searching all of history
#: (git's own FAQ); what it prints is known though its words are only known at run time.
_EVERY_COMMIT = re.compile(r"(?:\$\(|`)\s*git\s+rev-list(?:\s+--(?:all|branches|tags|remotes))+\s*(?:\)|`)")


def file_printed(sub: str | None, args: tuple[str, ...]) -> Printed | None:
    """What ``git SUB ARGS`` (grep, archive, blame, annotate, cat-file, and the plumbing and
    other porcelain that print patches) prints of files at a revision, or None for nothing
    of the history."""
    if sub in _PATCH_PRINTERS:
        return _PATCH_PRINTERS[sub](args)
    if sub == "grep":
        return _grep(args)
    if sub == "archive":
        return _archive(args)
    if sub in ("blame", "annotate"):
        return _blame(args)
    if sub == "cat-file":
        return _cat_file(args)
    return None


def _diff_tree(args: tuple[str, ...]) -> Printed | None:
    """``git diff-tree -p A`` is ``git show A``'s patch; with two trees, ``git diff A B``."""
    revs = [a for a in args if not a.startswith("-")]
    if "--stdin" in args:
        raise HistoryUnknown("git diff-tree --stdin reads the commits it prints from its input")
    return printed("show" if len(revs) <= 1 else "diff", tuple(a for a in args if a not in _PLUMBING))


def _diff_index(args: tuple[str, ...]) -> Printed | None:
    """``git diff-index -p REV``: the tree of REV against the index or the work tree."""
    return printed("diff", tuple(a for a in args if a not in _PLUMBING))


def _range_diff(args: tuple[str, ...]) -> Printed | None:
    """``git range-diff BASE R1 R2`` prints the patches of BASE..R1 and BASE..R2 (or of the two
    ranges given, or of both sides of ``A...B``)."""
    revs = [a for a in args if not a.startswith("-")]
    if any(a.startswith("-") and a not in _RANGE_DIFF_SHAPING for a in args):
        raise HistoryUnknown("git range-diff: an option the history check does not know")
    if len(revs) == 3:
        base, one, two = revs
        return Printed(Walk.LOG, (f"{base}..{one}", f"{base}..{two}"))
    if len(revs) in (1, 2):
        return Printed(Walk.LOG, tuple(r.replace("...", "..") for r in revs))
    raise HistoryUnknown("git range-diff with revisions it does not read")


def _stash(args: tuple[str, ...]) -> Printed | None:
    """``git stash show -p [stash@{0}]``: the stash's changes against the commit it was made on."""
    words = [a for a in args if not a.startswith("-")]
    if words[:1] != ["show"]:
        return None
    named = words[1:] or ["stash@{0}"]
    if named not in (["stash@{0}"], ["stash"], ["0"], ["refs/stash"]) or "--include-untracked" in args:
        raise HistoryUnknown("a stash other than the latest is not read")
    return Printed(Walk.TREES, ("refs/stash^1", "refs/stash"))  # (git_objects.resolve: stash@{0})


def _reflog(args: tuple[str, ...]) -> Printed | None:
    raise HistoryUnknown("the reflog's commits (lost ones among them) are not read")


def _fast_export(args: tuple[str, ...]) -> Printed | None:
    """``git fast-export --all``: every file of every commit it names, whole."""
    revs = tuple(a for a in args if not a.startswith("-"))
    options = [a.partition("=")[0] for a in args if a.startswith("-")]
    if any(o not in ("--all", "--signed-tags", "--tag-of-filtered-object", "--reencode", "--progress",
                     "--use-done-feature", "--no-data", "--full-tree") for o in options):  # fmt: skip
        raise HistoryUnknown("git fast-export: an option the history check does not know")
    if "--no-data" in options:
        return None
    return Printed(Walk.LOG, revs, all_refs="--all" in options)


#: diff-tree's and diff-index's own options, beside git diff's.
_PLUMBING = frozenset({"-r", "-t", "--root", "--no-commit-id", "--cached", "-m", "--merge-base"})
_RANGE_DIFF_SHAPING = _words(
    "--no-dual-color --dual-color --creation-factor --left-only --right-only --no-notes --color "
    "--no-color -s --stat"
)
_PATCH_PRINTERS: dict[str, Callable[[tuple[str, ...]], Printed | None]] = {
    "diff-tree": _diff_tree,
    "diff-index": _diff_index,
    "range-diff": _range_diff,
    "stash": _stash,
    "reflog": _reflog,
    "fast-export": _fast_export,
}


def _grep(args: tuple[str, ...]) -> Printed | None:
    positionals, paths, flags = _split(args, _GREP_VALUED, _GREP_SWITCHES | _GREP_NOT_HISTORY, "grep")
    if flags & _GREP_NOT_HISTORY:
        return None
    patterned = bool(flags & {"-e", "-f"})
    revs = positionals if patterned else positionals[1:]
    every = [word for word in revs if _EVERY_COMMIT.fullmatch(word)]
    revs = [word for word in revs if word not in every]
    if not revs and not every:
        return None  # the work tree: its files are judged as paths
    content = not flags & _GREP_NAMES_ONLY
    return Printed(Walk.FILES, tuple(revs), all_refs=bool(every), paths=tuple(paths), content=content)


def _archive(args: tuple[str, ...]) -> Printed | None:
    valued = _words("--format -o --output --prefix --remote --exec --add-file --add-virtual-file --mtime")
    positionals, paths, flags = _split(
        args, valued, _words("-l --list -v --verbose --worktree-attributes"), "archive"
    )
    if flags & {"-l", "--list"} or not positionals:
        return None
    if flags & {"--remote", "--exec"}:
        raise HistoryUnknown("git archive --remote prints another repository's files")
    return Printed(Walk.FILES, tuple(positionals[:1]), paths=tuple(positionals[1:] + paths))


def _blame(args: tuple[str, ...]) -> Printed | None:
    positionals, paths, flags = _split(args, _BLAME_VALUED, _BLAME_SWITCHES, "blame")
    if "--contents" in flags or "--reverse" in flags:
        raise HistoryUnknown("git blame --contents/--reverse: the revisions it prints are not read")
    files = paths or positionals[-1:]
    revs = positionals[:-1] if not paths else positionals
    if not files or not revs:
        return None  # the work tree's file, judged as a path
    if len(revs) > 1:
        raise HistoryUnknown("git blame with more than one revision")
    return Printed(Walk.EACH, blobs=tuple(f"{revs[0]}:{f}" for f in files))


def _cat_file(args: tuple[str, ...]) -> Printed | None:
    words = [
        a for a in args if not a.startswith("--") or a.startswith(("--batch", "--filters", "--textconv"))
    ]
    if any(a.startswith(("--batch", "--filters", "--textconv", "--path")) for a in args):
        raise HistoryUnknown("git cat-file reads the objects it prints from its input")
    if not words or words[0] in ("-t", "-s", "-e"):
        return None  # an object's type or size, or whether it exists
    if words[0] not in ("-p", "blob") or len(words) != 2:
        return None  # a commit, tree or tag printed as such: names and messages, no file
    word = words[1]
    if ":" in word:
        return Printed(Walk.EACH, blobs=(word,))
    if _HEX.fullmatch(word):
        return Printed(Walk.EACH, objects=(word,))
    return None  # HEAD, a branch: the commit's text


def _split(
    args: tuple[str, ...], valued: frozenset[str], switches: frozenset[str], sub: str
) -> tuple[list[str], list[str], set[str]]:
    """The positional words before ``--``, the paths after it, and the options named."""
    positionals: list[str] = []
    flags: set[str] = set()
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if word == "--":
            return positionals, list(args[i:]), flags
        if not word.startswith("-") or word == "-":
            positionals.append(word)
            continue
        name, eq, _ = word.partition("=")
        if name in valued or (name[:2] in valued and len(name) > 2 and not name.startswith("--")):
            flags.add(name[:2] if not name.startswith("--") else name)
            i += 0 if eq or (len(name) > 2 and not name.startswith("--")) else 1
        elif name in switches or re.fullmatch(r"-\d+", name):
            flags.add(name)
        elif name[:2] in switches and name[2:].isdigit():  # blame -C50
            flags.add(name[:2])
        elif not name.startswith("--") and all(f"-{c}" in switches for c in name[1:]):
            flags.update(f"-{c}" for c in name[1:])  # a cluster of switches (-in)
        else:
            raise HistoryUnknown(f"git {sub} {word}: an option the history check does not know")
    return positionals, [], flags
