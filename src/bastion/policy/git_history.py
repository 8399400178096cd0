"""The credential files a git command prints from the repository's history.

``git show HEAD`` after a commit that deleted ``.env`` prints the file's content, though
neither the work tree nor the index holds it any more. Which commits and trees a command
prints is read from its words (``printed``, pure); the repository's objects, loose and
packed, are read with dulwich (``changed_paths``), never by running git (its configuration
can run programs). Each printed commit's changes against its first parent (a root commit:
all it adds) and each compared pair of trees give the paths the output holds.

What cannot be known exactly fails closed: an unknown revision spelling or option, a
merge (what git prints of it depends on options), a blob named by id, a history longer
than the budget: ``HistoryUnknown``, which the caller asks about.
"""

from __future__ import annotations

import heapq
import itertools
import posixpath
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase

from dulwich.objects import Blob, Commit

from bastion.policy.git_objects import (
    Objects,
    all_refs,
    ancestors,
    entries,
    open_repository,
    resolve,
    tree,
)
from bastion.policy.git_revisions import HistoryUnknown, Printed, Walk
from bastion.policy.search_lines import LineTest
from bastion.policy.secret_shapes import project_secret, scrubbed

_GITLINK = 0o160000  # a submodule's commit: printed as an id, no content


@dataclass(frozen=True, slots=True)
class Change:
    path: str  # relative to the repository's top
    commit: str  # the short id of the commit whose changes hold it ('' for a tree comparison)
    certain: bool  # False: a merge's changes, which git may or may not print
    # Its content's ids: before and after the change (both printed, a patch); for a file printed
    # whole, that content and the one HEAD holds (not printed: it tells of a later scrub).
    sides: tuple[bytes | None, bytes | None] = (None, None)
    secret: str | None = None  # why the lines printed of it hold a secret (``_with_secret``)
    whole: bool = False  # ``REV:path``: the file printed whole at the revision ``commit``


def changed_paths(
    git_dir: str,
    what: Printed,
    is_path: Callable[[str], bool],
    prefix: str | None = "",
    lines: LineTest | None = None,
) -> list[Change]:
    """Every path the printed commits or trees change (or hold, ``Walk.FILES``). ``is_path(word)``:
    whether a word that names no revision is a file (git takes it as a pathspec then);
    ``lines``: the lines of a file it prints (``git grep``'s matches), all when None. Raises
    HistoryUnknown."""
    repo = open_repository(git_dir)
    try:
        changes = _changed(repo, what, is_path, prefix) + _blobs(repo, what.blobs, prefix)
        changes += [_object(repo, word) for word in what.objects]
        return [_with_secret(repo, c, lines) for c in changes] if what.content else changes
    finally:
        repo.store.close()


def _changed(
    repo: Objects, what: Printed, is_path: Callable[[str], bool], prefix: str | None
) -> list[Change]:
    tips: list[bytes] = []
    excluded: list[bytes] = []
    paths = list(what.paths)
    walk = (
        Walk.LOG
        if what.walk is Walk.EACH and (what.limit or any(".." in w for w in what.revs))
        else what.walk
    )
    revs: list[str] = []
    for word in what.revs:
        ends = word.split("...") if "..." in word else word.split("..")
        if len(ends) > 2:
            raise HistoryUnknown(f"the range {word!r} is not one the history check reads")
        try:
            shas = [resolve(repo, end or "HEAD") for end in ends]
        except HistoryUnknown:
            shas = [None]
            if len(ends) != 1 or not is_path(word):
                raise
        if len(ends) == 1 and shas[0] is None and is_path(word):
            paths.append(word)  # no revision by that name: git reads it as a path
            continue
        found = [sha for sha in shas if sha is not None]
        if len(found) != len(shas):
            raise HistoryUnknown(f"the revision {word!r} names nothing the history check finds")
        if len(ends) == 2 and "..." not in word and walk is Walk.LOG:
            excluded.append(found[0])
            found = found[1:]
        tips.extend(found)
        revs.append(word)
    if walk is Walk.TREES:
        if not revs:
            return []  # the work tree against the index: what the index lists is judged by name
        return [c for c in _compare(repo, tips, tuple(revs)) if _in_pathspec(c.path, paths, prefix)]
    if walk is Walk.FILES:  # every file of each tree (none named: the work tree, judged as paths)
        head = resolve(repo, "HEAD")
        named = list(zip(revs, tips, strict=True))
        if what.all_refs:  # every commit of every ref (``$(git rev-list --all)``)
            named += [(sha.decode()[:7], sha) for sha in sorted(ancestors(repo, list(all_refs(repo))))]
        seen: set[tuple[str, bytes]] = set()
        files: list[Change] = []
        for word, top in named:
            for path, blob in _files(repo, tree(repo, top), ""):
                if (path, blob) not in seen and _in_pathspec(path, paths, prefix):
                    seen.add((path, blob))  # the same file in many commits is judged once
                    files.append(Change(path, word, True, (blob, _later(repo, head, path, blob)), whole=True))
        return files
    for word in what.exclude:
        sha = resolve(repo, word)
        if sha is None:
            raise HistoryUnknown(f"the excluded revision {word!r} names nothing the history check finds")
        excluded.append(sha)
    if what.since:
        excluded, tips = excluded + tips, [sha for sha in [resolve(repo, "HEAD")] if sha is not None]
    repo.seen |= ancestors(repo, excluded)
    if what.all_refs:
        tips.extend(all_refs(repo))
    elif not revs and not what.blobs and not what.objects:  # ``git show HEAD~1:app.ini``: no commit
        head = resolve(repo, "HEAD")
        tips = [head] if head is not None else []  # no commit yet: nothing to print
    if walk is Walk.LOG:
        # a limit counts the commits a filter or a pathspec keeps, which may lie further back
        limit = None if what.filtered or paths else what.limit
        changes: Iterator[Change] = _log(repo, tips, limit)
    else:
        changes = (
            change for sha in tips for change in _commit_changes(repo, sha, repo.commit(sha), combined=True)
        )
    return [c for c in changes if _in_pathspec(c.path, paths, prefix)]


