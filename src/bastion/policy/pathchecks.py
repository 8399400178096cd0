"""The deny/ask glob checks a path goes through, per access, compiled once per policy.

Order matters only for which reasons are listed; any DENY wins. A combined guard regex per
access lets the common case — a path that hits nothing — cost one regex search.
"""

from __future__ import annotations

from dataclasses import dataclass

from bastion.call.effects import Effect
from bastion.policy.credential_inodes import Places
from bastion.policy.decision import Decision
from bastion.policy.globs import GlobSet
from bastion.policy.hardline import HARMLESS_DEVICES, Hardline


@dataclass(frozen=True, slots=True)
class PathCheck:
    globs: GlobSet
    rule: str
    template: str  # formatted with spelled, via, verb
    decision: Decision
    effect: Effect | None = None
    skip: frozenset[str] = frozenset()  # exact paths this check never applies to


@dataclass(frozen=True, slots=True)
class PathChecks:
    read: tuple[PathCheck, ...]
    write: tuple[PathCheck, ...]
    read_guard: GlobSet
    write_guard: GlobSet
    #: What the read checks deny as a credential (also recognised by (device, inode)), and
    #: where below HOME it starts.
    credentials: Places


def build_path_checks(hard: Hardline, deny_read: GlobSet, deny_write: GlobSet, home: str) -> PathChecks:
    credentials = PathCheck(
        hard.credentials,
        "hardline.credentials",
        "{spelled}{via} is a credential location: never {verb} by an agent",
        Decision.DENY,
        Effect.CREDENTIALS,
    )
    own = "{spelled}{via} is Bastion's own policy or state: an agent must not change its own rules"
    read = (
        credentials,
        PathCheck(
            hard.secrets_read,
            "hardline.credentials",
            "{spelled}{via} holds secrets by what it is for: never {verb} by an agent",
            Decision.DENY,
            Effect.CREDENTIALS,
        ),
        PathCheck(hard.self_state, "hardline.self", own, Decision.DENY, Effect.SELF),
        PathCheck(deny_read, "paths.deny_read", "{spelled}{via} is in deny_read", Decision.DENY),
    )
    write = (
        credentials,
        PathCheck(hard.self_deny, "hardline.self", own, Decision.DENY, Effect.SELF),
        PathCheck(
            hard.system_write,
            "hardline.system",
            "{spelled}{via} is a system location: never written by an agent",
            Decision.DENY,
            Effect.SYSTEM,
            HARMLESS_DEVICES,
        ),
        PathCheck(
            hard.self_ask,
            "hardline.agent-config",
            "{spelled}{via} controls agent permissions or shell start-up: a person must confirm",
            Decision.ASK,
            Effect.SELF,
        ),
        PathCheck(
            hard.later_code,
            "hardline.agent-config",
            "{spelled}{via} makes code run later without anyone choosing to run it (CI on push, an "
            "editor or agent on open, a tool's every start, a commit, a program the project's tools "
            "run by name): a person must confirm",
            Decision.ASK,
            Effect.SELF,
        ),
        PathCheck(deny_write, "paths.deny_write", "{spelled}{via} is in deny_write", Decision.DENY),
    )
    return PathChecks(
        read=read,
        write=write,
        read_guard=GlobSet.of([g for c in read for g in c.globs.globs]),
        write_guard=GlobSet.of([g for c in write for g in c.globs.globs]),
        credentials=Places.of(
            GlobSet.of([g for c in read if c.effect is Effect.CREDENTIALS for g in c.globs.globs]), home
        ),
    )
