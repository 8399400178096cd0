"""A git work tree that holds HOME (#31, suite D: a repository whose ``core.worktree`` is HOME,
a ``.git`` file or ``--work-tree`` making HOME the tree): git commands that read, add, stash or
delete the files git does not track there reach every credential store of HOME.

``git add -A`` puts ``~/.ssh`` into the index (and ``git diff --cached`` prints it), ``git grep
--untracked`` prints it, ``git stash -u`` takes it away into a stash, ``git clean -ffdx`` deletes
it. Each is a credential read (or a destruction) whatever the workspace: denied. A work tree
inside HOME (the project's own) is the everyday case and untouched here; the tracked files of
any work tree are judged by the index (``shell_git._committed_credentials``).
"""

from __future__ import annotations

import posixpath

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.git_config import parse
from bastion.policy.repositories import Repo
from bastion.policy.treewalk import Reach

#: Subcommands that read or remove untracked files, and (for some) only under an option.
_UNTRACKED: dict[str, frozenset[str] | None] = {
    "add": None,  # any pathspec of it (``.``, ``-A``, ``:/``) may name HOME's stores
    "clean": None,
    "stash": frozenset({"-u", "--include-untracked", "-a", "--all"}),
    "grep": frozenset({"--untracked", "--no-index"}),
    # Subcommands that write the work tree: there, HOME's files (``~/.bashrc``) get what the
    # repository holds (suite G: ``git -C r-wt checkout -- .``).
    **{sub: None for sub in ("checkout", "restore", "switch", "merge", "pull", "rebase", "am", "apply")},
    **{sub: None for sub in ("cherry-pick", "revert", "checkout-index")},
    "reset": frozenset({"--hard", "--merge", "--keep"}),
    "read-tree": frozenset({"-u"}),
}
_WRITES_TREE = frozenset({"checkout", "restore", "switch", "merge", "pull", "rebase", "cherry-pick", "revert",
                          "am", "apply", "checkout-index", "reset", "read-tree"})  # fmt: skip


def configured_work_tree(reach: Reach, repo: Repo) -> str | None:
    """The work tree the repository's ``core.worktree`` names (relative to the git dir)."""
    data = reach.read(posixpath.join(repo.git_dir, "config")) or b""
    value = None
    for entry in parse(data.decode("utf-8", "replace")):
        if entry.key == "core.worktree" and entry.value:
            value = entry.value.strip()
    return posixpath.normpath(posixpath.join(repo.git_dir, value)) if value else None


def work_tree_of(reach: Reach, repo: Repo, named: str | None) -> str:
    """git's work tree: ``--work-tree``, else ``core.worktree``, else the folder of the git dir."""
    return named or configured_work_tree(reach, repo) or repo.work_tree or posixpath.dirname(repo.git_dir)


def home_tree_reasons(
    policy: Policy, reach: Reach, repo: Repo, sub: str | None, args: tuple[str, ...], named: str | None
) -> list[Reason]:
    """DENY when ``sub`` reads, stashes or deletes untracked files of a work tree that is HOME
    or holds it; [] otherwise."""
    options = _UNTRACKED.get(sub or "", frozenset())
    if options is not None and not any(a.partition("=")[0] in options or _short(a, options) for a in args):
        return []
    if sub == "clean" and any(a == "--dry-run" or _short(a, frozenset({"-n"})) for a in args):
        return []  # it lists what it would delete: names, nothing read or removed
    tree = posixpath.normpath(work_tree_of(reach, repo, named))
    home = policy.home.rstrip("/")
    if not (home == tree or home.startswith(tree.rstrip("/") + "/")):
        return []
    if sub == "clean":
        rule, what = "hardline.destructive", "deletes the files git does not track there"
    elif sub == "stash":
        rule, what = "hardline.destructive", "takes the files git does not track there away into a stash"
    elif sub in _WRITES_TREE:
        rule, what = "hardline.destructive", "puts what the repository holds in place of the files there"
    else:
        rule, what = "hardline.credentials", "reads the files git does not track there"
    return [
        Reason(
            Decision.DENY,
            rule,
            "built-in",
            tree[:200],
            f"git {sub}'s work tree is {tree}, which holds HOME ({home}) and its credential stores: "
            f"it {what} (never by an agent)",
        )
    ]


def _short(arg: str, options: frozenset[str]) -> bool:
    """A cluster of short options holding one of ``options`` (``-ua``)."""
    return (
        arg.startswith("-")
        and not arg.startswith("--")
        and any(f"-{c}" in options for c in arg[1:] if c.isalpha())
    )
