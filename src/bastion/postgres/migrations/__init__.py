"""Versioned schema migrations: ``NNNN_name.sql`` files applied in order, each once.

``upgrade`` runs every pending file in ONE transaction under an advisory lock, recording
each in ``bastion_schema_version``: two daemons upgrading at once apply each file once, and
a failing file leaves the database exactly as it was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

import psycopg

from bastion.errors import StoreError
from bastion.postgres.connection import Conn, connect, store_error

#: Arbitrary 64-bit key of the advisory lock that serialises migrations.
MIGRATION_LOCK = 0x42A5_7105_0001
VERSION_TABLE = "bastion_schema_version"
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


@dataclass(frozen=True, slots=True)
class SchemaStatus:
    current: int
    target: int
    applied: tuple[int, ...] = ()

    @property
    def up_to_date(self) -> bool:
        return self.current == self.target

    def to_json(self) -> dict[str, object]:
        return {
            "current": self.current,
            "target": self.target,
            "up_to_date": self.up_to_date,
            "pending": list(range(self.current + 1, self.target + 1)),
        }


class SchemaBehind(StoreError):
    hint = "run 'bastion db upgrade' (with the same state_url / BASTION_STATE_URL)"


def migrations() -> list[Migration]:
    found = []
    for entry in resources.files(__package__).iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), match.group(2), entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise StoreError(f"migrations are not numbered 1..n: {[m.version for m in found]}")
    return found


def target_version() -> int:
    return len(migrations())


def _current(conn: Conn) -> int:
    exists = conn.execute("SELECT to_regclass(%s) AS t", (VERSION_TABLE,)).fetchone()
    if not exists or exists["t"] is None:
        return 0
    row = conn.execute(f"SELECT coalesce(max(version), 0) AS v FROM {VERSION_TABLE}").fetchone()
    return int(row["v"]) if row else 0


def current_version(conn: Conn) -> int:
    return _current(conn)


def status(url: str) -> SchemaStatus:
    conn = connect(url)
    try:
        return SchemaStatus(_current(conn), target_version())
    except psycopg.Error as exc:
        raise store_error(url, exc, "reading the schema version") from exc
    finally:
        conn.close()


def upgrade(url: str) -> SchemaStatus:
    """Apply every pending migration (one transaction, under the advisory lock)."""
    wanted = migrations()
    conn = connect(url)
    try:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            conn.execute(
                f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version integer PRIMARY KEY, "
                "name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            before = _current(conn)
            if before > len(wanted):
                raise StoreError(
                    f"the database schema is version {before}, newer than this Bastion "
                    f"knows ({len(wanted)}): upgrade Bastion on this host"
                )
            done = []
            for migration in wanted[before:]:
                conn.execute(migration.sql.encode("utf-8"))
                conn.execute(
                    f"INSERT INTO {VERSION_TABLE} (version, name) VALUES (%s, %s)",
                    (migration.version, migration.name),
                )
                done.append(migration.version)
        return SchemaStatus(len(wanted), len(wanted), tuple(done))
    except psycopg.Error as exc:
        raise store_error(url, exc, "upgrading the schema") from exc
    finally:
        conn.close()


def require_current(url: str) -> None:
    """StoreError (SchemaBehind) unless the schema is exactly this Bastion's version."""
    found = status(url)
    if found.current < found.target:
        raise SchemaBehind(
            f"the PostgreSQL schema is version {found.current}, this Bastion needs {found.target}"
        )
    if found.current > found.target:
        raise StoreError(
            f"the PostgreSQL schema is version {found.current}, newer than this Bastion "
            f"({found.target}): upgrade Bastion on this host"
        )
