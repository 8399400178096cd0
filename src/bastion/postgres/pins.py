"""MCP trust-on-first-use pins on PostgreSQL (implements ``bastion.state.pins.PinStore``).

First use is decided by the database: ``INSERT … ON CONFLICT DO NOTHING RETURNING`` on the
server row, so when two daemons see a new server at once exactly one pins its tools and
the other reviews against those pins.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping

from bastion.postgres.connection import PgHandle
from bastion.state.pins import Pin, ToolVersion


class PgPinStore(PgHandle):
    def known(self, server: str) -> bool:
        return self.db.one("SELECT 1 AS x FROM mcp_servers WHERE server = %s", (server,)) is not None

    def pins(self, server: str) -> dict[str, Pin]:
        rows = self.db.read("SELECT * FROM mcp_pins WHERE server = %s ORDER BY tool", (server,))
        return {row["tool"]: Pin.from_row(row) for row in rows}

    def servers(self) -> list[str]:
        return [r["server"] for r in self.db.read("SELECT server FROM mcp_servers ORDER BY server")]

    def pin_first(self, server: str, offered: Mapping[str, ToolVersion]) -> bool:
        now = time.time()
        with self.db.transaction("pinning MCP tools") as conn:
            first = conn.execute(
                "INSERT INTO mcp_servers (server, first_seen) VALUES (%s, %s) "
                "ON CONFLICT (server) DO NOTHING RETURNING server",
                (server, now),
            ).fetchone()
            if first is None:
                return False
            with conn.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO mcp_pins (server, tool, digest, definition, trusted_at) "
                    "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (server, tool) DO UPDATE SET "
                    "digest = excluded.digest, definition = excluded.definition, "
                    "trusted_at = excluded.trusted_at, pending_digest = NULL, "
                    "pending_definition = NULL, pending_at = NULL",
                    [(server, name, v.digest, v.definition, now) for name, v in offered.items()],
                )
        return True

    def note_pending(self, server: str, changed: Mapping[str, ToolVersion]) -> None:
        now = time.time()
        with self.db.transaction("recording changed MCP tools") as conn:
            conn.execute(
                "INSERT INTO mcp_servers (server, first_seen) VALUES (%s, %s) "
                "ON CONFLICT (server) DO NOTHING",
                (server, now),
            )
            for name, version in changed.items():
                conn.execute(
                    "INSERT INTO mcp_pins (server, tool, pending_digest, pending_definition, pending_at) "
                    "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (server, tool) DO UPDATE SET "
                    "pending_digest = excluded.pending_digest, "
                    "pending_definition = excluded.pending_definition, pending_at = excluded.pending_at",
                    (server, name, version.digest, version.definition, now),
                )

    def trust(self, server: str, tools: Iterable[str] | None = None) -> list[str]:
        wanted = None if tools is None else sorted(set(tools))
        with self.db.transaction("trusting MCP tools") as conn:
            rows = conn.execute(
                "UPDATE mcp_pins SET digest = pending_digest, definition = pending_definition, "
                "trusted_at = %s, pending_digest = NULL, pending_definition = NULL, pending_at = NULL "
                "WHERE server = %s AND pending_digest IS NOT NULL "
                "AND (%s::text[] IS NULL OR tool = ANY(%s::text[])) RETURNING tool",
                (time.time(), server, wanted, wanted),
            ).fetchall()
        return sorted(r["tool"] for r in rows)