def _blobs(repo: Objects, words: tuple[str, ...], prefix: str | None) -> list[Change]:
    """``REV:path`` (``HEAD~1:app.ini``, ``main:./x`` relative to the cwd): that file's content
    at the revision, beside its content at HEAD (a later scrub tells what it held)."""
    found: list[Change] = []
    for word in words:
        rev, _, spelled = word.partition(":")
        if spelled.startswith("./") or spelled.startswith("../"):
            if prefix is None:
                raise HistoryUnknown(f"{word!r} names a path relative to a folder outside the work tree")
            spelled = posixpath.join(prefix, spelled)
        path = posixpath.normpath(spelled).lstrip("/")
        if not rev:
            raise HistoryUnknown(f"{word!r} names a file of the index, which the history check does not read")
        sha = resolve(repo, rev)
        if sha is None:
            raise HistoryUnknown(f"the object {word!r} names nothing the history check finds")
        then = _file(repo, tree(repo, sha), path)
        found.append(
            Change(path, rev[:40], True, (then, _later(repo, resolve(repo, "HEAD"), path, then)), whole=True)
        )
    return found


def _files(repo: Objects, top: bytes, prefix: str) -> Iterator[tuple[str, bytes]]:
    """Every regular file below the tree ``top``: its path and its content's id."""
    for name, (mode, sha) in sorted(entries(repo, top).items()):
        if stat.S_ISDIR(mode):
            yield from _files(repo, sha, f"{prefix}{name}/")
        elif stat.S_ISREG(mode):
            yield f"{prefix}{name}", sha


def _object(repo: Objects, word: str) -> Change:
    """An object named by (a unique prefix of) its id: a file's content is judged as such."""
    sha = resolve(repo, word)
    if sha is None:
        raise HistoryUnknown(f"the object {word!r} names nothing the history check finds")
    return Change(word, word, True, (sha if isinstance(repo.get(sha), Blob) else None, None), whole=True)


def _later(repo: Objects, head: bytes | None, path: str, then: bytes | None) -> bytes | None:
    """The content id HEAD holds at ``path`` when it differs from ``then`` (None otherwise)."""
    now = _file(repo, tree(repo, head), path) if head is not None and then is not None else None
    return now if now != then else None


def _file(repo: Objects, top: bytes, path: str) -> bytes | None:
    """The content id of the regular file at ``path`` in the tree ``top`` (None: no such file)."""
    sha: bytes | None = top
    *folders, name = path.split("/")
    for folder in folders:
        entry = entries(repo, sha).get(folder)
        if entry is None or not stat.S_ISDIR(entry[0]):
            return None
        sha = entry[1]
    entry = entries(repo, sha).get(name)
    return entry[1] if entry is not None and stat.S_ISREG(entry[0]) else None


def _with_secret(repo: Objects, change: Change, lines: LineTest | None = None) -> Change:
    """``change`` with why the lines a command prints of it hold a secret: a side it prints
    holds one of the shapes a project file is judged by (``project_secret``), or the change
    (for a file printed whole, from it to HEAD's version) scrubs one (a literal value replaced
    by a reference: ``scrubbed``). With ``lines``, only the lines the command prints of it
    (``git grep``'s matches) are judged."""
    before, after = (repo.blob(sha) if sha is not None else b"" for sha in change.sides)
    if lines is not None:  # what a later version holds is not printed: it stays whole
        before = b"\n".join(line for line in before.split(b"\n") if lines(line))
        after = after if change.whole else b"\n".join(line for line in after.split(b"\n") if lines(line))
    shown = (before,) if change.whole else (before, after)
    if any(project_secret(side, change.path) for side in shown):
        why = "holds a secret (a key, a token or a password)"
    elif before and after and scrubbed(before, after):
        why = "holds a secret that a later version replaced with a reference to it"
    else:
        return change
    return replace(change, secret=why)


