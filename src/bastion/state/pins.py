"""Trust on first use for MCP tools: what a server offered is pinned; a change is blocked.

The first time a server NAME is seen, every tool it lists is pinned: a SHA-256 over the
canonical JSON of its name, title, description, input and output schemas and annotations
(all the model and the policy get to read). Later, a tool whose definition differs from
its pin — or a tool the server did not offer before — is *blocked*: it is left out of
``tools/list`` and a call to it is refused, until a person runs ``bastion mcp trust NAME``
after reading the change (``bastion mcp pins``). A changed description is how a server
injects instructions into the model ("rug pull"), so nothing changed reaches it unseen.

Storage is behind :class:`PinStore`: :class:`SqlitePinStore` (``<state_dir>/mcp-pins.db``)
and :class:`MemoryPinStore` (tests).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from bastion.audit.sqlite_db import Database

PINS_FILE = "mcp-pins.db"

#: The parts of a tool definition that are pinned.
PINNED_KEYS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations")


@dataclass(frozen=True, slots=True)
class ToolVersion:
    """One tool definition as offered: its digest and canonical JSON."""

    digest: str
    definition: str

    @classmethod
    def of(cls, tool: Mapping[str, Any]) -> ToolVersion:
        """From a tool's wire JSON (``Tool.model_dump(by_alias=True, mode="json")``)."""
        picked = {k: tool[k] for k in PINNED_KEYS if tool.get(k) is not None}
        text = json.dumps(picked, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return cls(hashlib.sha256(text.encode("utf-8")).hexdigest(), text)


@dataclass(frozen=True, slots=True)
class Pin:
    """A tool's trusted version (None: never trusted) and the change awaiting review."""

    tool: str
    trusted: ToolVersion | None
    pending: ToolVersion | None = None

    @classmethod
    def from_row(cls, row: Any) -> Pin:
        """From a ``mcp_pins`` row (sqlite3.Row or a psycopg dict row: the same columns)."""
        trusted = ToolVersion(row["digest"], row["definition"]) if row["digest"] else None
        pending = None
        if row["pending_digest"]:
            pending = ToolVersion(row["pending_digest"], row["pending_definition"])
        return cls(row["tool"], trusted, pending)


@dataclass(frozen=True, slots=True)
class Blocked:
    tool: str
    why: Literal["new", "changed"]

    def message(self, server: str) -> str:
        what = (
            "is new since the server was first trusted"
            if self.why == "new"
            else "changed since it was trusted"
        )
        return (
            f"MCP tool {server}/{self.tool} {what}; it is blocked until a person reviews it "
            f"('bastion mcp pins {server}') and runs 'bastion mcp trust {server}'"
        )


@dataclass(frozen=True, slots=True)
class Review:
    """The outcome of comparing what a server offers with its pins."""

    trusted: frozenset[str]
    blocked: tuple[Blocked, ...] = ()
    first_use: bool = False

    def blocked_tool(self, tool: str) -> Blocked | None:
        return next((b for b in self.blocked if b.tool == tool), None)


def review(pins: Mapping[str, Pin], offered: Mapping[str, ToolVersion]) -> Review:
    """Pure: which offered tools match their pin, which are new or changed."""
    trusted: set[str] = set()
    blocked: list[Blocked] = []
    for name, version in sorted(offered.items()):
        pin = pins.get(name)
        if pin is None or pin.trusted is None:
            blocked.append(Blocked(name, "new"))
        elif pin.trusted.digest == version.digest:
            trusted.add(name)
        else:
            blocked.append(Blocked(name, "changed"))
    return Review(frozenset(trusted), tuple(blocked))


class PinStore(Protocol):
    def known(self, server: str) -> bool: ...

    def pins(self, server: str) -> dict[str, Pin]: ...

    def servers(self) -> list[str]: ...

    def pin_first(self, server: str, offered: Mapping[str, ToolVersion]) -> bool:
        """Pin everything when ``server`` was never seen (atomically); False if it was."""
        ...

    def note_pending(self, server: str, changed: Mapping[str, ToolVersion]) -> None: ...

    def trust(self, server: str, tools: Iterable[str] | None = None) -> list[str]:
        """Promote the pending versions (of ``tools``, or all); the names trusted."""
        ...

    def close(self) -> None: ...


def check_offer(store: PinStore, server: str, offered: Mapping[str, ToolVersion]) -> Review:
    """Pin on first use, else review and record what changed for a person to look at."""
    if not store.known(server) and store.pin_first(server, offered):
        return Review(frozenset(offered), (), first_use=True)
    result = review(store.pins(server), offered)
    if result.blocked:
        store.note_pending(server, {b.tool: offered[b.tool] for b in result.blocked})
    return result


@dataclass
class MemoryPinStore:
    data: dict[str, dict[str, Pin]] = field(default_factory=dict)

    def known(self, server: str) -> bool:
        return server in self.data

    def pins(self, server: str) -> dict[str, Pin]:
        return dict(self.data.get(server, {}))

    def servers(self) -> list[str]:
        return sorted(self.data)

    def pin_first(self, server: str, offered: Mapping[str, ToolVersion]) -> bool:
        if server in self.data:
            return False
        self.data[server] = {name: Pin(name, version) for name, version in offered.items()}
        return True

    def note_pending(self, server: str, changed: Mapping[str, ToolVersion]) -> None:
        pins = self.data.setdefault(server, {})
        for name, version in changed.items():
            old = pins.get(name)
            pins[name] = Pin(name, old.trusted if old else None, version)

    def trust(self, server: str, tools: Iterable[str] | None = None) -> list[str]:
        pins = self.data.get(server, {})
        wanted = set(pins) if tools is None else set(tools)
        done = []
        for name in sorted(wanted):
            pin = pins.get(name)
            if pin is not None and pin.pending is not None:
                pins[name] = Pin(name, pin.pending)
                done.append(name)
        return done

    def close(self) -> None:
        return None


_SCHEMA = """
CREATE TABLE IF NOT EXISTS mcp_servers (server TEXT PRIMARY KEY, first_seen REAL NOT NULL);
CREATE TABLE IF NOT EXISTS mcp_pins (
    server TEXT NOT NULL, tool TEXT NOT NULL,
    digest TEXT, definition TEXT, trusted_at REAL,
    pending_digest TEXT, pending_definition TEXT, pending_at REAL,
    PRIMARY KEY (server, tool)
)
"""


class SqlitePinStore:
    """Pins in one SQLite file, shared safely by every proxy process on the machine."""

    def __init__(self, path: str) -> None:
        self.db = Database(path, _SCHEMA)

    @classmethod
    def in_state_dir(cls, state_dir: str) -> SqlitePinStore:
        return cls(os.path.join(state_dir, PINS_FILE))

    def known(self, server: str) -> bool:
        return bool(self.db.read("SELECT 1 FROM mcp_servers WHERE server = ?", (server,)))

    def pins(self, server: str) -> dict[str, Pin]:
        rows = self.db.read("SELECT * FROM mcp_pins WHERE server = ? ORDER BY tool", (server,))
        return {row["tool"]: Pin.from_row(row) for row in rows}

    def servers(self) -> list[str]:
        return [r["server"] for r in self.db.read("SELECT server FROM mcp_servers ORDER BY server")]

    def pin_first(self, server: str, offered: Mapping[str, ToolVersion]) -> bool:
        now = time.time()
        with self.db.transaction() as conn:
            inserted = conn.execute("INSERT OR IGNORE INTO mcp_servers VALUES (?, ?)", (server, now))
            if inserted.rowcount == 0:
                return False
            conn.executemany(
                "INSERT OR REPLACE INTO mcp_pins (server, tool, digest, definition, trusted_at) "
                "VALUES (?, ?, ?, ?, ?)",
                [(server, name, v.digest, v.definition, now) for name, v in offered.items()],
            )
        return True

    def note_pending(self, server: str, changed: Mapping[str, ToolVersion]) -> None:
        now = time.time()
        with self.db.transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO mcp_servers VALUES (?, ?)", (server, now))
            for name, version in changed.items():
                conn.execute(
                    "INSERT INTO mcp_pins (server, tool, pending_digest, pending_definition, pending_at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (server, tool) DO UPDATE SET "
                    "pending_digest = excluded.pending_digest, "
                    "pending_definition = excluded.pending_definition, pending_at = excluded.pending_at",
                    (server, name, version.digest, version.definition, now),
                )

    def trust(self, server: str, tools: Iterable[str] | None = None) -> list[str]:
        wanted = None if tools is None else set(tools)
        now = time.time()
        done = []
        with self.db.transaction() as conn:
            rows = conn.execute(
                "SELECT tool FROM mcp_pins WHERE server = ? AND pending_digest IS NOT NULL ORDER BY tool",
                (server,),
            ).fetchall()
            for row in rows:
                if wanted is not None and row["tool"] not in wanted:
                    continue
                conn.execute(
                    "UPDATE mcp_pins SET digest = pending_digest, definition = pending_definition, "
                    "trusted_at = ?, pending_digest = NULL, pending_definition = NULL, pending_at = NULL "
                    "WHERE server = ? AND tool = ?",
                    (now, server, row["tool"]),
                )
                done.append(row["tool"])
        return done

    def close(self) -> None:
        self.db.close()


def describe_change(pin: Pin) -> dict[str, Any]:
    """For ``bastion mcp pins``: the trusted and pending definitions, as JSON values."""

    def load(version: ToolVersion | None) -> Any:
        return None if version is None else json.loads(version.definition)

    return {
        "tool": pin.tool,
        "trusted": load(pin.trusted),
        "pending": load(pin.pending),
        "state": "pending" if pin.pending else "trusted",
    }
