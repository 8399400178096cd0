"""The Gatekeeper: decide, park, answer, expire, grant, guard, limit — and record it all."""

from __future__ import annotations

import asyncio
import dataclasses
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from bastion.approval.clock import FakeClock
from bastion.approval.memory import MemoryStore
from bastion.approval.model import ApprovalRequest, Deadline, PermissionDecision, Scope
from bastion.approval.settings import LimitsConfig
from bastion.approval.state import RequestState
from bastion.audit.events import AuditEvent, LedgerRecord
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.store import MemoryLedgerStore
from bastion.call.effects import Effect
from bastion.call.model import ToolCall
from bastion.configuration import Configuration
from bastion.construct import open_gatekeeper
from bastion.errors import StoreError
from bastion.policy.compiled import Policy
from bastion.policy.decision import MARKER_BLOCKED, MARKER_DENIED, Decision, Evaluation, Reason
from bastion.policy.engine import Gate
from bastion.runtime import Gatekeeper

ASK = Evaluation(
    Decision.ASK,
    (Reason(Decision.ASK, "rule[1]", "/p/policy.toml:4", "git push", "a person decides"),),
    (Effect.NETWORK,),
)
HARDLINE_ASK = Evaluation(
    Decision.ASK,
    (Reason(Decision.ASK, "hardline.destructive", "built-in", "rm", "rm -r"),),
    (Effect.DESTRUCTIVE,),
)
HARD_DENY = Evaluation(
    Decision.DENY,
    (Reason(Decision.DENY, "rule[3]", "/p/policy.toml:9", "x", "never"),),
    (Effect.WRITE,),
    marker=MARKER_DENIED,
)
ALLOW = Evaluation(Decision.ALLOW, (Reason(Decision.ALLOW, "rule[2]", "/p/policy.toml:6", "git", "fine"),))


class ScriptedGate(Gate):
    """The real Gate's interface with a fixed answer (the engine is tested elsewhere)."""

    def __init__(self, policy: Policy, answer: Evaluation) -> None:
        super().__init__(policy)
        self.answer = answer

    def evaluate(self, call: ToolCall) -> Evaluation:
        return self.answer


@pytest.fixture
def policy(make_policy: Callable[..., Policy]) -> Policy:
    return make_policy('[approval]\nttl = "5m"\n')


Keeper = Callable[..., Gatekeeper]


@pytest.fixture
def keeper(policy: Policy) -> Keeper:
    def build(answer: Evaluation | None = None, **kw: Any) -> Gatekeeper:
        gate = Gate(policy) if answer is None else ScriptedGate(policy, answer)
        return Gatekeeper(
            gate,
            store=kw.pop("store", MemoryStore()),
            ledger=Ledger(MemoryLedgerStore(), hasher=ArgumentHasher(b"k" * 32)),
            clock=kw.pop("clock", FakeClock(1000.0)),
            **kw,
        )

    return build


def shell(command: str = "git push origin main", **kw: Any) -> ToolCall:
    return ToolCall(
        "shell",
        {"command": command},
        cwd="/p",
        interactive=kw.pop("interactive", True),
        session=kw.pop("session", "s1"),
        **kw,
    )


def ledger_rows(k: Gatekeeper) -> list[tuple[str, str, str, str]]:
    return [(r.event.kind, r.event.decision, r.event.resolver, r.event.rule) for r in k.ledger.events()]


async def answer_when_parked(k: Gatekeeper, **answer: Any) -> ApprovalRequest:
    for _ in range(100):
        pending = k.store.list_requests([RequestState.PENDING])
        if pending:
            return k.queue.answer(pending[0].id, **answer, approver="k1")
        await asyncio.sleep(0)
    raise AssertionError("nothing was parked")


def run_answered(k: Gatekeeper, call: ToolCall, **answer: Any) -> Evaluation:
    async def scenario() -> Evaluation:
        task = asyncio.ensure_future(k.request(call))
        await answer_when_parked(k, **answer)
        return await task

    return asyncio.run(scenario())


# -- decisions that need nobody ---------------------------------------------------------------


@pytest.mark.parametrize("answer", [ALLOW, HARD_DENY], ids=["allow", "deny"])
def test_a_policy_decision_is_returned_as_is_and_recorded_once(keeper: Keeper, answer: Evaluation) -> None:
    k = keeper(answer)
    assert asyncio.run(k.request(shell())) == answer
    assert ledger_rows(k) == [("decided", answer.decision.label, "policy", answer.reasons[0].rule)]


