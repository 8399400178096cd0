"""Writes into the folder a repository's ``core.hooksPath`` names ask, like ``.git/hooks``:
git runs what is put there. The folder is only known from the repository's configuration,
so a write inside a workspace root reads it (through the Tree port, once per call)."""

from __future__ import annotations

import posixpath

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.git_config import ConfigSyntax
from bastion.policy.paths import PathVerdict
from bastion.policy.shell_git import hooks_dirs
from bastion.policy.treewalk import OverBudget, Reach


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def hooks_write_reason(policy: Policy, reach: Reach, verdict: PathVerdict) -> Reason | None:
    """An ASK when ``verdict`` (a write) lands in a hooks folder of its repository."""
    spellings = dict.fromkeys((verdict.lexical, verdict.resolved))
    if verdict.decision is Decision.DENY or not any(
        _under(p, root) for p in spellings for root in policy.workspace
    ):
        return None
    try:
        found = hooks_dirs(reach, posixpath.dirname(verdict.resolved), policy.home)
    except (OSError, ConfigSyntax, OverBudget, UnicodeDecodeError) as exc:
        return Reason(
            Decision.ASK,
            "hardline.agent-config",
            "built-in",
            verdict.lexical,
            f"cannot tell whether {verdict.lexical} is a git hooks folder: {exc}",
        )
    for folder, source in found:
        if any(_under(p, folder) for p in spellings):
            return Reason(
                Decision.ASK,
                "hardline.agent-config",
                "built-in",
                f"{verdict.lexical} ~ {folder}",
                f"{verdict.lexical} is in {folder}, the core.hooksPath of {source}: git runs what "
                "is put there, so a person must confirm",
            )
    return None
