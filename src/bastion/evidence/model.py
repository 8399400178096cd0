"""A tool call as an agent proposed it, read back from a transcript, a hook log or the ledger."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Outcome(StrEnum):
    """What a person did with the call, when the record says so."""

    APPROVED = "approved"
    DENIED = "denied"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Proposed:
    """One call in the agent's own words (``tool`` as the agent spells it: ``Bash``,
    ``exec_command``, ``mcp__files__read_file``…); the hooks' translation turns it into
    the ToolCalls Bastion decides."""

    origin: str  # "FILE:LINE"
    reader: str  # claude, codex, gemini, hook, ledger, bastion
    tool: str
    args: Mapping[str, Any] = field(default_factory=dict)
    cwd: str = "/"
    session: str | None = None
    call_id: str | None = None
    mcp_server: str | None = None
    #: The decision recorded at the time (the ledger's), when the record has one.
    live: str | None = None
    #: What a person did with it (approved or denied an ASK), when the record says so.
    outcome: Outcome = Outcome.UNKNOWN
    #: The ledger keeps a redacted summary only: the replayed arguments may differ.
    approximate: bool = False

    @property
    def label(self) -> str:
        """One line for tables: the agent's tool and its main argument."""
        from bastion.evidence.text import describe

        return describe(self.tool, self.args)
