"""A delete of the workspace paths a command names, decided like the write tool (#31).

``rm -f notes.txt``, ``rm -rf build dist``, ``rm -rf node_modules/.cache``: every agent does
them all day, and what they take is exactly what they name. In workspace mode such a delete
is allowed when the write path policy allows writing every path it names (the shell policy
checks that first: a protected path, one outside the workspace, a credential or a hard link
to one, asks or denies there), and when what it names is plainly workspace work:

* every path is literal: no glob, no value only known at run time (``rm -rf $DIR``,
  ``rm -rf *``), no option the table does not know;
* none is a workspace root itself or outside one (``rm -rf .`` is a catastrophe elsewhere);
* none is, or is inside, a repository's own folder (``.git``, ``.hg``…): history is not
  workspace work, and a sandbox cannot give it back;
* a folder it names holds no repository's folder, which a walk of at most
  :data:`MAX_ENTRIES` entries shows (a bigger tree asks): ``rm -rf vendor`` must not take a
  nested checkout's unpushed history with it; nor what restrains later work (``rm -rf
  .claude`` takes its deny rules, ``rm -rf .github`` the checks CI runs);
* a folder it names holds no file the repository around it tracks (its index says): build
  output, caches and other untracked folders go (``rm -rf build dist``); ``rm -rf src``, whose
  uncommitted changes nothing could give back, asks; so does a folder in no repository.

What a delete takes, a sandbox cannot give back: this is why a declared delete is never
allowed as contained code (``contained_code``) and only ever this way, path by path.
"""

from __future__ import annotations

import os

from bastion.agents.registry import permission_globs
from bastion.call.effects import Effect
from bastion.policy.compiled import Policy
from bastion.policy.git_index import IndexUnknown, index_paths
from bastion.policy.globs import GlobSet
from bastion.policy.later_code import LATER_CODE, Runs
from bastion.policy.tree import Kind
from bastion.policy.treewalk import OverBudget, Reach
from bastion.shell.model import Access, SimpleCommand

#: The programs whose only effect is removing the names they are given.
DELETERS = frozenset({"rm", "rmdir", "unlink"})
#: A version-control system's own folder: its history, never workspace work.
REPOSITORY_DIRS = frozenset({".git", ".hg", ".svn", ".jj", ".bzr", "_darcs", ".pijul", ".fslckout"})
#: The most entries a named folder may hold for its delete to be decided here.
MAX_ENTRIES = 5000

WHY = (
    "only deletes the workspace paths it names, each an allowed workspace write, "
    "with no repository's history among them"
)


def plain_delete(policy: Policy, reach: Reach, cmd: SimpleCommand, cwd: str) -> str | None:
    """Why the workspace mode may allow ``cmd`` as a plain delete, or None (it asks)."""
    if (
        cmd.program not in DELETERS
        or not cmd.known
        or cmd.dynamic
        or cmd.catastrophic
        or not cmd.paths
        or not cmd.effects <= {Effect.DELETE}
    ):
        return None
    roots = tuple(os.path.normpath(r) for r in policy.write_roots)
    for use in cmd.paths:
        if use.path is None or use.pattern is not None or use.access is not Access.DELETE:
            return None
        path = os.path.normpath(os.path.join(cwd, _home(use.path, policy.home)))
        root = next((r for r in roots if path.startswith(r.rstrip("/") + "/")), None)
        if root is None:
            return None  # a root itself, or outside every one
        if REPOSITORY_DIRS.intersection(os.path.relpath(path, root).split(os.sep)):
            return None
        if _holds_repository(reach, path, policy) or _holds_tracked(reach, path, root):
            return None
    return WHY


def _holds_repository(reach: Reach, path: str, policy: Policy) -> bool:
    """Is the folder ``path``, or does it hold, a repository's folder (by name, or by what a
    git dir holds: ``HEAD``, ``objects/``, ``refs/``), or what restrains later work (an
    agent's permission file, a git hook, a CI workflow: ``rm -rf .claude`` drops its deny
    rules, ``rm -rf .github`` the checks CI runs), or too much to tell? A file, a symlink
    (``rm`` removes the link, never what it points to) or a missing path holds none (the write
    policy judged it by its own name)."""
    guarded = _restraining(policy)
    try:
        if reach.kind(path, follow=False) is not Kind.DIR:
            return False
        pending, seen = [path], 0
        while pending:
            folder = pending.pop()
            entries = list(reach.listdir(folder))
            kinds = {e.name: e.kind for e in entries}
            if kinds.get("objects") is Kind.DIR and kinds.get("refs") is Kind.DIR and "HEAD" in kinds:
                return True  # a git dir under any name: a bare `data/snapshot`, a .git file's target
            for entry in entries:
                seen += 1
                inside = os.path.join(folder, entry.name)
                if entry.name in REPOSITORY_DIRS or seen > MAX_ENTRIES:
                    return True
                if guarded.first_match(inside) is not None:
                    return True
                if entry.kind is Kind.DIR:
                    pending.append(inside)
    except OverBudget:
        return True
    return False


#: What restrains later work, which a delete loosens: an agent's permission file (its deny
#: rules), git's hooks and the hook managers' and CI's configuration (the checks they run).
#: A delete of anything else a write would ask about (a toolchain file, a ``.pth``, a program
#: under node_modules/.bin) takes nothing that keeps anyone safe.
RESTRAINING = frozenset(
    (
        *permission_globs(),
        "**/.git/hooks",
        "**/.husky",
        "**/.githooks",
        *(e.glob for e in LATER_CODE if e.runs in (Runs.PUSH, Runs.COMMIT)),
    )
)


def _restraining(policy: Policy) -> GlobSet:
    every = policy.hardline.self_ask + policy.hardline.later_code
    return GlobSet.of([g for g in every.globs if g.pattern in RESTRAINING])


def _holds_tracked(reach: Reach, path: str, root: str) -> bool:
    """Does the folder ``path`` hold a file the repository around it (found at or above it,
    up to ``root``) tracks, or can that not be told (no repository, an index that cannot be
    read whole)? A file or a missing path: False (one named file is what the write tool
    could empty as well)."""
    try:
        if reach.kind(path, follow=False) is not Kind.DIR:
            return False
        top = os.path.dirname(path)
        while reach.kind(os.path.join(top, ".git"), follow=False) is not Kind.DIR:
            if top == root or not top.startswith(root.rstrip("/") + "/"):
                return True  # no repository to give anything back
            top = os.path.dirname(top)
        data = reach.read(os.path.join(top, ".git", "index"))
        if data is None:
            return False  # a repository that tracks nothing yet
        paths = index_paths(data, limit=max(0, reach.budget - reach.spent))
        reach.spend(len(paths), top)
    except (OSError, IndexUnknown, OverBudget):
        return True
    folder = os.path.relpath(path, top) + "/"
    return any(p.startswith(folder) for p in paths)


def _home(path: str, home: str) -> str:
    return home + path[1:] if path == "~" or path.startswith("~/") else path
