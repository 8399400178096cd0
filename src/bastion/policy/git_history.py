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
import re
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatchcase

from dulwich.object_store import DiskObjectStore
from dulwich.objects import Blob, Commit, ObjectID, ShaFile, Tag, Tree
from dulwich.refs import DiskRefsContainer, Ref

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.git_revisions import HistoryUnknown, Printed, Walk, printed
from bastion.policy.tree import Kind
from bastion.policy.treewalk import Reach

#: Commits one call may look at, and tree entries.
MAX_COMMITS = 2_000
MAX_ENTRIES = 20_000
_GITLINK = 0o160000  # a submodule's commit: printed as an id, no content
#: The largest loose object inflated (a tree or a commit is far smaller).
_LARGEST = 32 * 1024 * 1024


class PastTheRoot(Exception):
    """A revision names a parent a commit does not have: git stops with an error, printing
    nothing."""


@dataclass(frozen=True, slots=True)
class Change:
    path: str  # relative to the repository's top
    commit: str  # the short id of the commit whose changes hold it ('' for a tree comparison)
    certain: bool  # False: a merge's changes, which git may or may not print


@dataclass(slots=True)
class _Repository:
    store: DiskObjectStore
    refs: DiskRefsContainer
    shallow: frozenset[bytes]  # a shallow clone's cut: commits git shows as roots
    commits: int = 0
    entries: int = 0
    seen: set[bytes] = field(default_factory=set)
    _commits: dict[bytes, Commit] = field(default_factory=dict)
    trees: dict[bytes, dict[str, tuple[int, bytes]]] = field(default_factory=dict)

    def get(self, sha: bytes) -> ShaFile:
        try:
            return self.store[ObjectID(sha)]
        except (KeyError, ValueError, OSError) as exc:
            raise HistoryUnknown(f"object {sha.decode(errors='replace')} cannot be read") from exc

    def parents(self, sha: bytes) -> list[bytes]:
        return [] if sha in self.shallow else list(self.commit(sha).parents)

    def commit(self, sha: bytes) -> Commit:
        known = self._commits.get(sha)
        if known is not None:
            return known
        self.commits += 1
        if self.commits > MAX_COMMITS:
            raise HistoryUnknown("the history is too long to look through")
        obj = self.get(sha)
        for _ in range(10):
            if not isinstance(obj, Tag):
                break
            obj = self.get(obj.object[1])
        if not isinstance(obj, Commit):
            raise HistoryUnknown(f"{sha.decode(errors='replace')[:12]} is no commit")
        self._commits[sha] = obj
        return obj


def open_repository(git_dir: str) -> _Repository:
    """The object store and refs of the repository at ``git_dir`` (a linked worktree's
    common dir holds both; its own HEAD is its own)."""
    common = git_dir
    try:
        with open(posixpath.join(git_dir, "commondir"), encoding="utf-8") as pointer:
            common = posixpath.join(git_dir, pointer.read().strip())
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise HistoryUnknown(f"{git_dir}/commondir cannot be read") from exc
    objects = posixpath.join(common, "objects")
    if not posixpath.isdir(objects):
        raise HistoryUnknown(f"{objects} is no object store")
    if posixpath.exists(posixpath.join(common, "reftable")):
        raise HistoryUnknown("its refs are kept in a reftable, which the history check does not read")
    shallow: set[bytes] = set()
    try:
        with open(posixpath.join(common, "shallow"), "rb") as cut:
            shallow = set(cut.read().split())
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise HistoryUnknown(f"{common}/shallow cannot be read") from exc
    store = DiskObjectStore(objects, loose_object_size_limit=_LARGEST)
    return _Repository(store, DiskRefsContainer(common, worktree_path=git_dir), frozenset(shallow))


_SUFFIX = re.compile(r"([~^])(\d*)")
_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./+-]*")
_HEX = re.compile(r"[0-9a-f]{4,40}")


def resolve(repo: _Repository, word: str) -> bytes | None:
    """The object ``word`` names (``HEAD``, a ref, an id, with ``~N``/``^N``), or None when
    nothing by that name exists. Raises HistoryUnknown for spellings not modelled."""
    cut = min((i for i in (word.find("~"), word.find("^")) if i >= 0), default=len(word))
    base, rest = word[:cut], word[cut:]
    base = "HEAD" if base in ("", "@") else base
    steps = _SUFFIX.findall(rest)
    spelled = "".join(a + b for a, b in steps) == rest
    if not spelled or not _PLAIN.fullmatch(base) or ".." in base or base.endswith((".lock", "/", ".")):
        raise HistoryUnknown(f"the revision {word!r} is spelled in a way the history check does not read")
    sha = _named(repo, base)
    for kind, digits in steps:
        if sha is None:
            return None
        number = int(digits) if digits else 1
        if kind == "^" and number == 0:
            continue
        count, index = (number, 0) if kind == "~" else (1, number - 1)
        for _ in range(count):
            parents = repo.parents(sha)
            if index >= len(parents):
                raise PastTheRoot(word)
            sha = parents[index]
    return sha


