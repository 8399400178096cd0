"""The one boot check every entry point runs before it decides anything.

``bastion serve`` (and the hooks its socket answers), the hooks in process and ``mcp proxy``
build their engine through :func:`bastion.construct.keeper_for`, which runs
:func:`boot_problem` on the policy first: a policy that fails it is treated like one that
does not load (a daemon refuses to start; a hook denies every call with ``policy.invalid``
and the reason, recorded). The commands that decide calls (``check``, ``explain``,
``request``, ``serve``, ``mcp serve``) run :func:`check_boot` when they load the policy
(``configuration_or_exit(..., boot=True)``), exiting 2 with its sentence; ``tool`` calls
:func:`boot_problem` itself, ``launch`` and ``resume`` :func:`check_boot` (so, run from HOME
itself, whose default workspace holds the default credentials dir, they refuse to start an
agent and say why).

What it refuses (configurations that are a hole, not a warning): the credentials dir
inside a readable root, where an agent could read every secret. (The daemon's own refusals
that depend on how it listens — a public address without keys, an approval route open to
agent keys — stay with ``bastion.adapters.http.boot``: only a daemon listens.)
"""

from __future__ import annotations

from bastion.errors import BastionError
from bastion.policy.compiled import Policy


class BootRefused(BastionError):
    """Bastion must not start on this policy; ``hint`` says how to fix it."""

    def __init__(self, message: str, *, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint


def boot_problem(policy: Policy) -> str | None:
    """Why no entry point may start on ``policy``; None when it may."""
    from bastion.exec.secrets import check_credentials_placement

    return check_credentials_placement(policy)


def check_boot(policy: Policy) -> None:
    """Raise BootRefused when :func:`boot_problem` finds one."""
    problem = boot_problem(policy)
    if problem:
        raise BootRefused(problem, hint="fix the policy, then run 'bastion policy test' to check it")