def test_decide_answers_like_request_but_writes_nothing(keeper: Keeper) -> None:
    k = keeper(HARD_DENY)
    assert k.decide(shell()) == HARD_DENY
    assert (k.ledger.events(), k.store.failure_record("s1", k.hasher.digest(shell())).failures) == ([], 0)


# -- parking ------------------------------------------------------------------------------------


def test_an_ask_approved_once_by_a_person_allows_and_says_who(keeper: Keeper) -> None:
    k = keeper(ASK)
    result = run_answered(k, shell(), approve=True)
    [request] = k.store.list_requests()
    assert result == Evaluation(
        Decision.ALLOW,
        (
            Reason(
                Decision.ALLOW,
                "approval.person",
                f"request {request.id}",
                request.id,
                "approved once by a person",
            ),
            *ASK.reasons,
        ),
        ASK.effects,
    )
    assert ledger_rows(k) == [
        ("requested", "ask", "policy", "rule[1]"),
        ("resolved", "allow", "person", "approval.person"),
    ]


def test_a_person_s_denial_carries_the_feedback_and_a_hard_marker(keeper: Keeper) -> None:
    k = keeper(ASK)
    result = run_answered(k, shell(), approve=False, feedback="use the stdlib instead")
    assert (result.decision, result.marker, result.message) == (
        Decision.DENY,
        MARKER_DENIED,
        f"{MARKER_DENIED} denied by a person: use the stdlib instead",
    )


def test_an_unanswered_ask_expires_as_a_denial_at_the_policy_ttl(keeper: Keeper) -> None:
    clock = FakeClock(1000.0)
    k = keeper(ASK, clock=clock)
    result = asyncio.run(k.request(shell()))
    [request] = k.store.list_requests()
    assert (result.decision, result.reasons[0].rule, result.reasons[0].message) == (
        Decision.DENY,
        "approval.timeout",
        "nobody answered within 5m: an unanswered request is a denial",
    )
    assert (request.state, request.expires, clock.now()) == (RequestState.EXPIRED, 1300.0, 1300.0)
    assert ledger_rows(k)[-1] == ("resolved", "deny", "timeout", "approval.timeout")


@pytest.mark.parametrize(("timeout", "expires"), [(30.0, 1030.0), (9999.0, 1300.0)])
def test_a_timeout_can_shorten_the_wait_but_never_extend_it(
    keeper: Keeper, timeout: float, expires: float
) -> None:
    k = keeper(ASK)
    asyncio.run(k.request(shell(), timeout=timeout))
    assert [r.expires for r in k.store.list_requests()] == [expires]


def test_the_request_carries_a_redacted_summary_and_the_grant_on_offer(keeper: Keeper) -> None:
    k = keeper(ASK)
    asyncio.run(
        k.request(
            shell("git push https://ghp_abcdefghijklmnopqrstuvwxyz0123@github.com/o/r main", agent="claude")
        )
    )
    [request] = k.store.list_requests()
    assert (request.summary, request.argv, request.agent, request.project, request.offer) == (
        "shell: git push https://***@github.com/o/r main",
        ("git", "push", "https://***@github.com/o/r", "main"),
        "claude",
        k.policy.sources[-1] if k.policy.sources else "/p",
        {
            "grantable": True,
            "scopes": ["project", "session"],
            "exact": "shell: git push https://***@github.com/o/r main",
            "suggested_pattern": None,  # a redacted word cannot be written in a pattern
        },
    )


def test_a_hardline_request_says_it_cannot_be_granted(keeper: Keeper) -> None:
    k = keeper(HARDLINE_ASK)
    asyncio.run(k.request(shell("rm -r build")))
    [request] = k.store.list_requests()
    assert request.offer == {
        "grantable": False,
        "scopes": [],
        "note": "hardline class or raised privilege: never a standing grant",
    }


def test_cancelling_a_parked_call_cancels_its_request_and_records_it(keeper: Keeper) -> None:
    k = keeper(ASK)

    async def scenario() -> None:
        task = asyncio.ensure_future(k.request(shell()))
        for _ in range(5):
            await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(scenario())
    assert [r.state for r in k.store.list_requests()] == [RequestState.CANCELLED]
    assert ledger_rows(k)[-1] == ("resolved", "deny", "cancel", "approval.cancelled")


