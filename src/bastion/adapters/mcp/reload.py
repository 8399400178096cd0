"""Policy reload for a long-running adapter: a new immutable Policy when a file changes.

Every call asks :meth:`PolicyWatch.current` for the Gatekeeper to use and keeps it to the
end of that call, so a check and the execution after it always see the same policy. The
files are stat'ed on each call (a few microseconds); when one changed, appeared or
vanished, the policy is loaded again. A load that fails leaves the watch *broken*: every
call is denied with the load error as its reason until a later change loads cleanly.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bastion.errors import BastionError
from bastion.policy.compiled import Policy
from bastion.policy.decision import Evaluation, deny_for_error
from bastion.policy.engine import Gate
from bastion.policy.loader import TRUST_FILE, find_project_file, load_policy, state_dir_from
from bastion.policy.network import SystemResolver
from bastion.runtime import Gatekeeper, open_gatekeeper

Fingerprint = tuple[tuple[str, int, int, int] | tuple[str], ...]


def watched_files(policy_path: str | None, cwd: str, env: Mapping[str, str]) -> list[str]:
    """The files whose change can change the policy: an explicit file, or the user file,
    the project file (or where one would appear) and the trust records."""
    if policy_path or env.get("BASTION_POLICY"):
        return [os.path.abspath(policy_path or env["BASTION_POLICY"])]
    home = env.get("HOME") or os.path.expanduser("~")
    files = [os.path.join(home, ".config", "bastion", "policy.toml"),
             os.path.join(cwd, ".bastion", "policy.toml"),
             os.path.join(state_dir_from(env), TRUST_FILE)]
    project = find_project_file(cwd)
    if project:
        files.append(project)
    return list(dict.fromkeys(files))


def fingerprint(files: list[str]) -> Fingerprint:
    out: list[tuple[str, int, int, int] | tuple[str]] = []
    for path in files:
        try:
            info = os.stat(path)
        except OSError:
            out.append((path,))
            continue
        out.append((path, info.st_mtime_ns, info.st_size, info.st_ino))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Broken:
    """The policy failed to reload: every call is denied with this error."""

    error: str

    def evaluation(self) -> Evaluation:
        return deny_for_error(f"the policy failed to reload ({self.error}); every call is denied "
                              "until the file is fixed", rule="policy.reload-failed")


class PolicyWatch:
    """The current Gatekeeper, rebuilt on a policy change; store and ledger are shared."""

    def __init__(self, policy_path: str | None, *, cwd: str, env: Mapping[str, str] | None = None,
                 load: Callable[[], Policy] | None = None,
                 make_gate: Callable[[Policy], Gate] | None = None) -> None:
        self.policy_path = policy_path
        self.cwd = cwd
        self.env = dict(os.environ if env is None else env)
        self._load = load or (lambda: load_policy(policy_path, cwd=cwd, env=self.env))
        self._make_gate = make_gate or (lambda p: Gate(p, resolver=SystemResolver()))
        self._files = watched_files(policy_path, cwd, self.env)
        self._print = fingerprint(self._files)
        policy = self._load()  # a policy that does not load at start is the caller's error
        self._base = open_gatekeeper(policy, self.env, gate=self._make_gate(policy))
        self._state: Gatekeeper | Broken = self._base

    @property
    def base(self) -> Gatekeeper:
        return self._base

    def current(self) -> Gatekeeper | Broken:
        """The Gatekeeper for one call (reloading first when a file changed)."""
        if fingerprint(self._files) != self._print:
            self._reload()
        return self._state

    def _reload(self) -> None:
        # Fingerprint *before* loading: a write racing the load shows up as one more change.
        self._files = watched_files(self.policy_path, self.cwd, self.env)
        self._print = fingerprint(self._files)
        try:
            policy = self._load()
        except BastionError as exc:
            self._state = Broken(str(exc))
        except Exception as exc:  # fail closed on anything a load can raise
            self._state = Broken(f"{type(exc).__name__}: {exc}")
        else:
            base = self._base
            self._state = Gatekeeper(self._make_gate(policy), store=base.store, ledger=base.ledger,
                                     clock=base.clock)

    def close(self) -> None:
        self._base.close()