def _in_pathspec(path: str, specs: list[str], prefix: str | None) -> bool:
    """Is ``path`` (from the top) one the pathspecs (relative to the cwd, ``prefix`` from the
    top; None: outside the work tree) keep? Magic (``:(glob)``) keeps every path."""
    if not specs or prefix is None or any(s.startswith(":") for s in specs):
        return True
    tops = [posixpath.normpath(posixpath.join(prefix, s)) for s in specs]
    return any(t == "." or path == t or path.startswith(t + "/") or fnmatchcase(path, t) for t in tops)


def _log(repo: Objects, tips: list[bytes], limit: int | None) -> Iterator[Change]:
    """The commits reachable from ``tips`` and not excluded, in git's default order (newest
    commit date first, equal dates in the order they were reached); with ``limit``, the
    first ones."""
    heap: list[tuple[int, int, bytes]] = []
    order = itertools.count()
    for sha in tips:
        if sha not in repo.seen:
            heapq.heappush(heap, (-repo.commit(sha).commit_time, next(order), sha))
    shown = 0
    while heap and (limit is None or shown < limit):
        _, _, sha = heapq.heappop(heap)
        if sha in repo.seen:
            continue
        repo.seen.add(sha)
        commit = repo.commit(sha)
        shown += 1
        yield from _commit_changes(repo, sha, commit)
        for parent in repo.parents(sha):
            if parent not in repo.seen:
                heapq.heappush(heap, (-repo.commit(parent).commit_time, next(order), parent))


def _commit_changes(repo: Objects, sha: bytes, commit: Commit, *, combined: bool = False) -> Iterator[Change]:
    """A commit's changes against each parent. Those of a merge are uncertain (``git log -p``
    prints none), but ``git show`` (``combined``) prints a combined diff of each file that
    differs from every parent: those are certain (``git show stash@{0}``: a stash's work-tree
    commit is a merge of HEAD and the index)."""
    short = sha.decode()[:7]
    parents: list[bytes | None] = [*repo.parents(sha)] or [None]
    against = [
        list(_diff(repo, repo.commit(parent).tree if parent is not None else None, commit.tree, ""))
        for parent in parents
    ]
    everywhere = set.intersection(*({path for path, _, _ in diffs} for diffs in against))
    for diffs in against:
        for path, old, new in diffs:
            yield Change(path, short, len(parents) == 1 or (combined and path in everywhere), (old, new))


def _compare(repo: Objects, shas: list[bytes], words: tuple[str, ...]) -> Iterator[Change]:
    """``git diff A B``, ``A..B``, ``A...B`` (every common ancestor against B), ``REV``
    (its tree against HEAD's: what the work tree differs in, the index covers)."""
    if len(words) == 1 and "..." in words[0]:
        left, right = shas
        bases = ancestors(repo, [left]) & ancestors(repo, [right])
        for base in bases:
            yield from (
                Change(p, "", True, (a, b))
                for p, a, b in _diff(repo, repo.commit(base).tree, tree(repo, right), "")
            )
        return
    if len(shas) == 1:
        head = resolve(repo, "HEAD")
        shas = [shas[0], head] if head is not None else [shas[0]]
    if len(shas) == 1:
        yield from (Change(p, "", True, (a, b)) for p, a, b in _diff(repo, None, tree(repo, shas[0]), ""))
    elif len(shas) == 2:
        yield from (
            Change(p, "", True, (a, b))
            for p, a, b in _diff(repo, tree(repo, shas[0]), tree(repo, shas[1]), "")
        )
    else:
        raise HistoryUnknown("a combined diff of more than two revisions")


#: A file that differs between two trees: its path, and its content's id on each side (None:
#: absent there, or no regular file).
Differs = tuple[str, bytes | None, bytes | None]


def _diff(repo: Objects, old: bytes | None, new: bytes | None, prefix: str) -> Iterator[Differs]:
    """The files that differ between two trees (either may be absent)."""
    if old == new:
        return
    sides = [entries(repo, sha) for sha in (old, new)]
    for name in sorted(sides[0].keys() | sides[1].keys()):
        a, b = sides[0].get(name), sides[1].get(name)
        if a == b:
            continue
        path = prefix + name
        dirs = [e[1] if e is not None and stat.S_ISDIR(e[0]) else None for e in (a, b)]
        if dirs[0] or dirs[1]:
            yield from _diff(repo, dirs[0], dirs[1], path + "/")
        if any(e is not None and stat.S_IFMT(e[0]) not in (stat.S_IFDIR, _GITLINK) for e in (a, b)):
            before, after = (e[1] if e is not None and stat.S_ISREG(e[0]) else None for e in (a, b))
            yield path, before, after
