"""A repository's objects and refs, read with dulwich (loose and packed), never by running
git: its configuration can run programs. Revisions are resolved as git spells them most
often (``HEAD``, ``@``, a ref by git's lookup order, a unique short id, ``~N`` and ``^N``);
any other spelling is ``HistoryUnknown``. What one call reads is bounded: ``MAX_COMMITS``
commits, ``MAX_ENTRIES`` tree entries (each tree read once) and ``MAX_BLOBS`` files' contents,
past which the history is too long to look through.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from dulwich.object_store import DiskObjectStore
from dulwich.objects import Blob, Commit, ObjectID, ShaFile, Tag, Tree
from dulwich.refs import DiskRefsContainer, Ref

from bastion.policy.git_revisions import HistoryUnknown

#: Commits one call may look at, and tree entries.
MAX_COMMITS = 2_000
MAX_ENTRIES = 20_000
#: Blobs one call may look into (the files a printed patch shows), and how much of each.
MAX_BLOBS = 4_000
BLOB_HEAD = 64 * 1024
#: The largest loose object inflated (a tree or a commit is far smaller).
_LARGEST = 32 * 1024 * 1024


class PastTheRoot(Exception):
    """A revision names a parent a commit does not have: git stops with an error, printing
    nothing."""


@dataclass(slots=True)
class Objects:
    store: DiskObjectStore
    refs: DiskRefsContainer
    shallow: frozenset[bytes]  # a shallow clone's cut: commits git shows as roots
    commits: int = 0
    entries: int = 0
    blobs: int = 0
    seen: set[bytes] = field(default_factory=set)
    _commits: dict[bytes, Commit] = field(default_factory=dict)
    trees: dict[bytes, dict[str, tuple[int, bytes]]] = field(default_factory=dict)

    def get(self, sha: bytes) -> ShaFile:
        try:
            return self.store[ObjectID(sha)]
        except (KeyError, ValueError, OSError) as exc:
            raise HistoryUnknown(f"object {sha.decode(errors='replace')} cannot be read") from exc

    def blob(self, sha: bytes) -> bytes:
        """The first ``BLOB_HEAD`` bytes of a file's content."""
        self.blobs += 1
        if self.blobs > MAX_BLOBS:
            raise HistoryUnknown("the history prints more files than the check looks into")
        obj = self.get(sha)
        if not isinstance(obj, Blob):
            raise HistoryUnknown(f"{sha.decode(errors='replace')[:12]} is no file's content")
        return bytes(obj.as_raw_string()[:BLOB_HEAD])

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


def open_repository(git_dir: str) -> Objects:
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
    return Objects(store, DiskRefsContainer(common, worktree_path=git_dir), frozenset(shallow))


_SUFFIX = re.compile(r"([~^])(\d*)")
_PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_./+-]*")
_HEX = re.compile(r"[0-9a-f]{4,40}")


def resolve(repo: Objects, word: str) -> bytes | None:
    """The object ``word`` names (``HEAD``, a ref, an id, with ``~N``/``^N``), or None when
    nothing by that name exists. Raises HistoryUnknown for spellings not modelled."""
    if word.startswith("stash@{0}"):  # the latest stash is refs/stash itself (older ones: its reflog)
        word = "refs/stash" + word[len("stash@{0}") :]
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


def _named(repo: Objects, name: str) -> bytes | None:
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


def all_refs(repo: Objects) -> Iterator[bytes]:
    for ref in sorted(repo.refs.allkeys()):
        try:
            sha = repo.refs[ref]
        except KeyError:
            continue
        if isinstance(repo.get(sha), (Commit, Tag)):
            yield sha


def ancestors(repo: Objects, tips: list[bytes]) -> set[bytes]:
    found: set[bytes] = set()
    todo = list(tips)
    while todo:
        sha = todo.pop()
        if sha not in found:
            found.add(sha)
            todo.extend(repo.parents(sha))
    return found


def tree(repo: Objects, sha: bytes) -> bytes:
    obj = repo.get(sha)
    return sha if isinstance(obj, Tree) else repo.commit(sha).tree


def entries(repo: Objects, sha: bytes | None) -> dict[str, tuple[int, bytes]]:
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
