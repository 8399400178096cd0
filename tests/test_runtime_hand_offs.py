"""``bastion.runtime.hand_offs``: only an ASK handed to the agent's prompt is resolved by the
agent's reports, once, in its own session; a request parked in Bastion's queue never is."""

from __future__ import annotations

from bastion.approval.clock import FakeClock
from bastion.audit.events import EventKind, make_event
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.settings import AuditConfig
from bastion.audit.store import MemoryLedgerStore
from bastion.call.model import ToolCall
from bastion.policy.decision import Decision, Evaluation, Reason
from bastion.runtime.hand_offs import HandOffs, asked_in_prompt, prompt_approver

ASKED = Evaluation(Decision.ASK, (Reason(Decision.ASK, "rule[1]", "policy.toml:2", "git push", "asks"),))


def _ledger() -> Ledger:
    return Ledger(MemoryLedgerStore(), hasher=ArgumentHasher(b"k" * 32))


def _asked(ledger: Ledger, n: int, *, resolver: str = "agent", session: str = "s1") -> None:
    call = ToolCall("shell", {"command": "git push"}, cwd="/p", session=session, agent=f"claude/toolu_{n}")
    ledger.append(
        make_event(
            call,
            ASKED,
            kind=EventKind.REQUESTED,
            decision_id=f"d{n}",
            resolver=resolver,
            time=1.0,
            hasher=ledger.hasher,
            config=AuditConfig(),
        )
    )


def _rows(ledger: Ledger) -> list[tuple[str, str, str, str | None, str]]:
    return [
        (r.event.kind, r.event.decision_id, r.event.decision, r.event.approver, r.event.resolver)
        for r in ledger.events()
    ]


def test_a_request_parked_in_bastions_queue_is_never_resolved_by_an_agents_report() -> None:
    ledger = _ledger()
    _asked(ledger, 1, resolver="policy")
    hand_offs = HandOffs(ledger, FakeClock(5.0))

    ran = hand_offs.ran(session="s1", agent="claude/toolu_1", approver="claude prompt")
    ended = hand_offs.not_run(session="s1", approver="claude prompt", why="the turn ended")

    assert (ran, ended) == ([], [])
    assert [row[0] for row in _rows(ledger)] == ["requested"]


def test_a_hand_off_is_resolved_once_whatever_reports_follow() -> None:
    ledger = _ledger()
    _asked(ledger, 1)
    hand_offs = HandOffs(ledger, FakeClock(5.0))

    hand_offs.not_run(session="s1", approver="claude prompt", why="the turn ended")
    hand_offs.ran(session="s1", agent="claude/toolu_1", approver="claude prompt")
    hand_offs.not_run(session="s1", approver="claude prompt", why="the session ended")

    assert _rows(ledger) == [
        ("requested", "d1", "ask", None, "agent"),
        ("resolved", "d1", "deny", "claude prompt", "agent"),
    ]
    assert ledger.events()[1].event.message == (
        "not approved in the claude prompt: the turn ended without running the call"
    )


def test_a_tool_use_id_that_is_a_prefix_of_another_resolves_only_its_own_call() -> None:
    ledger = _ledger()
    _asked(ledger, 1)
    _asked(ledger, 10)

    HandOffs(ledger, FakeClock(5.0)).ran(session="s1", agent="claude/toolu_1", approver="claude prompt")

    assert _rows(ledger)[2:] == [("resolved", "d1", "allow", "claude prompt", "agent")]


def test_a_report_without_a_session_or_from_another_session_resolves_nothing() -> None:
    ledger = _ledger()
    _asked(ledger, 1)
    hand_offs = HandOffs(ledger, FakeClock(5.0))

    hand_offs.ran(session=None, agent="claude/toolu_1", approver="claude prompt")
    hand_offs.ran(session="s2", agent="claude/toolu_1", approver="claude prompt")
    hand_offs.not_run(session=None, approver="claude prompt", why="the turn ended")
    hand_offs.not_run(session="s1/agent/a1", approver="claude prompt", why="the subagent finished")

    assert [row[0] for row in _rows(ledger)] == ["requested"]


def test_only_an_answer_given_in_a_prompt_counts_as_a_persons() -> None:
    assert (prompt_approver("claude"), prompt_approver("claude", "bypassPermissions")) == (
        "claude prompt",
        "claude bypassPermissions",
    )
    assert [
        asked_in_prompt(resolver, approver)
        for resolver, approver in (
            ("agent", "claude prompt"),
            ("agent", "claude bypassPermissions"),
            ("policy", "claude prompt"),
            ("agent", None),
        )
    ] == [True, False, False, False]