def test_a_parked_request_states_the_calls_folder_and_what_ends_its_wait(keeper: Keeper) -> None:
    # The card shows these: the folder the call runs in (not the policy file that scopes a
    # project grant), and whether the policy's 5 minutes or the caller's shorter time-out ends
    # the wait (a hook's 60 s ended it while the card implied the policy's).
    k = keeper(ASK)
    made = [
        k.build_request(shell(), ASK, request_id=f"r{t}", now=1000.0, timeout=t) for t in (55.0, None, 900.0)
    ]
    assert [(r.folder, r.project, r.deadline, r.expires) for r in made] == [
        ("/p", "/p", Deadline.CALLER, 1055.0),
        ("/p", "/p", Deadline.POLICY, 1300.0),
        ("/p", "/p", Deadline.POLICY, 1300.0),
    ]


# -- non-interactive ----------------------------------------------------------------------------


def test_a_non_interactive_ask_is_denied_at_once_without_parking(keeper: Keeper) -> None:
    k = keeper(ASK)
    result = asyncio.run(k.request(shell(interactive=False)))
    # The rule that asked leads (issue 15: reasons must not hide the cause), the default follows.
    assert (result.decision, [r.rule for r in result.reasons], k.store.list_requests()) == (
        Decision.DENY,
        ["rule[1]", "approval.non_interactive_default"],
        [],
    )
    assert (
        result.message == "a person decides; nobody can be asked here (non-interactive): the call is "
        "denied without waiting"
    )
    assert ledger_rows(k) == [("decided", "deny", "policy", "rule[1]")]


def test_a_standing_grant_covers_a_non_interactive_call(keeper: Keeper, workspace: Path) -> None:
    k = keeper()  # the real engine: an unmatched fetch asks, or denies softly when nobody can be asked
    background = ToolCall("fetch", {"url": "https://example.com/"}, cwd=str(workspace), session="s1")
    before = asyncio.run(k.request(background))
    run_answered(
        k,
        ToolCall(
            "fetch", {"url": "https://example.com/"}, cwd=str(workspace), session="s1", interactive=True
        ),
        approve=True,
        always=True,
    )
    after = asyncio.run(k.request(background))
    assert (before.decision, after.decision, after.reasons[0].rule) == (
        Decision.DENY,
        Decision.ALLOW,
        "grant.exact",
    )


def test_a_standing_grant_on_a_shell_install_covers_the_non_interactive_call(
    keeper: Keeper, workspace: Path
) -> None:
    """Issue 32: 'approve always' on ``pip install requests`` answered interactive calls only:
    the non-interactive one is denied by ``install.non-interactive``, which, like the approval
    default, says only that nobody can be asked."""
    k = keeper()
    background = ToolCall("shell", {"command": "pip install requests"}, cwd=str(workspace), session="s1")
    before = asyncio.run(k.request(background))
    run_answered(k, dataclasses.replace(background, interactive=True), approve=True, always=True)
    after = asyncio.run(k.request(background))
    other = asyncio.run(k.request(dataclasses.replace(background, args={"command": "pip install flask"})))
    assert (before.decision, before.marker) == (Decision.DENY, None)
    assert (after.decision, after.reasons[0].rule) == (Decision.ALLOW, "grant.exact")
    assert other.decision is Decision.DENY  # the grant covers its own call only


# -- grants -------------------------------------------------------------------------------------


def test_approve_always_lets_the_same_call_through_next_time_by_grant(keeper: Keeper) -> None:
    k = keeper(ASK)
    run_answered(k, shell(), approve=True, always=True, pattern="git push origin *")
    [grant] = k.store.list_grants()
    result = asyncio.run(k.request(shell("git push origin feature")))
    assert (result.decision, result.reasons[0].rule, result.reasons[0].source) == (
        Decision.ALLOW,
        "grant.pattern",
        f"grant {grant.id}",
    )
    assert len(k.store.list_requests()) == 1
    assert ledger_rows(k)[-1] == ("decided", "allow", "grant", "grant.pattern")


def test_a_grant_never_turns_a_deny_into_anything(keeper: Keeper) -> None:
    k = keeper(ASK)
    run_answered(k, shell(), approve=True, always=True, scope=Scope.SESSION)
    k.gate = ScriptedGate(k.policy, HARD_DENY)
    assert asyncio.run(k.request(shell())) == HARD_DENY