def _named(repo: _Repository, name: str) -> bytes | None:
    candidates = [name] if name == "HEAD" or name.startswith("refs/") else [
        name, f"refs/{name}", f"refs/tags/{name}", f"refs/heads/{name}", f"refs/remotes/{name}",
        f"refs/remotes/{name}/HEAD"]  # fmt: skip
    for ref in candidates:
        try:
            sha = repo.refs[Ref(ref.encode())]
        except KeyError:
            continue
        except Exception as exc:  # a malformed ref file: dulwich's own errors vary
            raise HistoryUnknown(f"the ref {ref} cannot be read") from exc
        if _HEX.fullmatch(name) and ref != "HEAD":
            raise HistoryUnknown(f"{name} is both a ref and perhaps an object id")
        return sha
    if not _HEX.fullmatch(name):
        return None
    found = list(repo.store.iter_prefix(name.encode()))
    if len(found) > 1:
        raise HistoryUnknown(f"the short id {name} is ambiguous")
    return found[0] if found else None


def changed_paths(
    git_dir: str, what: Printed, is_path: Callable[[str], bool], prefix: str | None = ""
) -> list[Change]:
    """Every path the printed commits or trees change. ``is_path(word)``: whether a word
    that names no revision is a file (git takes it as a pathspec then). Raises
    HistoryUnknown."""
    repo = open_repository(git_dir)
    try:
        return _changed(repo, what, is_path, prefix)
    finally:
        repo.store.close()


