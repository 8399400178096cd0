"""A shell command that runs workspace code, allowed because it will run contained.

``make test``, ``pytest``, ``npm test``, ``cargo build``, ``./build.sh``: the classifier
cannot know what they do (the Makefile, the tests and the scripts decide, and an agent could
have written every one of them), so reading them as text never makes them harmless. What
makes them harmless is where they run: the sandbox of a workspace-write profile
(``bastion.exec``) sees only the system's programs, a few ``/etc`` files and the workspace;
HOME is empty, ``/tmp`` private, there is no network, credential files are hidden (by name
and by inode), secret-looking variables are dropped, and the files that make a later tool or
agent run code (hooks, repository config, editor tasks, agent settings) are read-only. The
worst such a run can do is change the workspace, which is what an agent in workspace mode may
do anyway. So, in workspace mode, when the entry point runs what it allows contained, such a
command is allowed with this rule (seed 004: "a sandboxed agent runs its tools without
asking: that is the point of a sandbox").

What still asks or denies is decided before this rule is reached, and it lifts none of it:
a host the command names (it would get network), a path outside the workspace or a
protected one (the sandbox would refuse it: the person is asked for the profile that
allows it), a delete the command declares (what it takes no sandbox gives back: deletes
are decided path by path, ``policy/plain_deletes.py``), a hardline class (privilege,
system, infrastructure, credentials, a catastrophe), an install (the registry is a host),
a database, a command only known at run time, and a read that turns out to run code
nobody asked for (a repository's fsmonitor, a toolchain file, a module shadowing the
standard library): those ask because a person should hear of them, contained or not.

The allow holds only if the call does run contained: the Gatekeeper's containment stage
turns this rule's ALLOW into a question when the call would run as written
(``bastion.runtime.contain.held_to_sandbox``): ``[exec] contain = "off"``, an agent whose
hook cannot rewrite the call, a machine without a working sandbox.
"""

from __future__ import annotations

import dataclasses

from bastion.call.effects import Effect
from bastion.policy.containment import Filesystem, Profile
from bastion.policy.decision import Decision, Evaluation, Reason

#: The rule of an ALLOW that holds only inside the sandbox.
CONTAINED_CODE = "shell.contained-code"

#: What a contained run may do and still harm nothing beyond the workspace: read what the
#: sandbox shows, change the workspace, run code, be a program nobody has described (a
#: write still passes the write path policy first, for the paths it names). Not a delete the
#: command itself declares (``rm -rf build``, ``git clean -ffdx``): the sandbox cannot give
#: back what it takes from the workspace (untracked work, another repository's history in
#: ``.hg``), so a person still says yes to it.
CONTAINABLE = frozenset({Effect.READ, Effect.WRITE, Effect.CODE, Effect.UNKNOWN})

WHY = (
    "not a recognised reader, allowed because it runs contained: the sandbox sees only the "
    "workspace (writable; its venvs, node_modules and protected files read-only) and the "
    "system's programs, with HOME "
    "empty, no network and no credentials"
)


def contained_allow(
    effects: frozenset[Effect] | set[Effect], hosts: tuple[str, ...], matched: str
) -> Reason | None:
    """The ALLOW of a command whose every effect a contained run bounds (``CONTAINABLE``)
    and which names no host; None for any other."""
    if hosts or not effects <= CONTAINABLE:
        return None
    return Reason(Decision.ALLOW, CONTAINED_CODE, "built-in", matched[:200], WHY)


def code_profile(evaluation: Evaluation, profile: Profile) -> Profile:
    """``profile`` for a call allowed only because it runs contained (workspace code the gate
    did not read) that installs nothing: ``workspace-code``, its package environments (venvs,
    ``node_modules``) read-only; any other call's profile as it is."""
    if (
        profile.filesystem is Filesystem.WORKSPACE_WRITE
        and Effect.INSTALL not in evaluation.effects
        and allowed_only_contained(evaluation.reasons)
    ):
        return dataclasses.replace(profile, filesystem=Filesystem.WORKSPACE_CODE)
    return profile


def allowed_only_contained(reasons: tuple[Reason, ...]) -> bool:
    """Does an ALLOW rest on this rule (for at least one of its commands)?"""
    return any(r.rule == CONTAINED_CODE and r.decision is Decision.ALLOW for r in reasons)