def test_a_grant_never_applies_to_a_hardline_call(keeper: Keeper) -> None:
    k = keeper(ASK)
    run_answered(k, shell("rm -r build"), approve=True, always=True)
    k.gate = ScriptedGate(k.policy, HARDLINE_ASK)
    assert k.decide(shell("rm -r build")) == HARDLINE_ASK


# -- callbacks and confirmation -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "decision", "message"),
    [
        ({"kind": "once"}, Decision.ALLOW, "approved once by your code (on_permission)"),
        (
            PermissionDecision("reject", feedback="No installs in this run"),
            Decision.DENY,
            "denied by your code (on_permission): No installs in this run",
        ),
        (
            {"kind": "maybe"},
            Decision.DENY,
            "denied by your code (on_permission): on_permission failed: "
            "ValueError: permission decision kind must be once, always or reject, not 'maybe'",
        ),
    ],
)
def test_an_on_permission_callback_answers_in_code(
    keeper: Keeper, reply: object, decision: Decision, message: str
) -> None:
    async def on_permission(request: ApprovalRequest) -> object:
        return reply

    k = keeper(ASK, on_permission=on_permission)
    result = asyncio.run(k.request(shell()))
    assert (result.decision, result.reasons[0].rule, result.reasons[0].message) == (
        decision,
        "approval.callback",
        message,
    )
    assert ledger_rows(k)[-1][2] == "callback"


def test_a_callback_s_always_on_a_hardline_call_approves_only_once(keeper: Keeper) -> None:
    k = keeper(HARDLINE_ASK, on_permission=lambda request: {"kind": "always"})
    assert asyncio.run(k.request(shell("rm -r build"))).decision is Decision.ALLOW
    assert ([r.state for r in k.store.list_requests()], k.store.list_grants()) == (
        [RequestState.APPROVED_ONCE],
        [],
    )


def test_a_person_s_prior_confirmation_answers_an_ask_but_never_a_deny(keeper: Keeper) -> None:
    asked = asyncio.run(keeper(ASK).request(shell(), confirmed_by_person=True))
    denied = asyncio.run(keeper(HARD_DENY).request(shell(), confirmed_by_person=True))
    assert (asked.decision, asked.reasons[0].rule, denied) == (
        Decision.ALLOW,
        "approval.confirmed",
        HARD_DENY,
    )


# -- repeat-failure guard -----------------------------------------------------------------------


def test_the_first_verbatim_repeat_of_a_hard_reject_is_halted(keeper: Keeper) -> None:
    k = keeper(HARD_DENY)
    first, second = asyncio.run(k.request(shell())), asyncio.run(k.request(shell()))
    other_session = asyncio.run(k.request(shell(session="s2")))
    assert (first, second.reasons[0].rule, second.marker, other_session) == (
        HARD_DENY,
        "breaker.hard-reject-repeat",
        MARKER_BLOCKED,
        HARD_DENY,
    )
    assert second.message.startswith(
        "[policy-blocked] this exact call was already refused and will be refused again; it may be retried "
        "after 00:21:40 UTC (in 300s); stop retrying this call: change approach, or stop and report back "
        "to the user"
    )


def test_a_call_that_failed_three_times_is_halted_and_a_success_resets_it(keeper: Keeper) -> None:
    k = keeper(ALLOW)
    for _ in range(3):
        k.record_execution(shell(), asyncio.run(k.request(shell())), 1, 0.1)
    halted = asyncio.run(k.request(shell()))
    assert (halted.decision, halted.reasons[0].rule) == (Decision.DENY, "breaker.repeat-failure")
    k.store.note_outcome("s1", k.hasher.digest(shell()), failed=False, hard=False, at=0.0)
    assert asyncio.run(k.request(shell())) == ALLOW


def test_an_executed_call_is_recorded_with_its_exit_status_duration_and_decision_id(keeper: Keeper) -> None:
    k = keeper(ALLOW)
    evaluation = asyncio.run(k.request(shell()))
    k.record_execution(shell(), evaluation, 0, 1.5)
    decided, executed = (r.event for r in k.ledger.events())
    assert (
        executed.kind,
        executed.exit_code,
        executed.duration,
        executed.decision_id,
        executed.resolver,
    ) == ("executed", 0, 1.5, decided.decision_id, "policy")


