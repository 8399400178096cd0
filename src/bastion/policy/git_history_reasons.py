"""What a git command printing the repository's history means for the decision: DENY for
each credential (by name, or by a secret its lines hold) a printed commit or tree changes,
ASK when what it prints cannot be known. ``git_history`` reads what is printed."""

from __future__ import annotations

import posixpath

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.git_file_printers import file_printed
from bastion.policy.git_history import changed_paths
from bastion.policy.git_objects import PastTheRoot
from bastion.policy.git_revisions import HistoryUnknown, printed
from bastion.policy.search_lines import grep_lines
from bastion.policy.tree import Kind
from bastion.policy.treewalk import Reach


def history_reasons(
    policy: Policy, reach: Reach, git_dir: str, base: str, cwd: str, sub: str | None, args: tuple[str, ...]
) -> list[Reason]:
    """DENY for each credential file (by the policy's globs, on its work-tree path under
    ``base``) that the history ``git SUB ARGS`` prints changes; ASK when what it prints
    cannot be known (an unknown option or revision, a merge's changes, the budget)."""
    try:
        what = printed(sub, args) or file_printed(sub, args)
        if what is None:
            return []
        inside = cwd == base or cwd.startswith(base.rstrip("/") + "/")
        prefix = posixpath.relpath(cwd, base) if inside else None
        lines = grep_lines("grep", ("grep", *args)) if sub == "grep" else None
        changes = changed_paths(git_dir, what, lambda word: _exists(reach, cwd, word), prefix, lines)
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
        where = (
            f"as it was at {change.commit}"
            if change.whole
            else f"as commit {change.commit} changed it"
            if change.commit
            else "as the trees differ in it"
        )
        named = hardline.credentials.first_match(path) or hardline.secrets_read.first_match(path)
        if named is None and change.secret is not None:
            reasons.append(
                Reason(
                    Decision.DENY if change.certain else Decision.ASK,
                    "hardline.credentials",
                    "built-in",
                    path[:200],
                    f"git {sub} prints lines of {change.path} {where}, which {change.secret}: "
                    "a credential in the repository's history, never read by an agent",
                )
            )
            continue
        if named is None:
            continue
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
