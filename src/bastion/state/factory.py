"""Where Bastion keeps its state: the embedded SQLite files (default) or a shared PostgreSQL.

Selection: ``BASTION_STATE_URL`` in the environment overrides ``state_url`` in the policy
(so one host can be pointed elsewhere without editing a shared policy); with neither, or
an empty value, the state is the SQLite files under the state dir. Only
``postgresql://…`` (or ``postgres://…``) URLs are accepted; anything else is an error, never
a silent fallback to SQLite (two daemons would stop sharing approvals without noticing).

Stores open lazily, on first use, so a command that needs one store opens only that one.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from bastion.errors import StoreError

if TYPE_CHECKING:
    from bastion.approval.store import Store
    from bastion.audit.store import LedgerStore
    from bastion.keys.store import KeyStore
    from bastion.launch.sessions import SessionStore
    from bastion.state.pins import PinStore
    from bastion.state.settings import StateSettings

ENV_URL = "BASTION_STATE_URL"
DB_FILE = "bastion.db"
HASH_KEY_NAME = "argument_hash_key"

_checked: set[str] = set()
_checked_lock = threading.Lock()


class StateUrlError(StoreError):
    hint = "set state_url (policy) or BASTION_STATE_URL to postgresql://USER@HOST:PORT/DB, or unset it"


def state_url_for(state: StateSettings | None = None, env: Mapping[str, str] | None = None) -> str | None:
    """The configured URL: the environment's ``BASTION_STATE_URL``, else the policy's
    ``state_url``, else None (SQLite). Raises StateUrlError if unusable."""
    source = os.environ if env is None else env
    written = state.url if state is not None else None
    url = (source.get(ENV_URL) or "").strip() or (written or "").strip()
    if not url:
        return None
    from bastion.postgres.connection import is_postgres_url, safe_url

    if not is_postgres_url(url):
        raise StateUrlError(
            f"unsupported state_url {safe_url(url)!r}: only postgresql:// URLs are "
            "supported (SQLite is the default when none is set)"
        )
    return url


def ensure_schema(url: str, *, upgrade: bool = False) -> None:
    """Check (once per process and URL) that the schema is current; upgrade it if asked."""
    from bastion.postgres import migrations

    with _checked_lock:
        if url in _checked:
            return
        if upgrade:
            migrations.upgrade(url)
        else:
            migrations.require_current(url)
        _checked.add(url)


class Stores:
    """Every store of one state location. Closing a store twice is harmless, so a caller may
    close the stores it was handed (the Gatekeeper does) and still call :meth:`close`."""

    def __init__(self, state_url: str | None, state_dir: str, *, upgrade: bool = False) -> None:
        self.url = state_url
        self.state_dir = state_dir
        self.kind: Literal["sqlite", "postgresql"] = "postgresql" if state_url else "sqlite"
        self._opened: list[Any] = []
        #: Queues this process's writers to the SQLite file (see audit.sqlite_db.Database).
        self._write_lock = threading.RLock()
        if state_url:
            ensure_schema(state_url, upgrade=upgrade)
        else:
            os.makedirs(state_dir, mode=0o700, exist_ok=True)

    @property
    def sqlite_path(self) -> str:
        return os.path.join(self.state_dir, DB_FILE)

    def _keep(self, store: Any) -> Any:
        self._opened.append(store)
        return store

    @cached_property
    def approvals(self) -> Store:
        if self.url:
            from bastion.postgres.approvals import PgApprovalStore

            return self._keep(PgApprovalStore(self.url))  # type: ignore[no-any-return]
        from bastion.approval.sqlite import SqliteStore

        return self._keep(SqliteStore(self.sqlite_path, write_lock=self._write_lock))  # type: ignore[no-any-return]

    @cached_property
    def ledger(self) -> LedgerStore:
        # Keyed chain (see bastion.audit.chain), and group commit: concurrent callers (daemon
        # threads, the gateway, the MCP proxy) share one durable transaction; each still
        # returns only once its own record is committed.
        from bastion.audit.chain import Chain
        from bastion.audit.group import GroupCommitStore

        chain = Chain.from_argument_key(self.hasher_key())
        if self.url:
            from bastion.postgres.ledger import PgLedgerStore

            return self._keep(GroupCommitStore(PgLedgerStore(self.url, chain=chain)))  # type: ignore[no-any-return]
        from bastion.audit.sqlite import SqliteLedgerStore

        return self._keep(  # type: ignore[no-any-return]
            GroupCommitStore(SqliteLedgerStore(self.sqlite_path, chain=chain, write_lock=self._write_lock))
        )

    @cached_property
    def keys(self) -> KeyStore:
        if self.url:
            from bastion.postgres.keys import PgKeyStore

            return self._keep(PgKeyStore(self.url))  # type: ignore[no-any-return]
        from bastion.keys.sqlite import SqliteKeyStore

        return self._keep(SqliteKeyStore.in_state_dir(self.state_dir))  # type: ignore[no-any-return]

    @cached_property
    def pins(self) -> PinStore:
        if self.url:
            from bastion.postgres.pins import PgPinStore

            return self._keep(PgPinStore(self.url))  # type: ignore[no-any-return]
        from bastion.state.pins import SqlitePinStore

        return self._keep(SqlitePinStore.in_state_dir(self.state_dir))  # type: ignore[no-any-return]

    @cached_property
    def sessions(self) -> SessionStore:
        if self.url:
            from bastion.postgres.sessions import PgSessionStore

            return self._keep(PgSessionStore(self.url))  # type: ignore[no-any-return]
        from bastion.launch.sessions import JsonSessionStore

        return JsonSessionStore(self.state_dir)

    def gateway_state(self) -> Any:
        """The HTTP gateway's page logins and request owners (beside the key store)."""
        if self.url:
            from bastion.postgres.gateway import PgGatewayState

            return self._keep(PgGatewayState(self.url))
        from bastion.keys.sqlite import KEYS_FILE
        from bastion.state.web_sessions import GatewayState

        return GatewayState.beside(self.keys, os.path.join(self.state_dir, KEYS_FILE))

    def rate_limiter(self, per_minute: int, *, scope: str = "gateway") -> Any:
        """Something with ``check(key) -> seconds to wait``: one budget per key across every
        daemon on PostgreSQL; in this process only on SQLite."""
        if self.url:
            from bastion.postgres.connection import shared_database
            from bastion.postgres.counters import PgRateLimiter

            db = shared_database(self.url)
            try:
                return self._keep(PgRateLimiter(db, per_minute, scope=scope))
            finally:
                db.release()
        from bastion.state.ratelimit import RateLimiter

        return RateLimiter(per_minute)

    def hasher_key(self) -> bytes:
        """The argument-hash key. On PostgreSQL it is shared by every daemon (so an exact grant
        made through one host matches the same call on another); the first daemon seeds it
        from its ``ledger.key`` when it has one, else with fresh random bytes."""
        from bastion.audit.keyed import KEY_BYTES, KEY_FILE, load_or_create_key

        if not self.url:
            return load_or_create_key(self.state_dir)
        from bastion.postgres.connection import shared_database

        local = os.path.join(self.state_dir, KEY_FILE)
        seed = load_or_create_key(self.state_dir) if os.path.exists(local) else secrets.token_bytes(KEY_BYTES)
        db = shared_database(self.url)
        try:
            with db.transaction("reading the argument-hash key") as conn:
                conn.execute(
                    "INSERT INTO bastion_secrets (name, value) VALUES (%s, %s) ON CONFLICT (name) DO NOTHING",
                    (HASH_KEY_NAME, seed),
                )
                row = conn.execute(
                    "SELECT value FROM bastion_secrets WHERE name = %s", (HASH_KEY_NAME,)
                ).fetchone()
        finally:
            db.release()
        if row is None:
            raise StoreError("the shared argument-hash key is missing from the database")
        return bytes(row["value"])

    def close(self) -> None:
        while self._opened:
            self._opened.pop().close()