# -- limits -------------------------------------------------------------------------------------


def test_the_call_over_max_calls_per_turn_is_refused_and_another_turn_is_not(keeper: Keeper) -> None:
    k = keeper(ALLOW, limits=LimitsConfig(max_calls_per_turn=25))
    results = [asyncio.run(k.request(shell(f"echo {n}", turn="t1"))).decision for n in range(26)]
    over = asyncio.run(k.request(shell("echo x", turn="t1")))
    assert (results.count(Decision.ALLOW), results[-1], over.reasons[0].rule, over.marker) == (
        25,
        Decision.DENY,
        "limits.max_calls_per_turn",
        MARKER_BLOCKED,
    )
    assert asyncio.run(k.request(shell("echo y", turn="t2"))) == ALLOW
    assert ledger_rows(k)[25] == ("decided", "deny", "limit", "limits.max_calls_per_turn")


def test_a_call_after_max_turn_duration_is_refused(keeper: Keeper) -> None:
    clock = FakeClock(1000.0)
    k = keeper(ALLOW, clock=clock, limits=LimitsConfig(max_turn_duration=300.0))
    first = asyncio.run(k.request(shell("echo 1", turn="t1")))
    clock.advance(301.0)
    late = asyncio.run(k.request(shell("echo 2", turn="t1")))
    assert (first, late.reasons[0].rule) == (ALLOW, "limits.max_turn_duration")


def test_calls_per_minute_refuses_the_excess_until_the_minute_passes(keeper: Keeper) -> None:
    clock = FakeClock(1000.0)
    k = keeper(ALLOW, clock=clock, limits=LimitsConfig(calls_per_minute=3))
    decisions = [asyncio.run(k.request(shell(f"echo {n}"))).decision for n in range(4)]
    clock.advance(61.0)
    assert (decisions, asyncio.run(k.request(shell("echo 9")))) == (
        [Decision.ALLOW] * 3 + [Decision.DENY],
        ALLOW,
    )


def test_a_limit_refusal_does_not_feed_the_repeat_guard(keeper: Keeper) -> None:
    clock = FakeClock(1000.0)
    k = keeper(ALLOW, clock=clock, limits=LimitsConfig(calls_per_minute=1))
    asyncio.run(k.request(shell()))
    for _ in range(4):
        asyncio.run(k.request(shell()))
    clock.advance(61.0)
    assert asyncio.run(k.request(shell())) == ALLOW


# -- failing closed -----------------------------------------------------------------------------


class BrokenLedger(MemoryLedgerStore):
    def append(self, events: Sequence[AuditEvent]) -> list[LedgerRecord]:
        raise StoreError("disk full")


class BrokenStore(MemoryStore):
    def failure_record(self, session: str, key: str) -> Any:
        raise StoreError("database is locked")


def test_an_allow_the_ledger_cannot_record_becomes_a_deny(policy: Policy) -> None:
    k = Gatekeeper(
        ScriptedGate(policy, ALLOW),
        store=MemoryStore(),
        ledger=Ledger(BrokenLedger(), hasher=ArgumentHasher(b"k" * 32)),
        clock=FakeClock(),
    )
    result = asyncio.run(k.request(shell()))
    assert (result.decision, result.reasons[0].rule, result.marker) == (
        Decision.DENY,
        "audit.unavailable",
        None,
    )


def test_a_failing_store_is_a_deny_without_a_permanent_marker(keeper: Keeper) -> None:
    # Transient: the same call may pass once the store is back, so the repeat guard must not
    # treat it as a hard reject.
    result = keeper(ALLOW, store=BrokenStore()).decide(shell())
    assert (result.decision, result.reasons[0].rule, result.reasons[0].message, result.marker) == (
        Decision.DENY,
        "state.unavailable",
        "cannot decide safely: StoreError: database is locked",
        None,
    )


# -- the SQLite-backed factory ------------------------------------------------------------------


