"""What ``git add`` puts into a repository's objects: every file below the folders it names
(``git add notes``, ``git add .``, ``git add -A``), read whole. A hard link in the workspace to
a credential of HOME is that credential under another name (suite J: ``git add -A && git diff
--cached`` printed ``~/.aws/credentials`` staged through ``notes/aws.txt``): staging it is
reading it, and the next ``git diff --cached``, ``git show :path`` or push hands it on.

Only hard links are looked for here: a file *named* as a credential (``.env``) is usually one
``.gitignore`` keeps out, and a path named on the command line is judged by name already
(``git add .env`` is denied as a read). A symlink is staged as its target's name, not its
content. Tracked files (``git add -u``) are judged by the index (``shell_git``).
"""

from __future__ import annotations

import posixpath

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.paths import FileSystem, hard_link_to_credential
from bastion.policy.treewalk import OverBudget, Reach, walk

#: ``git add`` options that stage what is new below the work tree when no path is named.
_EVERYTHING = frozenset({"-A", "--all", "--no-ignore-removal"})
#: Options that stage only what git already tracks, or nothing.
_TRACKED = frozenset({"-u", "--update", "-n", "--dry-run", "--refresh", "-N", "--intent-to-add"})


def _starts(args: tuple[str, ...], cwd: str, top: str) -> list[str]:
    """The folders (or files) below which ``git add ARGS`` stages new files."""
    options = args[: args.index("--")] if "--" in args else args
    if any(a in _TRACKED for a in options):
        return []
    specs = [a for a in options if not a.startswith("-")]
    if "--" in args:
        specs += list(args[args.index("--") + 1 :])
    if not specs:
        return [top] if any(a in _EVERYTHING for a in options) else []
    # pathspec magic (``:/``, ``:(glob)``) and globs may name anything below the top
    return [
        top
        if spec.startswith(":") or any(c in spec for c in "*?[")
        else posixpath.normpath(posixpath.join(cwd, spec))
        for spec in specs
    ]


def staged_credentials(
    policy: Policy, fs: FileSystem, reach: Reach, args: tuple[str, ...], cwd: str, top: str
) -> list[Reason]:
    """DENY for each hard link to a credential that ``git add ARGS`` (run in ``cwd``, the work
    tree ``top``) would stage; ASK when a walk goes over the budget."""
    found: list[str] = []

    def linked(path: str) -> bool:
        return hard_link_to_credential(policy, fs, path) is not None

    try:
        for start in dict.fromkeys(_starts(args, cwd, top)):
            if start != top and not start.startswith(top.rstrip("/") + "/"):
                continue  # outside the work tree: git refuses it
            if linked(start):
                found.append(start)
                continue
            found += [f.path for f in walk(reach, start, follow_links=False, skip=_git_dirs, flag=linked)]
    except OverBudget as exc:  # a tree too big to walk: what it stages is not known
        message = (
            f"git add stages the files below {exc}, too many to look through for a credential's other name"
        )
        return [
            Reason(
                Decision.ASK,
                "hardline.credentials",
                "built-in",
                top[:200],
                f"{message}: a person must confirm",
            )
        ]
    reasons = []
    for path in list(dict.fromkeys(found))[:10]:
        credential = hard_link_to_credential(policy, fs, path)
        what = (
            f"the credential {path}"
            if credential == path
            else f"{posixpath.relpath(path, top)}, another name (a hard link) of the credential {credential}"
        )
        reasons.append(
            Reason(
                Decision.DENY,
                "hardline.credentials",
                "built-in",
                path[:200],
                f"git add stages {what}: its content goes into the repository, where git diff --cached "
                "prints it; reading a credential, never by an agent",
            )
        )
    return reasons


def _git_dirs(path: str, is_dir: bool) -> bool:
    return is_dir and path.rpartition("/")[2] == ".git"
