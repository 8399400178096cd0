"""What became of an ASK handed to the agent's own prompt: the ``resolved`` record.

An ASK Bastion hands to the agent (Claude Code asks its user; ``ask_via = "agent"``) is
recorded ``requested`` with resolver ``agent`` and the agent's tool-use id in its ``agent``
column (``claude/toolu_…``). Bastion never sees the person's answer; it sees what followed:

* the agent reports that the tool ran (Claude Code's ``PostToolUse``, or
  ``PostToolUseFailure``: it ran and failed) for that tool-use id → the person approved it:
  ``resolved``, ``allow``, approver ``<agent> prompt``;
* the turn or the session ended (``Stop``, ``SubagentStop`` for a subagent's session,
  ``SessionEnd``) and the agent never reported that the call ran → it did not run (the person
  said no, or interrupted the turn): ``resolved``, ``deny``, same approver.

Each request is resolved at most once (the store keeps the first resolution of a decision
id), so a late report cannot turn a recorded answer into another.

When the agent ran the call without showing a prompt (Claude Code's ``bypassPermissions``:
the hook's ``ask`` is not put to anyone), the approver names that mode instead
(``claude bypassPermissions``), and ``bastion learn`` does not count it as a person's answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bastion.approval.model import Resolver
from bastion.audit.events import EventKind, LedgerRecord, hand_off_resolution
from bastion.policy.decision import Decision

if TYPE_CHECKING:
    from bastion.approval.clock import Clock
    from bastion.audit.events import AuditEvent
    from bastion.audit.ledger import Ledger

#: The rule of a resolution the agent's prompt made.
PROMPT_RULE = "approval.agent_prompt"
#: How an approver that is the agent's own prompt ends: ``claude prompt``.
PROMPT = " prompt"


def prompt_approver(agent: str, mode: str | None = None) -> str:
    """``<agent> prompt`` when the agent put the question to its user, else the mode that
    answered without asking (``claude bypassPermissions``)."""
    return f"{agent}{PROMPT}" if mode is None else f"{agent} {mode}"


def asked_in_prompt(resolver: object, approver: object) -> bool:
    """Did a person answer this resolution in the agent's own prompt?"""
    return resolver == Resolver.AGENT.value and isinstance(approver, str) and approver.endswith(PROMPT)


@dataclass(frozen=True, slots=True)
class HandOffs:
    """Resolves the hand-offs recorded in ``ledger`` (the Gatekeeper's)."""

    ledger: Ledger
    clock: Clock

    def ran(self, *, session: str | None, agent: str, approver: str) -> list[LedgerRecord]:
        """The call the agent names ``agent`` (``claude/toolu_…``) ran: its open hand-offs
        (one per target of a multi-target tool) are resolved ``allow``."""
        message = f"approved in the {approver}: the call ran"
        return self._resolve(self.open(session, agent=agent), Decision.ALLOW, approver, message)

    def not_run(self, *, session: str | None, approver: str, why: str) -> list[LedgerRecord]:
        """Every hand-off of ``session`` still open when ``why`` (the turn ended…) did not run."""
        message = f"not approved in the {approver}: {why} without running the call"
        return self._resolve(self.open(session), Decision.DENY, approver, message)

    def open(self, session: str | None, *, agent: str | None = None) -> list[AuditEvent]:
        """The session's hand-offs without a resolution, oldest first (``agent``: one call's)."""
        if session is None:
            return []
        asked = self.ledger.events(session=session, kind=EventKind.REQUESTED, agent=agent)
        handed = [r.event for r in asked if r.event.resolver == Resolver.AGENT.value]
        if not handed:
            return []
        resolved = self.ledger.events(session=session, kind=EventKind.RESOLVED, agent=agent)
        done = {r.event.decision_id for r in resolved}
        return [event for event in handed if event.decision_id not in done]

    def _resolve(
        self, events: list[AuditEvent], decision: Decision, approver: str, message: str
    ) -> list[LedgerRecord]:
        now = self.clock.now()
        return [
            self.ledger.append_once(
                hand_off_resolution(
                    event, decision=decision, rule=PROMPT_RULE, approver=approver, message=message, time=now
                )
            )
            for event in events
        ]
