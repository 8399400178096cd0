"""One way to open Bastion's SQLite file: WAL, synchronous=FULL, a busy timeout, 0600.

Why ``synchronous=FULL``: in WAL mode NORMAL only syncs the WAL at checkpoints, so a
transaction acknowledged just before a power loss may roll back. FULL syncs the WAL on every
commit: once ``commit`` returns, the record survives a crash. The ledger promises "durable
before the call proceeds", so FULL it is; throughput comes from batching rows per commit.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator

from bastion.errors import StoreError

BUSY_TIMEOUT_MS = 15_000


def open_db(path: str) -> sqlite3.Connection:
    """Open (creating 0600, parent dir 0700) with the pragmas every Bastion connection uses."""
    if path != ":memory:":
        folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(folder, mode=0o700, exist_ok=True)
        _create_private(path)
    try:
        conn = sqlite3.connect(
            path, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000
        )
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        _retry_locked(lambda: conn.execute("PRAGMA journal_mode = WAL"))
        conn.execute("PRAGMA synchronous = FULL")
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open state database {path}: {exc}") from exc
    return conn


def _create_private(path: str) -> None:
    """Create the file 0600 if it does not exist. Never open-and-close an existing one: POSIX
    locks are per process, so closing *any* descriptor of the file drops the locks of this
    process's open SQLite connections, and another process may then delete the live WAL."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
    except FileExistsError:
        return
    except OSError as exc:
        raise StoreError(f"cannot create state database {path}: {exc.strerror or exc}") from exc
    os.close(fd)


def _retry_locked(step: Callable[[], object], attempts: int = 50) -> None:
    for attempt in range(attempts):
        try:
            step()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.02)


class Database:
    """A connection shared by threads under a lock, with ``BEGIN IMMEDIATE`` transactions
    (the write lock is taken up front, so read-then-write is atomic across processes).

    ``write_lock``: one lock for every connection of this process to the same file (the
    stores of one :class:`bastion.state.Stores` share it). SQLite's file lock is not a
    queue: a connection that finds it taken sleeps 1, 2, 5, 10… ms before it retries, so
    the approval counters and the ledger, on two connections of one process, spent more
    time asleep than writing. Taken before the connection's own lock, it queues this
    process's writers on a lock that wakes the next one at once; reads need neither it
    nor a writer to finish (WAL).

    ``bookkeeping``: a file that holds only what may lose its last moments in a power cut
    (see ``transaction``): every commit skips the WAL sync."""

    def __init__(
        self, path: str, schema: str, *, write_lock: threading.RLock | None = None, bookkeeping: bool = False
    ) -> None:
        self.path = path
        self.conn = open_db(path)
        self.lock = threading.RLock()
        self.write_lock = write_lock if write_lock is not None else threading.RLock()
        self.bookkeeping = bookkeeping
        self._batching = False  # a ``batch`` transaction is open (its thread holds the locks)
        if bookkeeping:
            self.conn.execute("PRAGMA synchronous = NORMAL")
        with self.transaction() as conn:
            for statement in filter(None, (s.strip() for s in schema.split(";"))):
                conn.execute(statement)

    @contextlib.contextmanager
    def transaction(self, *, durable: bool = True) -> Iterator[sqlite3.Connection]:
        """``durable=False`` commits without syncing the WAL (synchronous=NORMAL): for
        bookkeeping that may lose its last moments in a power cut (rate counters, the repeat
        guard), never for requests, grants or the ledger. The WAL keeps the order, so such a
        commit becomes durable with the next full one, whichever connection makes it."""
        with self.write_lock, self.lock:
            if self._batching:  # a savepoint, written out: nested context managers cost µs
                conn = self.conn
                conn.execute("SAVEPOINT part")
                try:
                    yield conn
                except BaseException as exc:
                    self._undo_part(exc)
                    raise
                conn.execute("RELEASE part")
                return
            toggle = not durable and not self.bookkeeping
            if toggle:
                self.conn.execute("PRAGMA synchronous = NORMAL")
            try:
                with self._transaction() as conn:
                    yield conn
            finally:
                if toggle:
                    self.conn.execute("PRAGMA synchronous = FULL")

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction (one commit) for every ``transaction`` this thread opens inside
        it, each of those a savepoint: a statement that fails undoes its own transaction
        only, as it would alone. Other threads wait for the batch (it holds the locks); a
        failed final commit raises StoreError and undoes them all. Re-entrant."""
        with self.write_lock, self.lock:
            if self._batching:
                yield
                return
            with self._transaction():
                self._batching = True
                try:
                    yield
                finally:
                    self._batching = False

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self.write_lock, self.lock:
            if self._batching:
                with self._savepoint() as conn:
                    yield conn
                return
            try:
                self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StoreError(f"state database {self.path} is unavailable: {exc}") from exc
            try:
                yield self.conn
            except sqlite3.Error as exc:
                self.conn.execute("ROLLBACK")
                raise StoreError(f"state database {self.path} failed: {exc}") from exc
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error as exc:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute("ROLLBACK")
                raise StoreError(f"could not commit to {self.path}: {exc}") from exc

    @contextlib.contextmanager
    def _savepoint(self) -> Iterator[sqlite3.Connection]:
        """A transaction inside a ``batch``: released into it, or undone alone."""
        self.conn.execute("SAVEPOINT part")
        try:
            yield self.conn
        except BaseException as exc:
            self._undo_part(exc)
            raise
        self.conn.execute("RELEASE part")

    def _undo_part(self, exc: BaseException) -> None:
        """Undo a savepoint's changes alone; an SQLite error leaves as a StoreError."""
        self.conn.execute("ROLLBACK TO part")
        self.conn.execute("RELEASE part")
        if isinstance(exc, sqlite3.Error):
            raise StoreError(f"state database {self.path} failed: {exc}") from exc

    def add_columns(self, table: str, columns: dict[str, str]) -> None:
        """Add each ``name: declaration`` column ``table`` lacks (a file an older Bastion
        wrote): the SQLite side of a versioned migration, idempotent, in one transaction."""
        with self.transaction() as conn:
            have = {row["name"] for row in conn.execute(f"PRAGMA table_info({table})")}
            for name, declaration in columns.items():
                if name not in have:
                    conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {declaration}")

    def read(self, sql: str, params: tuple[object, ...] = ()) -> list[sqlite3.Row]:
        with self.lock:
            try:
                return list(self.conn.execute(sql, params).fetchall())
            except sqlite3.Error as exc:
                raise StoreError(f"cannot read {self.path}: {exc}") from exc

    def close(self) -> None:
        with self.lock:
            self.conn.close()
