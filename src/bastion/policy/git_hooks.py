"""The hooks git would run for an operation on a repository, wherever git looks for them:
the hooks folder of its git dir, its common dir and its submodules' git dirs (which ``git
status`` reads too), and the folders ``core.hooksPath`` names. Reads and writes both ask
when one is there that the agent could have written."""

from __future__ import annotations

import posixpath
from collections.abc import Callable

from bastion.policy.repositories import Repo, hooks_dirs, repository_config_files
from bastion.policy.tree import Kind
from bastion.policy.treewalk import Reach

#: Hooks git runs during a read: ``post-index-change`` whenever the index is written
#: (``git status`` and ``git diff`` refresh it), ``reference-transaction`` on any ref update.
READ_HOOKS = ("post-index-change", "reference-transaction")


def read_hooks(reach: Reach, repo: Repo, home: str, trusted: Callable[[str], bool]) -> list[str]:
    """The hooks that run during a read of ``repo``, except those the agent could not have
    written."""
    return present_hooks(reach, repo, home, READ_HOOKS, trusted)


def present_hooks(
    reach: Reach,
    repo: Repo,
    home: str,
    names: tuple[str, ...] | frozenset[str],
    trusted: Callable[[str], bool],
) -> list[str]:
    """The hooks named ``names`` that are there for ``repo`` (in the hooks folder of its git
    dir, its common dir and its submodules' git dirs, which ``git status`` reads too, or in
    the folders ``core.hooksPath`` names), except those ``trusted`` says the agent could not
    have written."""
    gitdirs = (posixpath.dirname(p) for p in repository_config_files(reach, repo))
    folders = [*(posixpath.join(d, "hooks") for d in gitdirs), *(f for f, _ in hooks_dirs(reach, repo, home))]
    found = []
    for folder in dict.fromkeys(folders):
        for name in names:
            hook = posixpath.join(folder, name)
            if reach.kind(hook, follow=True) is not Kind.MISSING and not trusted(hook):
                found.append(hook)
    return found
