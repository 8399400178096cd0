"""One connection pool per process for every PostgreSQL store, with errors a person can act on.

Every failure of the database (down, restarting, refusing, a broken connection, a
constraint) surfaces as :class:`~bastion.errors.StoreError`, which every caller treats as a
denial. A connection is checked when it leaves the pool, so after a server restart the
first call gets a fresh connection instead of a dead one.

The pool is shared: each store takes a reference (:meth:`PgDatabase.acquire`) and drops it
on ``close``; the pool closes with the last one.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from bastion.errors import StoreError

#: Seconds to wait for a connection (from the pool, or a new one) before giving up.
CONNECT_TIMEOUT = 3.0
POOL_MAX = 10

Row = dict[str, Any]
Conn = psycopg.Connection[Row]


class DatabaseDown(StoreError):
    """PostgreSQL cannot be reached: nothing is allowed until it is back."""


def is_postgres_url(url: str | None) -> bool:
    return bool(url) and str(url).split(":", 1)[0] in ("postgresql", "postgres")


def safe_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "postgresql://…"
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def down_hint(url: str) -> str:
    return (
        f"is PostgreSQL running and reachable at {safe_url(url)}? Check state_url in the policy "
        "or BASTION_STATE_URL; every call is denied until the database answers"
    )


def store_error(url: str, exc: BaseException, doing: str) -> StoreError:
    """Map a psycopg/pool error to a StoreError that says what to check."""
    if isinstance(exc, PoolTimeout | psycopg.OperationalError | psycopg.InterfaceError):
        error: StoreError = DatabaseDown(
            f"PostgreSQL state database unavailable while {doing}: {str(exc).strip() or type(exc).__name__}"
        )
        error.hint = down_hint(url)
        return error
    error = StoreError(f"PostgreSQL state database failed while {doing}: {str(exc).strip()}")
    error.hint = "run 'bastion db status' and 'bastion db upgrade' if the schema is behind"
    return error


def connect(url: str, *, autocommit: bool = True) -> Conn:
    """A single connection outside the pool (LISTEN, migrations); StoreError when down."""
    try:
        return psycopg.connect(
            url, autocommit=autocommit, row_factory=dict_row, connect_timeout=int(CONNECT_TIMEOUT)
        )
    except psycopg.Error as exc:
        raise store_error(url, exc, "connecting") from exc


def _check(conn: Conn) -> None:
    ConnectionPool.check_connection(conn)


class PgDatabase:
    """A psycopg pool with short transactions; shared by reference between stores."""

    def __init__(self, url: str, *, max_size: int = POOL_MAX, timeout: float = CONNECT_TIMEOUT) -> None:
        self.url = url
        self._refs = 0
        self._lock = threading.Lock()
        self.pool: ConnectionPool[Conn] = ConnectionPool(
            url,
            min_size=1,
            max_size=max_size,
            open=False,
            timeout=timeout,
            check=_check,
            kwargs={"autocommit": True, "row_factory": dict_row, "connect_timeout": int(CONNECT_TIMEOUT)},
            reconnect_timeout=24 * 3600.0,
            name="bastion",
        )
        self.pool.open(wait=False)

    # -- references ----------------------------------------------------------------------
    def acquire(self) -> PgDatabase:
        with self._lock:
            self._refs += 1
        return self

    def release(self) -> None:
        with self._lock:
            self._refs -= 1
            last = self._refs <= 0
        if last:
            self.pool.close()

    # -- use -----------------------------------------------------------------------------
    @contextlib.contextmanager
    def connection(self, doing: str = "reading") -> Iterator[Conn]:
        """A pooled autocommit connection; every database error becomes a StoreError."""
        try:
            with self.pool.connection() as conn:
                yield conn
        except StoreError:
            raise
        except (psycopg.Error, PoolTimeout) as exc:
            raise store_error(self.url, exc, doing) from exc

    @contextlib.contextmanager
    def transaction(self, doing: str = "writing") -> Iterator[Conn]:
        """One transaction: committed when the block ends, rolled back on any error."""
        with self.connection(doing) as conn, conn.transaction():
            yield conn

    def read(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        with self.connection() as conn:
            return conn.execute(sql, params).fetchall()

    def one(self, sql: str, params: Sequence[object] = ()) -> Row | None:
        rows = self.read(sql, params)
        return rows[0] if rows else None

    def close(self) -> None:
        self.pool.close()


class PgHandle:
    """A store's reference to the shared pool; ``close`` drops it once (closing twice is harmless)."""

    def __init__(self, url: str, *, db: PgDatabase | None = None) -> None:
        self.url = url
        self.db = db.acquire() if db is not None else shared_database(url)
        self._closed = False

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.db.release()


_SHARED: dict[str, PgDatabase] = {}
_SHARED_LOCK = threading.Lock()


def shared_database(url: str) -> PgDatabase:
    """The process's pool for ``url`` (opened on first use, reopened after its last close)."""
    with _SHARED_LOCK:
        db = _SHARED.get(url)
        if db is None or db.pool.closed:
            db = _SHARED[url] = PgDatabase(url)
        return db.acquire()