def open_stores(state_url: str | None, state_dir: str, *, upgrade: bool = False) -> Stores:
    """SQLite under ``state_dir`` when ``state_url`` is None, else PostgreSQL at ``state_url``
    (whose schema must be current: StoreError with a hint otherwise, or pass ``upgrade``)."""
    return Stores(state_url, state_dir, upgrade=upgrade)


def open_stores_from_env(
    env: Mapping[str, str] | None = None, *, cwd: str | None = None, policy_path: str | None = None
) -> Stores:
    """For CLI commands that do not load a policy themselves (approvals, logs, keys, mcp
    pins, launch): ``BASTION_STATE_URL``, else ``state_url`` of the policy that applies in
    ``cwd``; a policy that does not load counts as none (the command then uses SQLite,
    as it did before PostgreSQL existed; ``bastion doctor`` reports the policy error)."""
    from bastion.configuration import load_configuration
    from bastion.errors import BastionError
    from bastion.policy.sources import state_dir_from

    source = os.environ if env is None else env
    url = state_url_for(None, source)
    if url is None:
        try:
            state: StateSettings | None = load_configuration(
                policy_path, cwd=cwd or os.getcwd(), env=source
            ).state
        except BastionError:
            state = None
        url = state_url_for(state, source)
    return open_stores(url, state_dir_from(source))
