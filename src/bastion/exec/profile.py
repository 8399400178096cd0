"""The sandbox profile a run gets, as the runner reads it.

The profile is a value of the decision (:mod:`bastion.policy.containment`, computed once by
the Gatekeeper's containment stage); this module gives the runner's side of it: the names
it parses from ``bastion sandbox run`` (an ``ExecError`` for a bad one) and, for the
callers that run a command the gate did not just judge, the hosts a command names.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bastion.exec.runner import ExecError
from bastion.policy.containment import (
    READ_ONLY_EFFECTS,
    Contain,
    Filesystem,
    Network,
    Profile,
    ProfileError,
    analysis_hosts,
    profile_for,
)
from bastion.policy.containment import parse_profile as _parse


def parse_profile(filesystem: str, hosts: Iterable[Any] = (), writes: Iterable[Any] = ()) -> Profile:
    """:func:`bastion.policy.containment.parse_profile`, failing as the runner fails."""
    try:
        return _parse(filesystem, hosts, writes)
    except ProfileError as exc:
        raise ExecError(str(exc)) from None


def shell_hosts(command: str, cwd: str | None = None, home: str | None = None) -> tuple[str, ...]:
    """The hosts a shell command names (a fresh parse: the gate's own answer carries them
    in ``Evaluation.profile``; this is for a run that has no decision to read), and with
    ``cwd`` and ``home`` those its git remotes' names lead to (``git push origin``)."""
    from bastion.shell.analysis import analyze, as_written

    analysis = as_written(analyze(command))
    if cwd is None or home is None:
        return analysis_hosts(analysis)
    from bastion.policy.git_remotes import analysis_remote_hosts

    return (*analysis_hosts(analysis), *analysis_remote_hosts(analysis, cwd, home))


__all__ = [
    "READ_ONLY_EFFECTS",
    "Contain",
    "Filesystem",
    "Network",
    "Profile",
    "parse_profile",
    "profile_for",
    "shell_hosts",
]
