"""The one policy lifecycle of a long-running entry point (``bastion serve``, its hook
socket, ``mcp proxy``): the current Gatekeeper, rebuilt when a policy file changes.

Every call asks :meth:`PolicyWatch.current` for the Gatekeeper to use and keeps it to the
end of that call, so a check and the execution after it see the same policy. The files of
:class:`~bastion.policy.sources.PolicySources` are stat'ed (a few microseconds); when one
changed, appeared or vanished, the policy is loaded again. A load that fails in any way
(TOML, validation, or any other exception) yields a broken Gatekeeper: every call is denied
with the rule ``policy.invalid`` and recorded, until a later change loads cleanly. The
store, the ledger and the gate options are chosen once and shared by every rebuild.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Mapping

from bastion.configuration import Configuration, default_configuration, load_sources
from bastion.construct import GateOptions, broken, broken_keeper, keeper_for
from bastion.errors import PolicyError
from bastion.policy.sources import PolicySources
from bastion.runtime import Gatekeeper

log = logging.getLogger("bastion.policy")


class PolicyWatch:
    """The current Gatekeeper for one (policy path, cwd, environment)."""

    def __init__(
        self,
        policy_path: str | None,
        *,
        cwd: str,
        env: Mapping[str, str] | None = None,
        options: GateOptions | None = None,
        strict: bool = True,
    ) -> None:
        """``strict``: a policy that does not load at start raises PolicyError (a daemon
        refuses to start on it); otherwise the watch starts broken."""
        self.policy_path = policy_path
        self.cwd = os.path.abspath(cwd)
        self.env = dict(os.environ if env is None else env)
        self.options = (options or GateOptions()).settled()
        self._lock = threading.Lock()
        self.sources = PolicySources.find(policy_path, cwd=self.cwd, env=self.env)
        self._seen = self.sources.fingerprint()
        first, config = self._open(share=None)
        error = broken(first)
        if error is not None and strict:
            first.close()
            raise PolicyError(error)
        self._base = first
        self._state = first
        #: The configuration the watch started with: its stores (``state_url``) and, for a
        #: daemon, how it listens (``[gateway]``) are chosen once, at start.
        self.base_configuration = config
        self._configuration = config

    def _open(self, *, share: Gatekeeper | None) -> tuple[Gatekeeper, Configuration]:
        """The Gatekeeper of the current sources and the configuration it was built from
        (the defaults when the files do not load: the keeper then denies every call)."""
        try:
            config = load_sources(self.sources, self.env)
        except Exception as exc:  # parse, validation or anything else: deny everything, recorded
            fallback = default_configuration(cwd=self.cwd, env=self.env)
            return broken_keeper(exc, self.sources, self.env, share=share), fallback
        return keeper_for(self.sources, self.env, options=self.options, share=share, config=config), config

    @property
    def configuration(self) -> Configuration:
        """The configuration as of the last check (the defaults while the files are broken)."""
        return self._configuration

    @property
    def base(self) -> Gatekeeper:
        """The first Gatekeeper: it owns the store and the ledger every rebuild shares."""
        return self._base

    @property
    def error(self) -> str | None:
        """The load error every call is denied with right now, if any."""
        return broken(self._state)

    @property
    def keeper(self) -> Gatekeeper:
        """The Gatekeeper as of the last check (a daemon's background loop reloads)."""
        return self._state

    def changed(self) -> bool:
        return PolicySources.find(self.policy_path, cwd=self.cwd, env=self.env).fingerprint() != self._seen

    def current(self) -> Gatekeeper:
        """The Gatekeeper for one call (reloading first when a file changed)."""
        if self.changed():
            self.reload()
        return self._state

    def reload(self) -> Gatekeeper:
        with self._lock:
            # Fingerprint *before* loading: a write racing the load shows up as one more change.
            self.sources = PolicySources.find(self.policy_path, cwd=self.cwd, env=self.env)
            self._seen = self.sources.fingerprint()
            try:
                state, config = self._open(share=self._base)
            except Exception as exc:  # _open handles load errors; this is anything else
                state = broken_keeper(exc, self.sources, self.env, share=self._base)
                config = default_configuration(cwd=self.cwd, env=self.env)
            self._state, self._configuration = state, config
        error = broken(state)
        if error is not None:
            log.error("policy reload failed; denying every call until it is fixed: %s", error)
        else:
            log.info("policy reloaded from %s", ", ".join(state.policy.sources) or "built-in defaults")
        return state

    def reload_if_changed(self) -> bool:
        if not self.changed():
            return False
        self.reload()
        return True

    def close(self) -> None:
        self._base.close()