def test_open_gatekeeper_keeps_its_state_in_private_files(policy: Policy, tmp_path: Path) -> None:
    # The state database, its counters' file (bookkeeping, committed without a WAL sync) and
    # the key; each SQLite file's own -wal/-shm companions are left out.
    state = tmp_path / "fresh-state"
    env = {"BASTION_STATE_DIR": str(state), "HOME": str(tmp_path)}
    with open_gatekeeper(Configuration(policy), env, gate=ScriptedGate(policy, ALLOW)) as k:
        assert k.request_sync(shell()) == ALLOW
    assert (
        oct(state.stat().st_mode & 0o777),
        oct((state / "bastion.db").stat().st_mode & 0o777),
        oct((state / "bastion-counters.db").stat().st_mode & 0o777),
        sorted(p for p in os.listdir(state) if not p.endswith(("-wal", "-shm"))),
    ) == ("0o700", "0o600", "0o600", ["bastion-counters.db", "bastion.db", "ledger.key"])


def test_policy_limits_and_audit_tables_reach_the_gatekeeper(tmp_path: Path) -> None:
    from bastion.configuration import load_text

    env = {"HOME": str(tmp_path / "home"), "BASTION_STATE_DIR": str(tmp_path / "state")}
    config = load_text(
        "[limits]\nmax_calls_per_turn = 2\n[audit]\nstore_raw_arguments = true\n", cwd=str(tmp_path), env=env
    )
    with open_gatekeeper(config, env) as keeper:
        call = ToolCall("read", {"path": "a.txt"}, cwd=str(tmp_path), session="s", turn="t1")
        decisions = [keeper.request_sync(call).decision for _ in range(3)]
        assert decisions == [Decision.ALLOW, Decision.ALLOW, Decision.DENY]
        events = keeper.ledger.events(session="s")
        assert events[-1].event.rule.startswith("limits.")
        assert events[0].event.raw_args is not None


def test_a_gatekeeper_over_a_gate_parks_and_an_on_permission_callback_answers(tmp_path: Path) -> None:
    from bastion.configuration import load_policy_text

    env = {"HOME": str(tmp_path / "home"), "BASTION_STATE_DIR": str(tmp_path / "state")}
    gate = Gate(load_policy_text("", cwd=str(tmp_path), env=env))
    call = ToolCall("write", {"path": "/opt/elsewhere"}, cwd=str(tmp_path), session="s", interactive=True)
    seen: list[str] = []

    def reject(request: ApprovalRequest) -> dict[str, str]:
        seen.append(request.summary)
        return {"kind": "reject", "feedback": "write inside the project"}

    policy = gate.policy
    with open_gatekeeper(Configuration(policy), env, gate=gate, on_permission=reject) as keeper:
        denied = asyncio.run(keeper.request(call))
    assert seen == ["write: /opt/elsewhere"]
    assert (denied.decision, denied.reasons[0].rule, denied.reasons[0].message) == (
        Decision.DENY,
        "approval.callback",
        "denied by your code (on_permission): write inside the project",
    )
    with open_gatekeeper(Configuration(policy), env, gate=gate) as keeper:
        allowed = asyncio.run(keeper.request(ToolCall("read", {"path": "a.txt"}, cwd=str(tmp_path))))
    assert allowed.decision is Decision.ALLOW


# -- issue 15: no way around the gate ------------------------------------------------------------

PRIVILEGE_ASK = Evaluation(
    Decision.ASK,
    (Reason(Decision.ASK, "shell.floor", "built-in", "sudo", "runs with raised privileges"),),
    (Effect.READ, Effect.PRIVILEGE),
)


def test_approve_always_on_sudo_is_refused_as_a_standing_grant_on_every_path(keeper: Keeper) -> None:
    from bastion.approval.queue import AnswerError

    k = keeper(PRIVILEGE_ASK)

    async def scenario() -> tuple[ApprovalRequest, str]:
        task = asyncio.ensure_future(k.request(shell("sudo ls")))
        for _ in range(100):
            pending = k.store.list_requests([RequestState.PENDING])
            if pending:
                break
            await asyncio.sleep(0)
        try:
            k.queue.answer(pending[0].id, approve=True, always=True, approver="k1")
        except AnswerError as exc:
            refused = str(exc)
        k.queue.answer(pending[0].id, approve=True, approver="k1")
        await task
        return pending[0], refused

    request, refused = asyncio.run(scenario())
    assert (
        request.grantable,
        request.offer["grantable"],
        request.suggested_pattern,
        refused,
        k.store.list_grants(),
    ) == (
        False,
        False,
        None,
        "this call involves a hardline class or raised privilege: never a standing grant",
        [],
    )


