"""One decision's view of the file system: a budget of entries and a cache, both per call.

Every listing, kind lookup and read the shell policy makes for globs, recursive readers and
git goes through a ``Reach``; when the budget runs out the caller gets ``OverBudget`` and
must treat what it was looking at as unknown. Nothing here outlives the call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bastion.policy.tree import Entry, Kind, Tree

#: Directory entries (and index entries) one call may look at.
DEFAULT_BUDGET = 20_000
#: Largest file read (a git config or index) before it counts as unknown.
MAX_READ = 32 * 1024 * 1024


class OverBudget(Exception):
    """The call looked at more entries than its budget allows."""

    def __init__(self, where: str) -> None:
        super().__init__(f"more than the budget of entries below {where}")
        self.where = where


class Reach:
    """Budget and caches of one decision. ``volatile`` counts what the caches do not keep
    (reads, direct spends, failed resolutions): an answer that depended on none of them is
    the one the same lookups would give again within this call."""

    __slots__ = ("_kinds", "_listings", "budget", "resolve", "spent", "tree", "volatile", "walked")

    def __init__(
        self, tree: Tree, resolve: Callable[[str], str], budget: int = DEFAULT_BUDGET, spent: int = 0
    ) -> None:
        self.tree = tree
        self.resolve = resolve
        self.budget = budget
        self.spent = spent
        self.volatile = 0
        self._listings: dict[str, tuple[Entry, ...]] = {}
        self._kinds: dict[tuple[str, bool], Kind] = {}
        # Finished walks of this call, by start and filter (``a -r src; b -r src`` walks once).
        self.walked: dict[tuple[object, ...], tuple[Found, ...]] = {}

    def spend(self, count: int, where: str) -> None:
        self.volatile += 1
        self._charge(count, where)

    def _charge(self, count: int, where: str) -> None:
        self.spent += count
        if self.spent > self.budget:
            raise OverBudget(where)

    def listdir(self, path: str) -> tuple[Entry, ...]:
        """The entries of ``path``; an unreadable or missing directory has none (as bash
        sees it), and costs one entry."""
        cached = self._listings.get(path)
        if cached is not None:
            return cached
        try:
            entries = self.tree.scandir(path)
        except OSError:
            entries = ()
        self._charge(max(1, len(entries)), path)
        self._listings[path] = entries
        return entries

    def kind(self, path: str, *, follow: bool) -> Kind:
        key = (path, follow)
        cached = self._kinds.get(key)
        if cached is None:
            self.spent += 1
            if self.spent > self.budget:
                raise OverBudget(path)
            try:
                cached = self.tree.kind(path, follow=follow)
            except OSError:
                cached = Kind.MISSING
            self._kinds[key] = cached
        return cached

    def read(self, path: str) -> bytes | None:
        """A small file's bytes; None when it does not exist. Raises OSError when it exists
        but cannot be read, or is larger than MAX_READ."""
        self.volatile += 1
        self._charge(1, path)
        try:
            data = self.tree.read(path, MAX_READ + 1)
        except (FileNotFoundError, NotADirectoryError):
            return None
        if len(data) > MAX_READ:
            raise OSError(f"{path} is larger than {MAX_READ} bytes")
        return data


@dataclass(frozen=True, slots=True)
class Found:
    """Something a recursive reader reaches: a credential-named entry, or a symlink it
    follows (``target`` set)."""

    path: str
    target: str | None = None


def walk(
    reach: Reach,
    start: str,
    *,
    follow_links: bool,
    skip: Callable[[str, bool], bool],
    flag: Callable[[str], bool],
) -> list[Found]:
    """Every file below ``start`` that ``flag`` marks, and every symlink followed on the
    way (its resolved target reported). ``skip(path, is_dir)`` leaves an entry out (rg's
    hidden files, grep --exclude-dir). Raises OverBudget."""
    found: list[Found] = []
    seen: set[str] = set()
    stack = [start]
    while stack:
        folder = stack.pop()
        if follow_links:
            # Only a followed link can lead back to a folder already walked: without them
            # the folders below ``start`` form a tree (a bind mount's loop is not seen by
            # resolving either; the budget ends it), so they need no resolution.
            real = _resolved(reach, folder)
            if real in seen:
                continue
            seen.add(real)
        sep = "" if not folder or folder.endswith("/") else "/"  # posixpath.join (names hold no "/")
        for entry in reach.listdir(folder):
            path = folder + sep + entry.name
            if skip(path, entry.kind is Kind.DIR):
                continue
            if entry.kind is Kind.DIR:
                if follow_links or entry.name != ".git":
                    # A repository's objects hold no names worth checking, unless links are
                    # followed: a link planted inside .git would be read too.
                    stack.append(path)
                continue
            if flag(path):
                found.append(Found(path))
            if entry.kind is Kind.LINK and follow_links:
                found.append(Found(path, _resolved(reach, path)))
                if reach.kind(path, follow=True) is Kind.DIR:
                    stack.append(path)
    return found


def _resolved(reach: Reach, path: str) -> str:
    try:
        return reach.resolve(path)
    except OSError:  # a loop: reported as its own spelling, which the path policy denies
        return path
