"""The policy the daemon decides with, and reloading it when its file changes.

Each reload builds a new, immutable Gatekeeper (sharing the store and the ledger); a call
in flight keeps the one it started with. A reload that fails leaves the daemon *broken*:
every call is denied with the load error as its reason until the file is fixed.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bastion.errors import BastionError
from bastion.policy.compiled import Policy
from bastion.policy.decision import Evaluation, deny_for_error
from bastion.policy.loader import TRUST_FILE, find_project_file, load_policy, state_dir_from
from bastion.runtime import Gatekeeper

log = logging.getLogger("bastion.http")

Fingerprint = tuple[tuple[str, tuple[int, int, int] | None], ...]


def watched_files(policy_path: str | None, *, cwd: str, env: Mapping[str, str]) -> tuple[str, ...]:
    """Every file whose change can change the policy that applies."""
    explicit = policy_path or env.get("BASTION_POLICY")
    if explicit:
        return (os.path.abspath(explicit),)
    home = env.get("HOME") or os.path.expanduser("~")
    user = os.path.join(home, ".config", "bastion", "policy.toml")
    project = find_project_file(cwd) or os.path.join(cwd, ".bastion", "policy.toml")
    return (user, project, os.path.join(state_dir_from(env), TRUST_FILE))


def fingerprint(paths: tuple[str, ...]) -> Fingerprint:
    out: list[tuple[str, tuple[int, int, int] | None]] = []
    for path in paths:
        try:
            st = os.stat(path)
            out.append((path, (st.st_mtime_ns, st.st_size, st.st_ino)))
        except OSError:
            out.append((path, None))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What decides right now: a keeper, or the error that broke the last reload."""

    keeper: Gatekeeper
    error: BastionError | None = None

    def broken_answer(self) -> Evaluation | None:
        if self.error is None:
            return None
        return deny_for_error(f"the policy failed to load, so every call is denied until it is "
                              f"fixed: {self.error}", rule="policy.invalid")


class PolicyHolder:
    def __init__(self, first: Gatekeeper, *, policy_path: str | None, cwd: str,
                 env: Mapping[str, str], build: Callable[[Policy], Gatekeeper]) -> None:
        self.policy_path = policy_path
        self.cwd = cwd
        self.env = env
        self.build = build
        self.snapshot = Snapshot(first)
        self.files = watched_files(policy_path, cwd=cwd, env=env)
        self._seen = fingerprint(self.files)

    def changed(self) -> bool:
        return fingerprint(self.files) != self._seen

    def reload(self) -> Snapshot:
        """Load again; on failure keep the last keeper (for its stores) but mark it broken."""
        self._seen = fingerprint(self.files)
        try:
            policy = load_policy(self.policy_path, cwd=self.cwd, env=self.env)
        except BastionError as exc:
            log.error("policy reload failed; denying every call until it is fixed: %s", exc)
            self.snapshot = Snapshot(self.snapshot.keeper, exc)
            return self.snapshot
        self.snapshot = Snapshot(self.build(policy))
        log.info("policy reloaded from %s", ", ".join(policy.sources) or "built-in defaults")
        return self.snapshot

    def reload_if_changed(self) -> bool:
        if not self.changed():
            return False
        self.reload()
        return True