def test_a_pattern_grant_a_person_typed_never_answers_a_privilege_call(
    keeper: Keeper, policy: Policy
) -> None:
    from bastion.approval.model import Grant

    k = keeper(PRIVILEGE_ASK)
    k.store.add_grant(
        Grant(
            id="g1",
            tool="shell",
            scope=Scope.PROJECT,
            scope_value=k.project_of(shell()),
            summary="sudo *",
            created=1.0,
            pattern="sudo *",
        )
    )
    assert k.decide(shell("sudo ls")) == PRIVILEGE_ASK


def test_refused_calls_do_not_count_toward_calls_per_minute_so_a_retrying_agent_gets_through(
    keeper: Keeper,
) -> None:
    clock = FakeClock(1000.0)
    k = keeper(ALLOW, clock=clock, limits=LimitsConfig(calls_per_minute=12, max_calls_per_turn=None))
    allowed: list[float] = []
    for n in range(130):  # a burst of 30, then an agent retrying every 3 s for 300 s
        if n >= 30:
            clock.advance(3.0)
        if asyncio.run(k.request(shell(f"echo {n}"))).decision is Decision.ALLOW:
            allowed.append(clock.now())
    busiest = max(sum(1 for t in allowed if start - 60 < t <= start) for start in allowed)
    retried = [t for t in allowed if t > 1000.0]
    # Counting refusals, every 3 s retry kept the minute full: nothing after the burst got through.
    assert (busiest, len(allowed[:12]), len(retried) >= 4 * 12) == (12, 12, True)


def test_the_repeat_failure_breaker_recovers_after_its_cooldown_even_while_the_agent_retries(
    keeper: Keeper,
) -> None:
    clock = FakeClock(1000.0)
    k = keeper(ALLOW, clock=clock, limits=LimitsConfig(breaker_cooldown=300.0))
    for _ in range(3):
        k.record_execution(shell(), asyncio.run(k.request(shell())), 1, 0.1)
    seen = []
    for _ in range(10):  # retries every 30 s must not keep the breaker tripped
        seen.append(asyncio.run(k.request(shell())).reasons[0].rule)
        clock.advance(30.0)
    assert seen == ["breaker.repeat-failure"] * 10
    clock.advance(1.0)
    assert asyncio.run(k.request(shell())) == ALLOW


def test_a_breaker_cooldown_from_the_policy_reaches_the_gatekeeper(tmp_path: Path) -> None:
    from bastion.configuration import load_text

    env = {"HOME": str(tmp_path / "home"), "BASTION_STATE_DIR": str(tmp_path / "state")}
    policy = load_text('[limits]\nbreaker_cooldown = "90s"\n', cwd=str(tmp_path), env=env)
    default = load_text("", cwd=str(tmp_path), env=env)
    assert (policy.limits.breaker_cooldown, default.limits.breaker_cooldown) == (90.0, 300.0)


def test_the_waiter_and_the_answering_side_write_one_resolution_with_the_approver(keeper: Keeper) -> None:
    k = keeper(ASK)
    final = run_answered(k, shell(), approve=True)
    resolved = [r.event for r in k.ledger.events() if r.event.kind == "resolved"]
    assert (final.decision, [(e.decision, e.resolver, e.approver) for e in resolved]) == (
        Decision.ALLOW,
        [("allow", "person", "k1")],
    )


# -- request_sync: an event loop only for a call that parks ------------------------------------


def test_request_sync_answers_a_call_that_does_not_park_without_starting_an_event_loop(
    keeper: Keeper, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_loop(*args: object, **kw: object) -> None:
        raise AssertionError("an event loop was started")

    monkeypatch.setattr("bastion.runtime.asyncio.run", no_loop)
    k = keeper(ASK)
    answers = (k.request_sync(shell(interactive=False)), k.request_sync(shell(), confirmed_by_person=True))
    assert ([a.decision for a in answers], ledger_rows(k)) == (
        [Decision.DENY, Decision.ALLOW],
        [("decided", "deny", "policy", "rule[1]"), ("decided", "allow", "person", "approval.confirmed")],
    )


def test_request_sync_still_parks_an_ask_and_takes_the_callback_s_answer(keeper: Keeper) -> None:
    k = keeper(ASK, on_permission=lambda request: {"kind": "once"})
    result = k.request_sync(shell())
    assert (result.decision, [row[:3] for row in ledger_rows(k)]) == (
        Decision.ALLOW,
        [("requested", "ask", "policy"), ("resolved", "allow", "callback")],
    )
