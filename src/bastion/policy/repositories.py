"""What makes a folder a repository, and the files in one that make git or Mercurial run
a program: a write there asks, like a write to ``.git/hooks`` (#30 item 6).

A git dir is what git's ``is_git_directory`` (setup.c) accepts: a ``HEAD`` file with
``objects`` and ``refs`` folders, or with a ``commondir`` (a linked worktree's git dir),
whatever the folder's name: a bare ``data/x.git``, a bare ``data/y``, the folder a ``.git``
file's ``gitdir:`` names, a submodule's ``.git/modules/lib``. In one, ``config``,
``config.worktree``, ``hooks/`` and ``info/`` decide what git runs; so does the folder a
``core.hooksPath`` names. A folder named ``*.git`` counts before it is one (``git init
--bare x.git && echo … > x.git/hooks/…`` in one call). A path named ``.git`` tells git where
a repository is (``echo 'gitdir: /elsewhere' > lib/.git``). In Mercurial's ``.hg``,
``hgrc`` (and ``hgrc-not-shared``) holds hooks and extensions.

The folders are only known from the file system, so a write inside a write root looks
(through the Tree port, a few lookups per ancestor, once per call).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.git_config import ConfigSyntax, Entry, is_include, parse
from bastion.policy.paths import FileSystem, PathVerdict, check_path
from bastion.policy.tree import Kind
from bastion.policy.treewalk import OverBudget, Reach

#: In a git dir: what git reads to decide what it runs.
GIT_CONTROL = frozenset({"config", "config.worktree", "hooks", "info"})
#: In a ``.hg`` folder: what Mercurial reads for hooks and extensions.
HG_CONTROL = frozenset({"hgrc", "hgrc-not-shared"})


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder and folder[-1] != "/" else folder + name


def is_git_dir(reach: Reach, folder: str) -> bool:
    """Whether git would take ``folder`` for a repository's git dir."""
    if reach.kind(_join(folder, "HEAD"), follow=True) is not Kind.FILE:
        return False
    if reach.kind(_join(folder, "commondir"), follow=True) is Kind.FILE:
        return True
    return (
        reach.kind(_join(folder, "objects"), follow=True) is Kind.DIR
        and reach.kind(_join(folder, "refs"), follow=True) is Kind.DIR
    )


@dataclass(frozen=True, slots=True)
class Control:
    """A path that decides what a repository runs: ``repository`` is the git dir (or
    ``.hg`` folder), ``part`` what the path is in it."""

    path: str
    repository: str
    part: str


def control_of(reach: Reach, path: str, stop: str) -> Control | None:
    """The repository ``path`` is control state of, looking up no higher than ``stop``."""
    if posixpath.basename(path) == ".git":
        return Control(path, path, ".git (where git finds a repository)")
    child, folder = path, posixpath.dirname(path)
    while True:
        first = posixpath.basename(child)  # the path's first part below ``folder``
        name = posixpath.basename(folder)
        if first in GIT_CONTROL and (name.endswith(".git") or is_git_dir(reach, folder)):
            return Control(path, folder, first)
        if first in HG_CONTROL and name == ".hg":
            return Control(path, folder, first)
        if folder == stop or not folder.startswith(stop.rstrip("/") + "/") or folder == "/":
            return None
        child, folder = folder, posixpath.dirname(folder)


@dataclass(frozen=True, slots=True)
class Repo:
    git_dir: str
    work_tree: str | None


def discover(reach: Reach, start: str) -> Repo | None:
    """The repository git finds from ``start`` (resolved, walking up)."""
    current = reach.resolve(start)
    while True:
        dotgit = _join(current, ".git")
        kind = reach.kind(dotgit, follow=True)
        if kind is Kind.DIR:
            return Repo(dotgit, current)
        if kind is Kind.FILE:
            data = reach.read(dotgit) or b""
            text = data.decode("utf-8", "replace").strip()
            if not text.startswith("gitdir:"):
                raise OSError(f"{dotgit} is a file but not a 'gitdir:' pointer")
            return Repo(posixpath.join(current, text[len("gitdir:") :].strip()), current)
        if is_git_dir(reach, current):
            return Repo(current, None)
        parent = posixpath.dirname(current)
        if parent == current:
            return None
        current = parent


_MAX_INCLUDE_DEPTH = 10
_MAX_MODULE_DEPTH = 4


def repository_config_files(reach: Reach, repo: Repo) -> list[str]:
    """Every repository-level file git loads for ``repo`` (before includes): ``config``,
    ``config.worktree``, the common dir's ``config``, every submodule's git dir's."""
    files = [posixpath.join(repo.git_dir, "config"), posixpath.join(repo.git_dir, "config.worktree")]
    common = reach.read(posixpath.join(repo.git_dir, "commondir"))
    common_dir = repo.git_dir
    if common is not None:
        common_dir = posixpath.join(repo.git_dir, common.decode("utf-8", "replace").strip())
        files.append(posixpath.join(common_dir, "config"))
    files.extend(_module_configs(reach, posixpath.join(common_dir, "modules"), 0))
    return files


def global_config_files(home: str) -> list[str]:
    """The person's own git configuration (``/etc/gitconfig`` is read separately)."""
    return [posixpath.join(home, ".gitconfig"), posixpath.join(home, ".config", "git", "config")]


