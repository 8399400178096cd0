"""What stays read-only or hidden inside every sandbox, found by one bounded walk.

Protected paths are everything the gate asks about or denies for a direct write: the
config, hooks and info of every repository git would use (a ``.git`` folder, the git dir a
``.git`` file points at, a submodule's git dir, a bare repository whatever its name: any
folder with ``HEAD`` and ``objects``/``refs`` or a ``commondir``, and any ``*.git`` folder)
and a ``core.hooksPath`` folder, Mercurial's ``.hg/hgrc`` and the files it loads or runs
(an extension's path, a hook's script), ``.gitmodules``, agent
permission files and folders, config that makes a later tool run code (``.vscode/mcp.json``,
``.devcontainer``, ``.github/workflows``, ``rust-toolchain.toml``…), Bastion's own policy
folder, shell rc files, ``.envrc``. Inside a
writable root each one that exists is bound read-only over itself; one that does not exist
yet cannot be bound (bubblewrap would create it on the host), so it is *swept*: if the run
created it, it is moved into the quarantine folder afterwards and the result says so.

Credential files (``.env``, ``*.pem``, ``id_rsa``…) are hidden at any depth. A hard link in
a root to a file the profile keeps from the run is that file under another name
(``bastion.exec.linked``): one to a credential is hidden, one to any other kept file (an rc
file, git config, agent settings, a repository's hooks) bound read-only. The walk has a
budget of entries; a tree too big to walk is not run half-scanned: ``ScanBudgetExceeded``
says how to skip a tree (``[exec] scan_skip``) or raise the budget.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from bastion.agents.registry import project_dirs, project_paths
from bastion.exec.linked import Kept, kept_below
from bastion.exec.runner import ExecError
from bastion.policy.later_code import contained_children, contained_names, contained_suffixes, root_swept
from bastion.policy.named_programs import NAMING_FILES, hg_programs, named_by

#: Folders that are read-only wherever they appear (agent permissions, Bastion's policy).
PROTECTED_DIRS = frozenset({*project_dirs(), ".cursor", ".husky", ".bastion", ".githooks"})
#: Files that are read-only wherever they appear (rc files, direnv, MCP config), and every
#: name of the later-code table (policy/later_code.py: CI, editor and tool config).
PROTECTED_FILES = frozenset({
    ".gitmodules", ".mcp.json", ".envrc", ".bashrc", ".bash_profile", ".bash_login",
    ".bash_logout", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".kshrc",
    ".cshrc", ".tcshrc", ".hgrc", *contained_names(),
})  # fmt: skip
#: File name endings that are protected wherever they appear (an editor workspace's tasks).
PROTECTED_SUFFIXES = contained_suffixes()
#: Entries inside a folder of this name that are protected, besides the agents' (below).
_OWN_CHILDREN: dict[str, tuple[str, ...]] = {
    ".git": ("config", "config.worktree", "hooks", "info"),
    ".hg": ("hgrc", "hgrc-not-shared"),
    ".vscode": ("settings.json", "tasks.json"),
    ".config": ("fish", "git", "hg"),
}


def _merged(*tables: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    merged: dict[str, tuple[str, ...]] = {}
    for table in tables:
        for parent, children in table.items():
            merged[parent] = tuple(dict.fromkeys((*merged.get(parent, ()), *children)))
    return merged


def _with_agents(children: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """``children`` and each agent's settings below a folder of another's (the registry's
    ``project_paths``: Copilot's ``.github/hooks`` and ``.github/copilot``)."""
    merged = dict(children)
    for path in project_paths():
        parent, _, child = path.partition("/")
        merged[parent] = (*merged.get(parent, ()), child)
    return merged


#: Entries inside a folder of this name that are protected (the folder itself is not).
PROTECTED_CHILDREN = _with_agents(_merged(_OWN_CHILDREN, contained_children()))
#: What git uses in a git dir (a bare repository's folder, or a ``.git``'s target).
GIT_DIR_CHILDREN = PROTECTED_CHILDREN[".git"]
#: Created at the top of a writable root, these would change what runs next: swept.
ROOT_SWEPT = (".envrc", ".mcp.json", ".gitmodules", *project_dirs(), *project_paths(), ".cursor",
              ".husky", ".bastion", ".vscode/settings.json", ".vscode/tasks.json", ".hg/hgrc",
              *root_swept())  # fmt: skip
#: Created in HOME (when HOME is writable), these run at the next login: swept.
HOME_SWEPT = (".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zprofile",
              ".zshenv", ".zlogin", ".config/fish/config.fish", ".gitconfig",
              ".config/git", ".hgrc", ".config/bastion")  # fmt: skip
#: Toolchain files whose settings name a program (policy/named_programs.py).
_NAMING = tuple("/" + naming.name for naming in NAMING_FILES)
_HOOKS_PATH = re.compile(r"^\s*hookspath\s*=\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
_INCLUDE_PATH = re.compile(r"^\s*path\s*=\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)


class ScanBudgetExceeded(ExecError):
    """The walk of the mounted roots would exceed ``[exec] scan_max_entries``."""


@dataclass(frozen=True, slots=True)
class ProtectionPlan:
    hidden: tuple[str, ...] = ()  # credential files and folders found
    readonly: tuple[str, ...] = ()  # protected paths that exist
    swept: tuple[str, ...] = ()  # protected paths that do not exist yet
    #: Folders between a writable root and a protected path, bound onto themselves: a mount
    #: point cannot be renamed or removed, so ``mv .git .g; mkdir .git`` fails (EBUSY).
    pinned: tuple[str, ...] = ()
    #: Protected symlinks (path, target): restored after the run if it replaced them.
    links: tuple[tuple[str, str], ...] = ()


@dataclass
class _Walk:
    is_credential: Callable[[str], bool]
    skip: frozenset[str]
    budget: int
    kept: Kept = field(default_factory=Kept)
    #: Keep the package environments read-only too (the ``workspace-code`` profile).
    packages: bool = False
    seen: int = 0
    hidden: list[str] = field(default_factory=list)
    readonly: list[str] = field(default_factory=list)
    swept: list[str] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)

    def visit(self, root: str) -> None:
        stack = [root]
        while stack:
            folder = stack.pop()
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            self.seen += len(entries)
            if self.seen > self.budget:
                raise ScanBudgetExceeded(_too_big(root, self.budget))
            # Any other git dir (a .git folder was handled when its parent listed it); its
            # hooks run in the repository itself.
            if os.path.basename(folder) != ".git" and (folder.endswith(".git") or _is_git_dir(entries)):
                self._git_dir(folder, folder)
            for entry in entries:
                if self._entry(entry):
                    stack.append(entry.path)

    def _entry(self, entry: os.DirEntry[str]) -> bool:
        """Record one entry; True when the walk should enter it."""
        if entry.path.endswith(_NAMING):  # the toolchain or shell it names (.npmrc too)
            for program in named_by(entry.path):
                self._protect(program)
        if self.is_credential(entry.path):
            self.hidden.append(entry.path)
            return False
        if self.kept and (linked := self.kept.match(entry)) is not None:
            (self.hidden if linked else self.readonly).append(entry.path)
            return False
        name = entry.name
        is_dir = entry.is_dir(follow_symlinks=False)
        if name in PROTECTED_DIRS or name in PROTECTED_FILES or name.endswith(PROTECTED_SUFFIXES):
            self._protect(entry.path)
        if name in PROTECTED_CHILDREN and (is_dir or name == ".git"):
            self._children(entry.path, name)
        if self.packages and is_dir and _package_environment(entry):
            self.readonly.append(entry.path)
        return is_dir and name not in self.skip

    def other_names(self, root: str, kept: Kept) -> None:
        """A second walk for other names of ``kept`` alone (files the first walk found to
        protect that have more than one name: rare), with a budget of its own."""
        stack, seen = [root], 0
        while stack:
            folder = stack.pop()
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            seen += len(entries)
            if seen > self.budget:
                raise ScanBudgetExceeded(_too_big(root, self.budget))
            for entry in entries:
                if self.is_credential(entry.path):
                    continue
                if (linked := kept.match(entry)) is not None:
                    (self.hidden if linked else self.readonly).append(entry.path)
                elif entry.is_dir(follow_symlinks=False) and entry.name not in self.skip:
                    stack.append(entry.path)

    def _children(self, path: str, name: str) -> None:
        if name == ".git":
            self._git(path)
            return
        for child in PROTECTED_CHILDREN[name]:
            self._protect(os.path.join(path, child))
        if name == ".hg":  # what its hgrc loads as an extension or runs as a hook
            for program in hg_programs(os.path.join(path, "hgrc")):
                self._protect(program)

    def _git(self, dotgit: str) -> None:
        """A repository: its config, hooks, info, and a ``core.hooksPath`` folder. A ``.git``
        file (worktree, submodule) points at the real git dir, which is protected too."""
        if os.path.isfile(dotgit) or os.path.islink(dotgit):
            self._protect(dotgit)
        work_tree = os.path.dirname(dotgit)
        for gitdir in [*_git_dirs(dotgit), *_module_dirs(dotgit)]:
            self._git_dir(gitdir, work_tree)

    def _git_dir(self, gitdir: str, work_tree: str) -> None:
        """One git dir: its config, hooks and info, the folder its ``core.hooksPath`` names
        and the files its config includes."""
        for child in GIT_DIR_CHILDREN:
            self._protect(os.path.join(gitdir, child))
        config = os.path.join(gitdir, "config")
        for hooks in _config_paths(_HOOKS_PATH, config, work_tree):
            self._protect(hooks)
        for included in _config_paths(_INCLUDE_PATH, config, gitdir):
            self._protect(included)
        for program in named_by(config):  # core.fsmonitor, textconv, an alias's script…
            self._protect(program)

    def _protect(self, path: str) -> None:
        """A symlink is not bound (its target may lie anywhere): it is put back after the run."""
        if os.path.islink(path):
            with contextlib.suppress(OSError):
                self.links.append((path, os.readlink(path)))
        elif os.path.lexists(path):
            self.readonly.append(path)
        else:
            self.swept.append(path)


def _package_environment(folder: os.DirEntry[str]) -> bool:
    """Is this folder what a project's interpreters and tools load code from: a Python venv
    (it holds ``pyvenv.cfg``: its ``bin/python``, its ``site-packages`` and their ``.pth``
    files run in every later Python of the venv, the editor's included) or ``node_modules``
    (its ``.bin`` launchers, run by editors' integrations and every ``npm run``)?"""
    return folder.name == "node_modules" or os.path.isfile(os.path.join(folder.path, "pyvenv.cfg"))


def _is_git_dir(entries: list[os.DirEntry[str]]) -> bool:
    """A folder git would take for a repository (setup.c ``is_git_directory``): ``HEAD``
    with ``objects`` and ``refs``, or with a ``commondir`` (a linked worktree's git dir)."""
    names = {entry.name for entry in entries}
    return "HEAD" in names and ({"objects", "refs"} <= names or "commondir" in names)


def _git_dirs(dotgit: str) -> list[str]:
    if os.path.isdir(dotgit):
        return [dotgit]
    try:
        with open(dotgit, encoding="utf-8") as handle:
            line = handle.readline(4096)
    except (OSError, UnicodeDecodeError):
        return []
    if not line.startswith("gitdir:"):
        return []
    gitdir = os.path.normpath(os.path.join(os.path.dirname(dotgit), line[7:].strip()))
    found = [gitdir]
    try:
        with open(os.path.join(gitdir, "commondir"), encoding="utf-8") as handle:
            found.append(os.path.normpath(os.path.join(gitdir, handle.readline(4096).strip())))
    except (OSError, UnicodeDecodeError):
        pass
    return found


def _module_dirs(dotgit: str) -> list[str]:
    """Submodules' git dirs (``.git/modules/…``): git reads their config too."""
    found = []
    for folder, dirs, files in os.walk(os.path.join(dotgit, "modules")):
        if "HEAD" in files and "config" in files:
            found.append(folder)
            dirs[:] = [d for d in dirs if d == "modules"]
        dirs[:] = [d for d in dirs if d not in ("objects", "refs", "logs")]
    return found


def _config_paths(pattern: re.Pattern[str], config: str, base: str) -> list[str]:
    """Every ``hooksPath =`` (or include ``path =``) value in a git config, in any section:
    protecting one path too many is the safe side."""
    try:
        with open(config, encoding="utf-8", errors="replace") as handle:
            text = handle.read(1_000_000)
    except OSError:
        return []
    out = []
    for value in pattern.findall(text):
        value = value.strip('"')
        if value.startswith("~/"):
            value = os.path.expanduser(value)
        out.append(os.path.normpath(os.path.join(base, value)))
    return out


def _too_big(root: str, budget: int) -> str:
    return (
        f"the sandbox cannot be checked for credential files: {root} has more than {budget} "
        'entries. Skip a generated tree by its folder name with [exec] scan_skip = ["name", …] '
        "in the policy (its files stay visible, unscanned), raise [exec] scan_max_entries, or "
        "narrow the workspace roots"
    )


def plan_protection(
    writable: Sequence[str],
    readonly: Sequence[str],
    *,
    is_credential: Callable[[str], bool],
    skip: Iterable[str],
    max_entries: int,
    home: str = "",
    kept: Kept | None = None,
    packages: bool = False,
) -> ProtectionPlan:
    """Walk every mounted root once (fails closed past ``max_entries``). ``kept``: files
    outside the roots the profile keeps from the run (``linked.home_kept``), whose other
    names in the roots are hidden or bound read-only like them. ``packages``: the package
    environments in the roots (venvs, ``node_modules``) are bound read-only too."""
    walk = _Walk(is_credential, frozenset(skip), max_entries, kept or Kept(), packages=packages)
    roots = [r for r in dict.fromkeys((*writable, *readonly)) if not walk.is_credential(r)]
    walk.hidden += [r for r in dict.fromkeys((*writable, *readonly)) if r not in roots]
    for root in roots:
        if os.path.isdir(root):
            walk.visit(root)
    # What the walk protects in the roots may have other names in them too (a hard link to
    # a repository's hook): looked for in a second walk only when one has.
    inner, looked = kept_below(walk.hidden, walk.readonly, max_entries)  # a budget of its own
    if looked > max_entries:
        raise ScanBudgetExceeded(_too_big(", ".join(roots), max_entries))
    inner = inner.without(walk.kept)
    for root in roots if inner else ():
        if os.path.isdir(root):
            walk.other_names(root, inner)
    swept = [p for p in walk.swept if any(_inside(p, r) for r in writable)]
    for root in writable:
        swept += [os.path.join(root, name) for name in ROOT_SWEPT]
    if home and any(_inside(home, r) for r in writable):
        swept += [os.path.join(home, name) for name in HOME_SWEPT]
    # Bound by their real path: one that resolves outside the writable roots needs no
    # binding (it is read-only or not mounted), and binding it would expose it.
    real_roots = [os.path.realpath(r) for r in writable]
    ro = [p for p in walk.readonly if any(_inside(os.path.realpath(p), r) for r in real_roots)]
    return ProtectionPlan(
        hidden=tuple(dict.fromkeys(walk.hidden)),
        readonly=tuple(dict.fromkeys(ro)),
        swept=tuple(dict.fromkeys(p for p in swept if not os.path.lexists(p))),
        pinned=tuple(p for p in _ancestors(ro, writable) if not any(_inside(p, r) for r in ro)),
        links=tuple(dict.fromkeys(link for link in walk.links if any(_inside(link[0], r) for r in writable))),
    )


def _ancestors(paths: Iterable[str], roots: Sequence[str]) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for path in paths:
        root = max((r for r in roots if _inside(path, r)), key=len, default=None)
        folder = os.path.dirname(path)
        while root is not None and folder != root and _inside(folder, root):
            found[folder] = None
            folder = os.path.dirname(folder)
    return tuple(found)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")
