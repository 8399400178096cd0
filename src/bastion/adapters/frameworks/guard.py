"""What every framework guard shares: one Gatekeeper, a framework tool call as a ``ToolCall``,
the person's answer from the framework's own human-in-the-loop, and the refusal text.

The adapters only translate. Whether a call runs is decided here, by the Gatekeeper, in one
of two ways (``Asks``):

* ``FRAMEWORK`` (default): an ASK goes back to the framework, which pauses the run and asks a
  person its own way (an interruption, an ``interrupt()``, a deferred tool). Nothing is
  recorded yet. When the run resumes with the person's :class:`Answer`, the call is decided
  again and, if it still asks, parked and at once resolved with that answer: the ledger gets
  the request and its resolution, naming the approver. A re-decision that no longer asks wins
  (a DENY stays a DENY whatever the person said).
* ``BASTION``: an ASK parks in Bastion's approval queue and waits (``bastion approvals``,
  the approvals page, ``on_permission``) up to the policy's TTL; nobody answering is a denial.

Every call that can be decided, allowed or not, is in the ledger, and an allowed call's
execution too; arguments that are not even a JSON object are refused before any decision.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from bastion.approval.model import ApprovalRequest
from bastion.approval.queue import AnswerError
from bastion.call.aliases import canonical
from bastion.call.model import ToolCall
from bastion.policy.decision import MARKER_DENIED, Decision, Evaluation
from bastion.policy.remedy import told
from bastion.runtime import Gatekeeper

T = TypeVar("T")


class Asks(Enum):
    """Who puts an ASK to a person."""

    FRAMEWORK = "framework"
    BASTION = "bastion"


@dataclass(frozen=True, slots=True)
class Answer:
    """A person's answer to an asked call, given through the framework. ``approver`` names
    who answered (stored with the resolution in the ledger); it may not be blank."""

    approve: bool
    approver: str
    feedback: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.approver, str) or not self.approver.strip():
            raise ValueError("an answer needs an approver: who approved or rejected the call")


def refusal(evaluation: Evaluation) -> str:
    """The text the model gets instead of the tool's result: marker first, then the reason."""
    if evaluation.decision is Decision.ASK:
        return f"needs approval and was not approved: {evaluation.message}"
    return told(evaluation)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A guarded call's end: ``ran`` with the tool's ``value``, or refused with ``evaluation``."""

    evaluation: Evaluation
    ran: bool
    value: Any = None

    @property
    def text(self) -> str:
        return refusal(self.evaluation)


class Guard:
    """One Gatekeeper behind a framework's tools.

    A tool's name maps onto a Bastion family and arguments through the alias table the hooks
    use (``read``, ``read_file``, ``Bash``, …); any name it does not know is denied as an
    unknown family: name the family of your own tools (``families={"run_tests": "shell"}``).
    ``session`` (default: a new one per guard) is what the policy's ``[limits]`` and the
    repeat-failure guard count; ``approver`` (default: ``agent``) is who an approval given
    through the framework without a named person is recorded as."""

    def __init__(
        self,
        keeper: Gatekeeper,
        *,
        agent: str,
        cwd: str | None = None,
        session: str | None = None,
        asks: Asks = Asks.FRAMEWORK,
        interactive: bool = True,
        families: Mapping[str, str] | None = None,
        approver: str | None = None,
    ) -> None:
        self.keeper = keeper
        self.agent = agent
        self.cwd = cwd or keeper.policy.workspace[0]
        self.session = session or f"{agent}-{secrets.token_hex(6)}"
        self.asks = asks
        self.interactive = interactive
        self.families = dict(families or {})
        self.approver = approver or agent

    # -- translating ---------------------------------------------------------------------
    def call(self, tool: str, args: Mapping[str, Any]) -> ToolCall:
        family = self.families.get(tool, tool)
        name, mapped = canonical(family, args)
        return ToolCall(
            tool=name,
            args=dict(mapped),
            cwd=self.cwd,
            session=self.session,
            agent=self.agent,
            interactive=self.interactive,
        )

    def offered(self, tool: str) -> bool:
        """Is ``tool`` in the schema the model sees? Not when the mode, ``enabled`` or a
        disabling rule leaves its family out (the tool catalog's rules, so the guards list
        what ``bastion tools`` lists); a call to it is denied anyway. A tool of no known
        family stays listed: its calls are denied with the reason, which says what to map."""
        from bastion.tools.catalog import family_offered

        family = self.call(tool, {}).family
        return family is None or family_offered(self.keeper.policy, family)

    # -- deciding ------------------------------------------------------------------------
    def needs_person(self, call: ToolCall) -> bool:
        """True when the framework should pause and ask (writes nothing)."""
        return (
            self.asks is Asks.FRAMEWORK
            and call.interactive
            and self.keeper.decide(call).decision is Decision.ASK
        )

    async def decide(self, call: ToolCall, answer: Answer | None = None) -> Evaluation:
        """The final, recorded decision; with ``answer``, an ASK is resolved by it."""
        if answer is None:
            return await self.keeper.request(call)

        def answered(request: ApprovalRequest) -> None:
            with contextlib.suppress(AnswerError):  # answered elsewhere first: that answer stands
                self.keeper.queue.answer(
                    request.id,
                    approve=answer.approve,
                    resolver="person",
                    approver=answer.approver,
                    feedback=None if answer.approve else answer.feedback,
                )

        return await self.keeper.request(call, on_parked=answered)

    def decide_sync(self, call: ToolCall, answer: Answer | None = None) -> Evaluation:
        """``decide`` for synchronous tools (not from inside a running event loop)."""
        return asyncio.run(self.decide(call, answer))

    # -- running ---------------------------------------------------------------------------
    async def run(
        self, call: ToolCall, action: Callable[[], Awaitable[T]], answer: Answer | None = None
    ) -> Outcome:
        """Decide; run ``action`` only on ALLOW and record its execution (a raise is exit 1
        and propagates to the framework)."""
        evaluation = await self.decide(call, answer)
        if evaluation.decision is not Decision.ALLOW:
            return Outcome(evaluation, ran=False)
        start = time.monotonic()
        try:
            value = await action()
        except BaseException:
            self.keeper.record_execution(call, evaluation, 1, time.monotonic() - start)
            raise
        self.keeper.record_execution(call, evaluation, 0, time.monotonic() - start)
        return Outcome(evaluation, ran=True, value=value)

    def run_sync(self, call: ToolCall, action: Callable[[], T], answer: Answer | None = None) -> Outcome:
        """``run`` for synchronous tools: the decision in a private event loop, ``action`` here."""
        evaluation = self.decide_sync(call, answer)
        if evaluation.decision is not Decision.ALLOW:
            return Outcome(evaluation, ran=False)
        start = time.monotonic()
        try:
            value = action()
        except BaseException:
            self.keeper.record_execution(call, evaluation, 1, time.monotonic() - start)
            raise
        self.keeper.record_execution(call, evaluation, 0, time.monotonic() - start)
        return Outcome(evaluation, ran=True, value=value)

    async def reject(self, call: ToolCall, answer: Answer) -> str:
        """Record a person's rejection given through the framework; what the model reads."""
        evaluation = await self.decide(call, answer)
        if evaluation.decision is Decision.ALLOW:  # no longer asks: the rejection still stands
            why = f": {answer.feedback}" if answer.feedback else ""
            return f"{MARKER_DENIED} rejected by {answer.approver}{why}"
        return refusal(evaluation)

    def question(self, call: ToolCall) -> dict[str, Any]:
        """What a person is shown: the call (redacted) and why they are asked."""
        from bastion.audit.redact import redact, summarize

        evaluation = self.keeper.decide(call)
        return {
            "bastion": "approval",
            "tool": call.tool,
            "summary": summarize(call),
            "reason": redact(evaluation.message)[:500],
        }
