"""The wiring proposed for the lead, applied as patches until it lands in the real modules.

``open_gatekeeper`` below is ``bastion.runtime.open_gatekeeper`` with the store factory in
place of the two SQLite constructors; ``install()`` patches it (and the HTTP gateway's key
store, login/owner state and rate limiter, and the stores the ``approvals``, ``logs`` and
``keys`` commands open) so that ``python -m tests.postgres.wiring serve|logs|… ARGS`` runs
that ``bastion`` command on a shared PostgreSQL database. Once the lead has
wired ``bastion.state`` in, ``install`` changes nothing that matters.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Any

from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.policy.compiled import Policy
from bastion.policy.engine import Gate
from bastion.policy.loader import state_dir_from
from bastion.runtime import Gatekeeper
from bastion.state import Stores, open_stores, open_stores_from_env, state_url_for


def stores_for(policy: Policy | None, env: Mapping[str, str] | None, state_dir: str) -> Stores:
    return open_stores(state_url_for(policy, os.environ if env is None else env), state_dir)


def open_gatekeeper(policy: Policy, env: Mapping[str, str] | None = None, *, gate: Gate | None = None,
                    **options: Any) -> Gatekeeper:
    state_dir = policy.state_dir if env is None else state_dir_from(env)
    stores = stores_for(policy, env, state_dir)
    hasher = ArgumentHasher(stores.hasher_key())
    return Gatekeeper(gate or Gate(policy), store=stores.approvals,
                      ledger=Ledger(stores.ledger, hasher=hasher), **options)


class _KeyStores:
    """Stands in for ``SqliteKeyStore`` where the gateway opens its key store."""

    @staticmethod
    def in_state_dir(state_dir: str) -> Any:
        return stores_for(None, None, state_dir).keys


class _GatewayStates:
    @staticmethod
    def beside(keys: Any, path: str) -> Any:
        return stores_for(None, None, os.path.dirname(path)).gateway_state()


def _rate_limiter(per_minute: int) -> Any:
    state_dir = state_dir_from(os.environ)
    return stores_for(None, None, state_dir).rate_limiter(per_minute, scope=f"gateway/{per_minute}")


def install() -> None:
    import bastion.adapters.cli.approvals as approvals
    import bastion.adapters.cli.keys_cmd as keys_cmd
    import bastion.adapters.cli.logs as logs
    import bastion.adapters.cli.serve as serve
    import bastion.adapters.http.app as app
    import bastion.runtime as runtime

    runtime.open_gatekeeper = open_gatekeeper
    app.open_gatekeeper = open_gatekeeper
    app.SqliteKeyStore = _KeyStores  # type: ignore[misc,assignment]
    serve.SqliteKeyStore = _KeyStores  # type: ignore[misc,assignment]
    app.GatewayState = _GatewayStates  # type: ignore[misc,assignment]
    app.RateLimiter = _rate_limiter  # type: ignore[misc,assignment]
    logs._open = lambda: open_stores_from_env().ledger  # type: ignore[assignment,return-value]
    approvals.open_store = lambda: open_stores_from_env().approvals  # type: ignore[assignment,return-value]
    keys_cmd._store = lambda: open_stores_from_env().keys  # type: ignore[assignment,return-value]


if __name__ == "__main__":
    install()
    from bastion.adapters.cli.main import main

    sys.exit(main(sys.argv[1:]))