def _changed(
    repo: _Repository, what: Printed, is_path: Callable[[str], bool], prefix: str | None
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
    for word in what.exclude:
        sha = resolve(repo, word)
        if sha is None:
            raise HistoryUnknown(f"the excluded revision {word!r} names nothing the history check finds")
        excluded.append(sha)
    if what.since:
        excluded, tips = excluded + tips, [sha for sha in [resolve(repo, "HEAD")] if sha is not None]
    repo.seen |= _ancestors(repo, excluded)
    if what.all_refs:
        tips.extend(_all_refs(repo))
    elif not revs:
        head = resolve(repo, "HEAD")
        tips = [head] if head is not None else []  # no commit yet: nothing to print
    if walk is Walk.LOG:
        # a limit counts the commits a filter or a pathspec keeps, which may lie further back
        limit = None if what.filtered or paths else what.limit
        changes: Iterator[Change] = _log(repo, tips, limit)
    else:
        changes = (change for sha in tips for change in _commit_changes(repo, sha, repo.commit(sha)))
    return [c for c in changes if _in_pathspec(c.path, paths, prefix)]


def _in_pathspec(path: str, specs: list[str], prefix: str | None) -> bool:
    """Is ``path`` (from the top) one the pathspecs (relative to the cwd, ``prefix`` from the
    top; None: outside the work tree) keep? Magic (``:(glob)``) keeps every path."""
    if not specs or prefix is None or any(s.startswith(":") for s in specs):
        return True
    tops = [posixpath.normpath(posixpath.join(prefix, s)) for s in specs]
    return any(t == "." or path == t or path.startswith(t + "/") or fnmatchcase(path, t) for t in tops)


def _all_refs(repo: _Repository) -> Iterator[bytes]:
    for ref in sorted(repo.refs.allkeys()):
        try:
            sha = repo.refs[ref]
        except KeyError:
            continue
        if isinstance(repo.get(sha), (Commit, Tag)):
            yield sha


def _ancestors(repo: _Repository, tips: list[bytes]) -> set[bytes]:
    found: set[bytes] = set()
    todo = list(tips)
    while todo:
        sha = todo.pop()
        if sha not in found:
            found.add(sha)
            todo.extend(repo.parents(sha))
    return found


def _log(repo: _Repository, tips: list[bytes], limit: int | None) -> Iterator[Change]:
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


def _commit_changes(repo: _Repository, sha: bytes, commit: Commit) -> Iterator[Change]:
    short = sha.decode()[:7]
    parents: list[bytes | None] = [*repo.parents(sha)] or [None]
    for parent in parents:
        before = repo.commit(parent).tree if parent is not None else None
        for path in _diff(repo, before, commit.tree, ""):
            yield Change(path, short, len(parents) == 1)


def _compare(repo: _Repository, shas: list[bytes], words: tuple[str, ...]) -> Iterator[Change]:
    """``git diff A B``, ``A..B``, ``A...B`` (every common ancestor against B), ``REV``
    (its tree against HEAD's: what the work tree differs in, the index covers)."""
    if len(words) == 1 and "..." in words[0]:
        left, right = shas
        bases = _ancestors(repo, [left]) & _ancestors(repo, [right])
        for base in bases:
            yield from (
                Change(p, "", True) for p in _diff(repo, repo.commit(base).tree, _tree(repo, right), "")
            )
        return
    if len(shas) == 1:
        head = resolve(repo, "HEAD")
        shas = [shas[0], head] if head is not None else [shas[0]]
    if len(shas) == 1:
        yield from (Change(p, "", True) for p in _diff(repo, None, _tree(repo, shas[0]), ""))
    elif len(shas) == 2:
        yield from (Change(p, "", True) for p in _diff(repo, _tree(repo, shas[0]), _tree(repo, shas[1]), ""))
    else:
        raise HistoryUnknown("a combined diff of more than two revisions")


def _tree(repo: _Repository, sha: bytes) -> bytes:
    obj = repo.get(sha)
    return sha if isinstance(obj, Tree) else repo.commit(sha).tree


def _diff(repo: _Repository, old: bytes | None, new: bytes | None, prefix: str) -> Iterator[str]:
    """The paths of files that differ between two trees (either may be absent)."""
    if old == new:
        return
    sides = [_entries(repo, sha) for sha in (old, new)]
    for name in sorted(sides[0].keys() | sides[1].keys()):
        a, b = sides[0].get(name), sides[1].get(name)
        if a == b:
            continue
        path = prefix + name
        dirs = [e[1] if e is not None and stat.S_ISDIR(e[0]) else None for e in (a, b)]
        if dirs[0] or dirs[1]:
            yield from _diff(repo, dirs[0], dirs[1], path + "/")
        if any(e is not None and stat.S_IFMT(e[0]) not in (stat.S_IFDIR, _GITLINK) for e in (a, b)):
            yield path


def _entries(repo: _Repository, sha: bytes | None) -> dict[str, tuple[int, bytes]]:
    """A tree's entries by name (each tree read once a call: a commit's tree is its child's
    parent tree); only the entries of a tree not read before count against the budget."""
    if sha is None:
        return {}
    known = repo.trees.get(sha)
    if known is not None:
        return known
    tree = repo.get(sha)
    if isinstance(tree, Blob) or not isinstance(tree, Tree):
        raise HistoryUnknown(f"{sha.decode(errors='replace')[:12]} is no tree")
    items = tree.items()
    repo.entries += len(items)
    if repo.entries > MAX_ENTRIES:
        raise HistoryUnknown("the history is too long to look through")
    entries: dict[str, tuple[int, bytes]] = {
        e.path.decode("utf-8", "surrogateescape"): (e.mode, e.sha) for e in items
    }
    repo.trees[sha] = entries
    return entries


def history_reasons(
    policy: Policy, reach: Reach, git_dir: str, base: str, cwd: str, sub: str | None, args: tuple[str, ...]
) -> list[Reason]:
    """DENY for each credential file (by the policy's globs, on its work-tree path under
    ``base``) that the history ``git SUB ARGS`` prints changes; ASK when what it prints
    cannot be known (an unknown option or revision, a merge's changes, the budget)."""
    try:
        what = printed(sub, args)
        if what is None:
            return []
        inside = cwd == base or cwd.startswith(base.rstrip("/") + "/")
        prefix = posixpath.relpath(cwd, base) if inside else None
        changes = changed_paths(git_dir, what, lambda word: _exists(reach, cwd, word), prefix)
    except PastTheRoot:
        return []
    except HistoryUnknown as exc:
        return [_ask(git_dir, f"git {sub} prints the repository's history, and {exc}: a person must confirm")]
    except Exception as exc:  # dulwich's errors on a damaged object store vary: never an allow
        return [_ask(git_dir, f"git {sub} prints the repository's history, which cannot be read: {exc}")]
    hardline = policy.hardline
    reasons: list[Reason] = []
    for change in changes:
        path = posixpath.join(base, change.path)
        if hardline.credentials.first_match(path) is None and hardline.secrets_read.first_match(path) is None:
            continue
        where = f"as commit {change.commit} changed it" if change.commit else "as the trees differ in it"
        if change.certain:
            reasons.append(
                Reason(
                    Decision.DENY,
                    "hardline.credentials",
                    "built-in",
                    path[:200],
                    f"git {sub} prints {change.path} {where}: a credential in the repository's history, "
                    "never read by an agent",
                )
            )
        else:
            reasons.append(
                _ask(
                    path,
                    f"git {sub} may print {change.path}, which the merge {change.commit} changes against "
                    "a parent: a credential in the repository's history, a person must confirm",
                )
            )
    return list(dict.fromkeys(reasons))[:10]


def _ask(where: str, message: str) -> Reason:
    return Reason(Decision.ASK, "hardline.credentials", "built-in", where[:200], message)


def _exists(reach: Reach, cwd: str, word: str) -> bool:
    return reach.kind(posixpath.join(cwd, word), follow=False) is not Kind.MISSING