def _module_configs(reach: Reach, folder: str, depth: int) -> list[str]:
    if depth > _MAX_MODULE_DEPTH or reach.kind(folder, follow=True) is not Kind.DIR:
        return []
    out = []
    for entry in reach.listdir(folder):
        module = posixpath.join(folder, entry.name)
        if entry.kind is Kind.DIR:
            out.append(posixpath.join(module, "config"))
            out.extend(_module_configs(reach, posixpath.join(module, "modules"), depth + 1))
            # Submodules named with a slash (lib/a) nest without a "modules" level.
            out.extend(_module_configs(reach, module, depth + 1))
    return [p for p in out if not p.endswith("/config/config")]


def include_target(entry: Entry, path: str, home: str, depth: int) -> tuple[str, int]:
    """The file an ``include.path`` entry of ``path`` names, one level deeper."""
    if depth >= _MAX_INCLUDE_DEPTH or not entry.value:
        raise ConfigSyntax(entry.line, f"include nested deeper than {_MAX_INCLUDE_DEPTH} or empty")
    target = entry.value.strip()
    if target == "~" or target.startswith("~/"):
        target = home + target[1:]
    return posixpath.join(posixpath.dirname(path), target), depth + 1


def config_entries(
    reach: Reach,
    files: Iterable[tuple[str, bool]],
    home: str,
    trusted: Callable[[str], bool] = lambda _: False,
) -> Iterator[tuple[str, Entry, bool]]:
    """Every entry of ``files`` and of what they include (each file once, includes followed
    where git follows them), with whether it is the person's own choice: in a file marked so
    that ``trusted`` also holds for, or included by one whose file it holds for too. Raises
    OSError, ConfigSyntax (not UTF-8; includes nested too deep), OverBudget."""
    seen: set[str] = set()
    todo = [(path, 0, own) for path, own in files]
    while todo:
        path, depth, own = todo.pop(0)
        if path in seen:
            continue
        seen.add(path)
        data = reach.read(path)
        if data is None:
            continue
        try:
            entries = parse(data.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise ConfigSyntax(1, "not UTF-8") from exc
        mine = own and trusted(path)
        for entry in entries:
            if is_include(entry):
                todo.append((*include_target(entry, path, home, depth), mine))
            else:
                yield path, entry, mine


def hooks_dirs(reach: Reach, repo: Repo, home: str) -> list[tuple[str, str]]:
    """The folders ``core.hooksPath`` names for ``repo``, each with the file that sets it:
    git runs any program put there. Raises OSError, ConfigSyntax, OverBudget."""
    base = repo.work_tree or repo.git_dir
    out: list[tuple[str, str]] = []
    files = (*repository_config_files(reach, repo), *global_config_files(home))
    for path, entry, _ in config_entries(reach, ((f, False) for f in files), home):
        if entry.key == "core.hookspath" and entry.value:
            value = entry.value.strip()
            value = home + value[1:] if value == "~" or value.startswith("~/") else value
            out.append((posixpath.normpath(posixpath.join(base, value)), path))
    return out


def agent_cannot_write(policy: Policy, fs: FileSystem, path: str) -> bool:
    """The person's own choice: outside every write root (by both spellings) and guarded
    (a direct write would ask or be denied), so the agent could not have written it."""
    verdict = check_path(policy, path, write=True, cwd="/", fs=fs)
    spellings = (verdict.lexical, verdict.resolved)
    if any(p == r or p.startswith(r.rstrip("/") + "/") for p in spellings for r in policy.write_roots):
        return False
    return verdict.decision in (Decision.ASK, Decision.DENY)


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _ask(verdict: PathVerdict, matched: str, message: str) -> Reason:
    return Reason(Decision.ASK, "hardline.agent-config", "built-in", matched, message)


def repository_write_reason(policy: Policy, reach: Reach, verdict: PathVerdict) -> Reason | None:
    """An ASK when ``verdict`` (a write) lands in what a repository runs: a git dir's config,
    hooks or info, a ``core.hooksPath`` folder, a ``.git`` pointer, Mercurial's hgrc."""
    spellings = tuple(dict.fromkeys((verdict.lexical, verdict.resolved)))
    roots = [r for r in policy.write_roots if any(_under(p, r) for p in spellings)]
    guarded = any(r.rule == "hardline.agent-config" for r in verdict.reasons)  # asks already
    if verdict.decision is Decision.DENY or guarded or not roots:
        return None
    try:
        for spelling in spellings:
            for root in roots:
                found = control_of(reach, spelling, root) if _under(spelling, root) else None
                if found is not None:
                    return _ask(
                        verdict,
                        f"{verdict.lexical} ~ {found.repository}",
                        f"{verdict.lexical} is the {found.part} of the repository {found.repository}: "
                        "git or Mercurial runs what it names or holds, so a person must confirm",
                    )
        repo = discover(reach, posixpath.dirname(verdict.resolved))
        hooks = hooks_dirs(reach, repo, policy.home) if repo is not None else []
    except (OSError, ConfigSyntax, OverBudget, UnicodeDecodeError) as exc:
        return _ask(verdict, verdict.lexical, f"cannot tell whether {verdict.lexical} is a repository's "
                    f"hooks or configuration: {exc}")  # fmt: skip
    for folder, source in hooks:
        if any(_under(p, folder) for p in spellings):
            return _ask(
                verdict,
                f"{verdict.lexical} ~ {folder}",
                f"{verdict.lexical} is in {folder}, the core.hooksPath of {source}: git runs what "
                "is put there, so a person must confirm",
            )
    return None
