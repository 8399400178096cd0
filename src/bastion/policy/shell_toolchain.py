"""A toolchain command in a directory whose files choose the toolchain: what runs is what
those files name (``programs/toolchains.py``), so even ``cargo --version`` is code there.

The files are looked for in every directory the command may run in and its parents, up to
but not including the home directory (the person's own ``~/.tool-versions`` is their
choice, out of an agent's reach; a workspace, or a directory that arrived as an archive, is
not). Through the call's ``Reach``: no I/O of its own, within the call's budget.
"""

from __future__ import annotations

import posixpath
import re

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Reason
from bastion.policy.tree import Kind
from bastion.policy.treewalk import OverBudget, Reach
from bastion.shell.model import SimpleCommand
from bastion.shell.programs.rcfiles import cwd_rc_files
from bastion.shell.programs.toolchains import directive_files, selecting_files


def check_toolchain(
    policy: Policy, reach: Reach, cmd: SimpleCommand, cwds: tuple[str, ...] | None
) -> list[Reason]:
    """ASK reasons for each file that selects ``cmd``'s toolchain, and for each option file
    it (or a wrapper it runs under) reads from where it runs (``check_rc_files``); one when
    the folder it runs in is only known at run time."""
    rcs = check_rc_files(policy, reach, cmd, cwds)
    files = selecting_files(cmd.program)
    directives = directive_files(cmd.program)
    if not (files or directives):
        return rcs
    if cwds is None:
        return [_reason(cmd, "?", "runs in a folder only known at run time, whose files may choose it")]
    reasons: list[Reason] = rcs
    try:
        for folder in dict.fromkeys(d for cwd in cwds for d in folders_below_home(cwd, policy.home)):
            for name in files:
                path = posixpath.join(folder, name)
                if reach.kind(path, follow=False) is not Kind.MISSING:
                    reasons.append(_reason(cmd, path, f"{path} chooses what it runs"))
            for name, pattern in directives:
                path = posixpath.join(folder, name)
                if reach.kind(path, follow=False) is not Kind.MISSING and _directs(reach, path, pattern):
                    reasons.append(_reason(cmd, path, f"a directive in {path} chooses what it runs"))
    except OverBudget as exc:
        reasons.append(_reason(cmd, exc.where, "too many lookups to tell which toolchain runs"))
    return reasons


def check_rc_files(
    policy: Policy, reach: Reach, cmd: SimpleCommand, cwds: tuple[str, ...] | None
) -> list[Reason]:
    """ASK reasons for each option file that ``cmd``'s program, or a wrapper it runs under,
    reads from where it runs (``programs/rcfiles.py``: ``valgrind`` beside a
    ``.valgrindrc``); one when the folder it runs in is only known at run time. With no
    such file present the program stays what its table says (a reader)."""
    names = [n for n in dict.fromkeys((cmd.program, *cmd.wrappers)) if n]
    rcs = [(name, rc) for name in names for rc in cwd_rc_files(name)]
    if not rcs:
        return []
    first = rcs[0][0]
    if cwds is None:
        return [_rc_reason(first, "?", "runs in a folder known only at run time: its option files")]
    reasons: list[Reason] = []
    try:
        for cwd in dict.fromkeys(cwds):
            for name, rc in rcs:
                here = [posixpath.normpath(cwd)]
                for folder in folders_below_home(cwd, policy.home) if rc.parents else here:
                    path = posixpath.join(folder, rc.name)
                    if reach.kind(path, follow=True) is not Kind.MISSING:
                        reasons.append(_rc_reason(name, path, f"reads {path}: {rc.why}"))
    except OverBudget as exc:
        reasons.append(_rc_reason(first, exc.where, "too many lookups to tell which option files it reads"))
    return reasons


def _rc_reason(program: str, where: str, why: str) -> Reason:
    return Reason(
        Decision.ASK,
        "shell.rc-file",
        "built-in",
        where,
        f"'{program}' {why}: an option file where it runs decides what it does",
    )


def _directs(reach: Reach, path: str, pattern: re.Pattern[bytes]) -> bool:
    """Does the file hold the directive? One that cannot be read (or is too large) may."""
    try:
        data = reach.read(path)
    except OSError:
        return True
    return data is not None and pattern.search(data) is not None


def folders_below_home(cwd: str, home: str) -> list[str]:
    """``cwd`` and its parents, below the home directory (or up to / outside it)."""
    folder = posixpath.normpath(cwd)
    home = posixpath.normpath(home)
    found: list[str] = []
    while True:
        if folder == home or (home.startswith(folder.rstrip("/") + "/") and folder != cwd):
            return found  # the home directory and its parents are the person's own
        found.append(folder)
        parent = posixpath.dirname(folder)
        if parent == folder:
            return found
        folder = parent


def _reason(cmd: SimpleCommand, where: str, why: str) -> Reason:
    return Reason(
        Decision.ASK,
        "shell.toolchain",
        "built-in",
        where,
        f"'{cmd.program}': {why}: a toolchain chosen by a workspace file is code",
    )
