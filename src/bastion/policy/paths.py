"""Path policy: normalise a path, then decide read or write access with reasons.

The lexical path (``~`` expanded, made absolute, ``..`` collapsed) and its symlink-resolved
target are both checked: deny if either is denied, allow only if both are allowed. A path
that does not exist yet resolves through its deepest existing ancestor.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Protocol

from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision, Effect, Reason
from bastion.policy.globs import GlobSet
from bastion.policy.hardline import HARMLESS_DEVICES

#: Longer paths than this are refused (PATH_MAX on Linux).
MAX_PATH = 4096


class FileSystem(Protocol):
    """The only I/O a path decision needs."""

    def realpath(self, path: str) -> str: ...

    def is_symlink_loop(self, resolved: str) -> bool: ...


class OsFileSystem:
    def realpath(self, path: str) -> str:
        return os.path.realpath(path)

    def is_symlink_loop(self, resolved: str) -> bool:
        # Non-strict realpath stops at a loop and returns a path that is still a link.
        return os.path.islink(resolved)


class PathError(ValueError):
    """A path that cannot be checked (NUL byte, not UTF-8, too long)."""


@dataclass(frozen=True, slots=True)
class PathVerdict:
    """``decision`` None: the path policy has no opinion (the mode decides)."""

    decision: Decision | None
    reasons: tuple[Reason, ...]
    effects: frozenset[Effect]
    lexical: str
    resolved: str
    inside_roots: bool  # both spellings inside the roots for this access


def normalise(path: str, *, cwd: str, home: str) -> str:
    if "\x00" in path:
        raise PathError("path contains a NUL byte")
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        raise PathError("path is not valid UTF-8") from None
    if len(path) > MAX_PATH:
        raise PathError(f"path is longer than {MAX_PATH} characters")
    if path == "~" or path.startswith("~/"):
        path = home + path[1:]
    return os.path.normpath(os.path.join(cwd, path))


def _under(path: str, roots: tuple[str, ...]) -> str | None:
    for root in roots:
        if path == root or path.startswith(root.rstrip("/") + "/"):
            return root
    return None


def check_path(policy: Policy, path: str, *, write: bool, cwd: str, fs: FileSystem) -> PathVerdict:
    """Decide one path for read (``write=False``) or write access."""
    try:
        lexical = normalise(path, cwd=cwd, home=policy.home)
    except PathError as exc:
        reason = Reason(Decision.DENY, "paths.invalid", "built-in", repr(path)[:200], str(exc))
        return PathVerdict(Decision.DENY, (reason,), frozenset({Effect.UNKNOWN}), path, path, False)
    resolved = fs.realpath(lexical)
    if fs.is_symlink_loop(resolved):
        reason = Reason(
            Decision.DENY, "paths.symlink-loop", "built-in", lexical, f"{lexical} is a symlink loop"
        )
        return PathVerdict(Decision.DENY, (reason,), frozenset({Effect.UNKNOWN}), lexical, resolved, False)
    spellings = (lexical,) if resolved == lexical else (lexical, resolved)
    hard = policy.hardline
    denies: list[Reason] = []
    asks: list[Reason] = []
    effects: set[Effect] = {Effect.WRITE if write else Effect.READ}
    verb = "write" if write else "read"

    def hit(
        globs: GlobSet,
        rule: str,
        spelled: str,
        message: str,
        into: list[Reason],
        decision: Decision,
        effect: Effect | None = None,
    ) -> None:
        glob = globs.first_match(spelled)
        if glob is not None:
            into.append(Reason(decision, rule, glob.source, f"{spelled} ~ {glob.pattern}", message))
            if effect is not None:
                effects.add(effect)

    for spelled in spellings:
        via = "" if spelled == lexical else f" (symlink target of {lexical})"
        hit(
            hard.credentials,
            "hardline.credentials",
            spelled,
            f"{spelled}{via} is a credential location: never {verb} by an agent",
            denies,
            Decision.DENY,
            Effect.CREDENTIALS,
        )
        hit(
            hard.self_state if not write else hard.self_deny,
            "hardline.self",
            spelled,
            f"{spelled}{via} is Bastion's own policy or state: an agent must not change its own rules",
            denies,
            Decision.DENY,
            Effect.SELF,
        )
        if write:
            if spelled not in HARMLESS_DEVICES:
                hit(
                    hard.system_write,
                    "hardline.system",
                    spelled,
                    f"{spelled}{via} is a system location: never written by an agent",
                    denies,
                    Decision.DENY,
                    Effect.SYSTEM,
                )
            hit(
                hard.self_ask,
                "hardline.agent-config",
                spelled,
                f"{spelled}{via} controls agent permissions or shell start-up: a person must confirm",
                asks,
                Decision.ASK,
                Effect.SELF,
            )
            hit(
                policy.deny_write,
                "paths.deny_write",
                spelled,
                f"{spelled}{via} is in deny_write",
                denies,
                Decision.DENY,
            )
        else:
            hit(
                policy.deny_read,
                "paths.deny_read",
                spelled,
                f"{spelled}{via} is in deny_read",
                denies,
                Decision.DENY,
            )
    if denies:
        return PathVerdict(Decision.DENY, tuple(denies), frozenset(effects), lexical, resolved, False)
    roots = policy.write_roots if write else policy.read_roots
    allow_globs = policy.allow_write if write else policy.allow_read
    allowed: list[Reason] = []
    for spelled in spellings:
        root = _under(spelled, roots)
        if root is not None:
            allowed.append(
                Reason(
                    Decision.ALLOW,
                    "paths.roots",
                    policy.mode_source,
                    root,
                    f"{spelled} is inside {'a writable' if write else 'a readable'} root",
                )
            )
            continue
        glob = allow_globs.first_match(spelled)
        if glob is not None:
            allowed.append(
                Reason(
                    Decision.ALLOW,
                    f"paths.allow_{verb}",
                    glob.source,
                    f"{spelled} ~ {glob.pattern}",
                    f"{spelled} is in allow_{verb}",
                )
            )
    inside = len(allowed) == len(spellings)
    if asks:
        return PathVerdict(Decision.ASK, tuple(asks), frozenset(effects), lexical, resolved, inside)
    if inside:
        return PathVerdict(Decision.ALLOW, tuple(allowed), frozenset(effects), lexical, resolved, True)
    outside = Reason(
        Decision.ASK,
        "paths.outside-roots",
        policy.mode_source,
        lexical,
        f"{lexical}{' -> ' + resolved if resolved != lexical else ''} is outside every "
        f"{'writable' if write else 'readable'} root",
    )
    return PathVerdict(None, (outside,), frozenset(effects), lexical, resolved, False)


def inside_write_roots(policy: Policy, verdict: PathVerdict) -> bool:
    """For the ``workspace_write`` ceiling: both spellings under a workspace/rw root."""
    return all(_under(p, policy.write_roots) is not None for p in {verdict.lexical, verdict.resolved})
