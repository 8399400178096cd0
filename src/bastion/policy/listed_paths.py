"""The paths a file lists, read as the command that takes them will read them (#31, suite D:
``xargs -a list cat``, ``xargs cat < list``, ``sort --files0-from=list``, awk's
``getline < $0`` over a list).

The classifier cannot know what such a command reads: the names are in a file. The gate can
look: it reads the list (small files only, through the call's ``Reach``) and judges each name
it holds as a read. A name that is a credential (by name, symlink or inode) or a file holding a
secret outside the roots makes the command a credential read: denied. Nothing else is
concluded from the list: it may change before the command runs (an earlier part of the same
call may write it), so a list of harmless names never makes the command allowed; the read of
names only known at run time still asks.
"""

from __future__ import annotations

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.paths import FileSystem, PathError, check_path
from bastion.policy.secret_content import outside_secret
from bastion.policy.tree import Tree
from bastion.policy.treewalk import OverBudget, Reach
from bastion.shell.model import PathUse

#: Names looked at in one list, at most (a longer one is judged by its first ones).
MAX_NAMES = 256


def names_in(data: bytes) -> tuple[str, ...]:
    """The names a list gives: NUL-separated when it holds a NUL (``--files0-from``), else one
    per line and, as xargs splits them, each blank-separated word too."""
    if b"\0" in data:
        parts = data.split(b"\0")
    else:
        lines = data.splitlines()
        parts = [*lines, *(word for line in lines for word in line.split())]
    names = (p.decode("utf-8", "surrogateescape").strip("\"'") for p in parts)
    return tuple(dict.fromkeys(n for n in names if n))[:MAX_NAMES]


def listed_reasons(
    policy: Policy, fs: FileSystem, tree: Tree, reach: Reach, use: PathUse, *, cwd: str
) -> list[Reason]:
    """DENY reasons for each credential among the names ``use.listed_in`` lists; [] when it
    names none, or cannot be read (its read is judged as any other path of the command)."""
    if use.listed_in is None:
        return []
    try:
        listing = check_path(policy, use.listed_in, write=False, cwd=cwd, fs=fs).resolved
        data = reach.read(listing)
    except (OSError, OverBudget, PathError):
        return []
    if data is None:
        return []
    reasons: list[Reason] = []
    for name in names_in(data):
        try:
            verdict = outside_secret(tree, check_path(policy, name, write=False, cwd=cwd, fs=fs), write=False)
        except PathError:
            continue
        if verdict.decision is Decision.DENY:
            reasons.extend(
                Reason(
                    Decision.DENY,
                    r.rule,
                    r.source,
                    r.matched,
                    f"{use.listed_in} lists {name} ({use.why}): {r.message}"[:400],
                )
                for r in verdict.reasons
                if r.decision is Decision.DENY
            )
    return reasons
