"""The Gatekeeper's containment stage: ``[exec] contain`` applied before the record, the
profile computed from what the gate judged, an uncontainable call asked about, and
"approve uncontained" as a person's explicit, recorded, one-call choice."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bastion.approval.queue import AnswerError
from bastion.approval.state import RequestState
from bastion.call.effects import Effect
from bastion.call.model import ToolCall
from bastion.exec.settle import CallOrigin, Settled
from bastion.policy.containment import Contain, Filesystem, Profile
from bastion.policy.decision import Decision, Evaluation, Reason
from bastion.runtime import Gatekeeper
from bastion.runtime.contain import Containment, settle_runs
from tests.test_runtime import ALLOW, HARD_DENY, Keeper, keeper, ledger_rows, policy, run_answered, shell

__all__ = ["keeper", "policy"]  # the fixtures, shared with tests/test_runtime.py

WRITE_ASK = Evaluation(
    Decision.ASK,
    (Reason(Decision.ASK, "rule[1]", "/p/policy.toml:4", "make", "a person decides"),),
    (Effect.CODE, Effect.WRITE),
)
FETCH_ALLOW = Evaluation(
    Decision.ALLOW,
    (Reason(Decision.ALLOW, "rule[2]", "/p/policy.toml:6", "curl", "fine"),),
    (Effect.READ, Effect.NETWORK),
)


@dataclass(frozen=True)
class FakeRun:
    """A prepared run: its line says which run and which command."""

    ref: str

    def shell_command(self, original: str, timeout: float | None = None) -> str:
        return f"run {self.ref} ({timeout}): {original}"


class Machine:
    """The answer to "can this profile be contained here?", every profile asked about, every
    run built (or the problem instead), and the runs that ended."""

    def __init__(self, problem: str | None = None, ended: Sequence[Settled] = ()) -> None:
        self.problem_text = problem
        self.asked: list[Profile] = []
        self.built: list[tuple[str, Profile]] = []
        self.ended = list(ended)

    def problem(self, profile: Profile) -> str | None:
        self.asked.append(profile)
        return self.problem_text

    def prepare(self, call: ToolCall, profile: Profile) -> FakeRun | str:
        self.built.append((call.args["command"], profile))
        return self.problem_text or FakeRun(f"r{len(self.built)}")

    def finished(self) -> list[Settled]:
        done, self.ended = self.ended, []
        return done


def contained(keeper: Keeper, answer: Evaluation, mode: Contain = Contain.ALL, **kw: Any) -> Gatekeeper:
    machine = kw.pop("machine", Machine())
    return keeper(answer, containment=Containment(mode, machine), **kw)


def test_an_allowed_shell_call_carries_the_profile_of_what_the_gate_found(keeper: Keeper) -> None:
    k = contained(keeper, FETCH_ALLOW)

    final = asyncio.run(k.request(shell("curl -s https://Example.org/a.json")))

    assert (final.decision, final.profile) == (
        Decision.ALLOW,
        Profile(Filesystem.READ_ONLY, ("example.org",)),
    )
    assert ledger_rows(k) == [("decided", "allow", "policy", "rule[2]")]


def test_the_hosts_come_from_the_gates_own_analysis(keeper: Keeper) -> None:
    k = contained(keeper, FETCH_ALLOW)
    parsed: list[str] = []
    real = k.gate.analyze_shell

    def spy(command: str) -> Any:
        parsed.append(command)
        return real(command)

    k.gate.analyze_shell = spy  # type: ignore[method-assign]

    asyncio.run(k.request(shell("curl https://a.example/x")))

    assert parsed == ["curl https://a.example/x"]


def test_a_call_that_cannot_be_contained_asks_and_the_ledger_says_so(keeper: Keeper) -> None:
    k = contained(keeper, ALLOW, machine=Machine("bubblewrap ('bwrap') is not installed"))

    final = asyncio.run(k.request(shell("git status", interactive=False)))

    # Nobody can be asked here: the non-interactive default denies, with the cause first.
    assert (final.decision, [r.rule for r in final.reasons], final.profile) == (
        Decision.DENY,
        ["exec.uncontainable", "rule[2]", "approval.non_interactive_default"],
        None,
    )
    assert ledger_rows(k) == [("decided", "deny", "policy", "exec.uncontainable")]


def test_a_call_a_person_approves_runs_contained_under_all(keeper: Keeper) -> None:
    k = contained(keeper, WRITE_ASK)

    final = run_answered(k, shell("make test"), approve=True)

    assert (final.decision, final.reasons[0].rule, final.profile) == (
        Decision.ALLOW,
        "approval.person",
        Profile(Filesystem.WORKSPACE_WRITE, ()),
    )


def test_the_question_itself_carries_the_profile_the_card_shows(keeper: Keeper) -> None:
    k = contained(keeper, WRITE_ASK)

    run_answered(k, shell("make test"), approve=True)

    (request,) = k.store.list_requests([RequestState.APPROVED_ONCE])
    assert request.profile == {"filesystem": "workspace-write", "network": "none", "hosts": []}


def test_contain_allowed_leaves_an_approved_call_as_written(keeper: Keeper) -> None:
    k = contained(keeper, WRITE_ASK, Contain.ALLOWED)

    final = run_answered(k, shell("make test"), approve=True)

    assert (final.decision, final.profile) == (Decision.ALLOW, None)


def test_contain_off_contains_nothing(keeper: Keeper) -> None:
    k = contained(keeper, ALLOW, Contain.OFF)

    assert asyncio.run(k.request(shell("git status"))).profile is None


@pytest.mark.parametrize("answer", [HARD_DENY, ALLOW])
def test_a_denial_or_a_call_no_hook_can_rewrite_carries_no_profile(
    keeper: Keeper, answer: Evaluation
) -> None:
    k = contained(keeper, answer)
    from bastion.call.model import ToolCall

    call = shell("rm -rf ~") if answer is HARD_DENY else ToolCall("read", {"path": "/p/a"}, cwd="/p")

    assert asyncio.run(k.request(call)).profile is None


def test_a_caller_that_cannot_contain_gets_no_profile_and_no_question(keeper: Keeper) -> None:
    k = contained(keeper, ALLOW, machine=Machine("no bwrap"))

    final = asyncio.run(k.request(shell("git status"), contain=False))

    assert (final.decision, final.profile) == (Decision.ALLOW, None)


def test_approve_uncontained_runs_as_written_and_is_recorded_with_its_approver(keeper: Keeper) -> None:
    k = contained(keeper, WRITE_ASK)

    final = run_answered(k, shell("make test"), approve=True, uncontained=True)

    assert (final.decision, final.reasons[0].rule, final.profile) == (
        Decision.ALLOW,
        "approval.uncontained",
        None,
    )
    assert "to run uncontained, as written, outside the sandbox" in final.message
    resolved = [r.event for r in k.ledger.events() if r.event.kind == "resolved"]
    assert [(e.decision, e.rule, e.approver) for e in resolved] == [("allow", "approval.uncontained", "k1")]
    assert k.store.grants_for("shell") == []


@pytest.mark.parametrize("answer", [{"approve": True, "always": True}, {"approve": False}])
def test_approve_uncontained_is_never_a_standing_grant_nor_a_denial(
    keeper: Keeper, answer: dict[str, bool]
) -> None:
    k = contained(keeper, WRITE_ASK)

    with pytest.raises(AnswerError, match="never a standing grant"):
        run_answered(k, shell("make test"), uncontained=True, **answer)


def test_an_allowed_call_s_run_is_built_once_before_its_record_with_no_second_check(keeper: Keeper) -> None:
    machine = Machine()
    k = contained(keeper, ALLOW, machine=machine)

    final = asyncio.run(k.request(shell("git status")))

    assert (final.decision, final.profile, final.prepared) == (
        Decision.ALLOW,
        Profile(Filesystem.READ_ONLY),
        FakeRun("r1"),
    )
    assert (machine.built, machine.asked) == ([("git status", Profile(Filesystem.READ_ONLY))], [])
    assert ledger_rows(k) == [("decided", "allow", "policy", "rule[2]")]


def test_a_host_profile_is_checked_not_built_its_proxy_lives_with_sandbox_run(keeper: Keeper) -> None:
    machine = Machine()
    k = contained(keeper, FETCH_ALLOW, machine=machine)

    final = asyncio.run(k.request(shell("curl -s https://example.org/a")))

    hosts = Profile(Filesystem.READ_ONLY, ("example.org",))
    assert (final.profile, final.prepared, machine.built, machine.asked) == (hosts, None, [], [hosts])


def test_a_question_is_not_built_and_the_approved_answer_is(keeper: Keeper) -> None:
    machine = Machine()
    k = contained(keeper, WRITE_ASK, machine=machine)

    final = run_answered(k, shell("make test"), approve=True)

    write = Profile(Filesystem.WORKSPACE_WRITE)
    assert (final.reasons[0].rule, final.prepared) == ("approval.person", FakeRun("r1"))
    assert (machine.built, machine.asked) == ([("make test", write)], [write])


def test_an_approved_call_whose_run_cannot_be_built_keeps_its_profile_and_no_line(keeper: Keeper) -> None:
    # The person already answered: no second question; the adapter says `sandbox run`,
    # which fails closed if the sandbox is gone by then.
    k = contained(keeper, WRITE_ASK, machine=Machine())
    k.containment.check.problem_text = "the state dir refused the run's record"  # type: ignore[union-attr]

    final = run_answered(k, shell("make test"), approve=True)

    assert (final.decision, final.profile, final.prepared) == (
        Decision.ALLOW,
        Profile(Filesystem.WORKSPACE_WRITE),
        None,
    )


def test_a_check_builds_no_run(keeper: Keeper) -> None:
    machine = Machine()
    k = contained(keeper, ALLOW, machine=machine)

    answer = k.decide(shell("git status"))

    assert (answer.profile, answer.prepared, machine.built) == (Profile(Filesystem.READ_ONLY), None, [])


def test_the_exit_of_each_ended_run_is_recorded_as_its_call_and_no_other(keeper: Keeper) -> None:
    ran = Settled(
        "a", True, 3, "read-only, network: none", "/p", (), CallOrigin("git status", "s1", "claude"), 0.5
    )
    killed = Settled(
        "b", True, None, "read-only, network: none", "/p", (), CallOrigin("sleep 9", "s1"), 120.0
    )
    never = Settled("c", False, None, "read-only, network: none", "/p", (), CallOrigin("ls", "s1"))
    by_hand = Settled("d", True, 0, "read-only, network: none", "/p")
    k = contained(keeper, ALLOW, machine=Machine(ended=[ran, killed, never, by_hand]))

    recorded = settle_runs(k)

    events = [r.event for r in k.ledger.events()]
    assert recorded == 2
    assert [(e.kind, e.summary, e.rule, e.exit_code, e.session, e.agent) for e in events] == [
        ("executed", "shell: git status", "exec.contained", 3, "s1", "claude"),
        ("executed", "shell: sleep 9", "exec.contained", None, "s1", None),
    ]
    assert settle_runs(k) == 0


@pytest.mark.parametrize(
    ("command", "host"), [("git push origin main", "github.com"), ("git fetch lab", "gitlab.example.com:22")]
)
def test_an_approved_push_to_a_named_remote_carries_the_remotes_host(
    keeper: Keeper, tmp_path: Path, command: str, host: str
) -> None:
    # #30 item 2: `git push origin main` names no host; the repository's configuration does.
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / ".git" / "config").write_text(
        '[remote "origin"]\n\turl = https://github.com/acme/widget.git\n'
        '[remote "lab"]\n\turl = git@gitlab.example.com:acme/widget.git\n'
    )
    k = contained(keeper, dataclasses.replace(WRITE_ASK, effects=(Effect.NETWORK, Effect.WRITE)))

    call = ToolCall("shell", {"command": command}, cwd=str(tmp_path), interactive=True, session="s1")
    final = run_answered(k, call, approve=True)

    assert (final.decision, final.profile) == (Decision.ALLOW, Profile(Filesystem.WORKSPACE_WRITE, (host,)))
    (request,) = k.store.list_requests([RequestState.APPROVED_ONCE])
    assert request.profile == {"filesystem": "workspace-write", "network": "hosts", "hosts": [host]}


@pytest.mark.parametrize(
    ("command", "hosts"),
    [
        ("npm install lodash", ("registry.npmjs.org",)),
        ("npm ci", ("registry.npmjs.org",)),
        ("pip install -e .", ("pypi.org", "files.pythonhosted.org")),
        ("python3 -m pip install requests", ("pypi.org", "files.pythonhosted.org")),
        ("make test", ()),
        ("npm run build", ()),  # no install: no registry
    ],
)
def test_an_approved_install_reaches_its_managers_default_registry(
    keeper: Keeper, command: str, hosts: tuple[str, ...]
) -> None:
    k = contained(
        keeper, dataclasses.replace(WRITE_ASK, effects=(Effect.NETWORK, Effect.INSTALL, Effect.CODE))
    )

    final = run_answered(k, shell(command), approve=True)

    assert (final.decision, final.profile) == (Decision.ALLOW, Profile(Filesystem.WORKSPACE_WRITE, hosts))


#: What the gate answers for workspace code when it runs contained (shell.contained-code).
CODE_ALLOW = Evaluation(
    Decision.ALLOW,
    (Reason(Decision.ALLOW, "shell.contained-code", "built-in", "make test", "runs contained"),),
    (Effect.CODE, Effect.WRITE),
)


def test_workspace_code_allowed_contained_runs_in_the_workspace_code_profile(keeper: Keeper) -> None:
    machine = Machine()
    k = contained(keeper, CODE_ALLOW, machine=machine)

    final = k.request_sync(shell("make test"))

    assert (final.decision, final.profile, machine.built) == (
        Decision.ALLOW,
        Profile(Filesystem.WORKSPACE_CODE),
        [("make test", Profile(Filesystem.WORKSPACE_CODE))],
    )
    assert ledger_rows(k) == [("decided", "allow", "policy", "shell.contained-code")]


@pytest.mark.parametrize(
    "where", ["contain off", "no containment stage", "an agent whose hook cannot rewrite"]
)
def test_workspace_code_asks_wherever_it_would_run_as_written(keeper: Keeper, where: str) -> None:
    if where == "contain off":
        final = contained(keeper, CODE_ALLOW, Contain.OFF).decide(shell("make test"))
    elif where == "no containment stage":
        final = keeper(CODE_ALLOW).decide(shell("make test"))
    else:
        final = contained(keeper, CODE_ALLOW).decide(shell("make test"), contain=False)

    assert (final.decision, final.profile, [r.rule for r in final.reasons]) == (
        Decision.ASK,
        None,
        ["exec.uncontainable", "shell.contained-code"],
    )
    assert "allowed only inside the sandbox" in final.message


def test_workspace_code_that_would_run_as_written_is_recorded_as_the_question_it_is(keeper: Keeper) -> None:
    k = contained(keeper, CODE_ALLOW)

    final = k.request_sync(shell("make test"), contain=False)  # parked; nobody answers

    assert (final.decision, final.profile) == (Decision.DENY, None)
    assert ledger_rows(k) == [
        ("requested", "ask", "policy", "exec.uncontainable"),
        ("resolved", "deny", "timeout", "approval.timeout"),
    ]


def test_workspace_code_the_machine_cannot_contain_asks_with_the_machines_reason(keeper: Keeper) -> None:
    k = contained(keeper, CODE_ALLOW, machine=Machine(problem="bubblewrap is not installed"))

    final = k.decide(shell("make test"))

    assert (final.decision, final.reasons[0].rule, final.reasons[0].message) == (
        Decision.ASK,
        "exec.uncontainable",
        "bubblewrap is not installed",
    )


def test_workspace_code_a_person_confirmed_runs_as_they_confirmed_it(keeper: Keeper) -> None:
    k = contained(keeper, CODE_ALLOW, Contain.OFF)

    final = k.request_sync(shell("make test"), confirmed_by_person=True)

    assert (final.decision, final.reasons[0].rule) == (Decision.ALLOW, "approval.confirmed")


def test_shadow_mode_s_allow_of_workspace_code_stays_an_allow_where_it_would_run_as_written(
    keeper: Keeper,
) -> None:
    shadowed = dataclasses.replace(CODE_ALLOW, shadow=True, would=Decision.ALLOW)

    final = keeper(shadowed).decide(shell("make test"))

    assert (final.decision, final.shadow, final.reasons[0].rule) == (
        Decision.ALLOW,
        True,
        "shell.contained-code",
    )
