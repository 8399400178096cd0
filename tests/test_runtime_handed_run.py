"""``bastion.runtime.handed_run``: a contained run rides on a hand-off to the agent's prompt
only when the ledger holds that decision requested of the agent, within the ttl, for this very
command and folder, unresolved, with hosts on the line, and no earlier run used it; anything
else (forged, reused, resolved, parked in Bastion's queue, another command, too old, an
unreadable ledger) is no approval, said in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from bastion.approval.clock import FakeClock
from bastion.audit.events import EventKind, make_event
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.settings import AuditConfig
from bastion.audit.store import MemoryLedgerStore
from bastion.call.model import ToolCall
from bastion.exec.egress.only import Approved
from bastion.policy.decision import Decision, Evaluation, Reason
from bastion.runtime.hand_offs import HandOffs
from bastion.runtime.handed_run import hand_off_of, ride_on_hand_off

HASHER = ArgumentHasher(b"k" * 32)
ID = "AbCdEfGhIjKlMnOpQrStUv"
PUSH = ("bash", "-c", "git push origin main")
HOSTS = ("GitHub.com",)
ASKED = Evaluation(Decision.ASK, (Reason(Decision.ASK, "network.ask", "policy", "github.com", "asks"),))
CALL = ToolCall("shell", {"command": "git push origin main"}, cwd="/p", session="s", agent="claude/toolu_1")


def _ledger(*, resolver: str = "agent", decision_id: str = ID, call: ToolCall = CALL) -> Ledger:
    ledger = Ledger(MemoryLedgerStore(), hasher=HASHER)
    event = make_event(call, ASKED, kind=EventKind.REQUESTED, decision_id=decision_id, resolver=resolver,
                       time=100.0, hasher=HASHER, config=AuditConfig())  # fmt: skip
    ledger.append(event)
    return ledger


def _ride(ledger: Ledger, tmp_path: Path, *, argv: tuple[str, ...] = PUSH, decision_id: str = ID,
          hosts: tuple[str, ...] = HOSTS, cwd: str = "/p", now: float = 150.0) -> Approved | str:  # fmt: skip
    return ride_on_hand_off(ledger, HASHER, decision_id, argv, hosts, cwd=cwd, now=now, ttl=300.0,
                            state_dir=str(tmp_path))  # fmt: skip


def test_an_unresolved_hand_off_of_this_command_carries_the_lines_hosts(tmp_path: Path) -> None:
    assert _ride(_ledger(), tmp_path) == Approved(ID, ("github.com",))


def test_a_hand_off_carries_one_run_and_a_second_is_told_it_was_used(tmp_path: Path) -> None:
    ledger = _ledger()
    first, second = _ride(ledger, tmp_path), _ride(ledger, tmp_path)
    assert (first, second) == (Approved(ID, ("github.com",)), f"the hand-off {ID} was used by an earlier run")


@pytest.mark.parametrize(("ran", "told"), [(False, "deny"), (True, "allow")])
def test_a_resolved_hand_off_is_no_approval(tmp_path: Path, ran: bool, told: str) -> None:
    ledger = _ledger()
    hand_offs = HandOffs(ledger, FakeClock(120.0))
    if ran:
        hand_offs.ran(session="s", agent="claude/toolu_1", approver="claude prompt")
    else:
        hand_offs.not_run(session="s", approver="claude prompt", why="the turn ended")
    assert _ride(ledger, tmp_path) == f"hand-off {ID} was resolved {told} already"


def test_a_request_parked_in_bastions_queue_is_no_hand_off(tmp_path: Path) -> None:
    told = f"decision {ID} was not handed to the agent's prompt"
    assert _ride(_ledger(resolver="policy"), tmp_path) == told


@pytest.mark.parametrize(
    ("argv", "cwd"), [(("bash", "-c", "git push origin main:other"), "/p"), (PUSH, "/elsewhere")]
)
def test_another_command_or_folder_is_no_approval(tmp_path: Path, argv: tuple[str, ...], cwd: str) -> None:
    assert _ride(_ledger(), tmp_path, argv=argv, cwd=cwd) == f"hand-off {ID} asked about another command"


@pytest.mark.parametrize("argv", [("git", "push", "origin", "main"), ("sh", "-c", "git push origin main")])
def test_a_command_not_in_the_handed_off_form_is_no_approval(tmp_path: Path, argv: tuple[str, ...]) -> None:
    assert (
        _ride(_ledger(), tmp_path, argv=argv) == "the command is not the handed-off call's 'bash -c COMMAND'"
    )


def test_a_hand_off_older_than_the_ttl_is_no_approval(tmp_path: Path) -> None:
    assert _ride(_ledger(), tmp_path, now=401.0) == f"no hand-off {ID} within the approval ttl"


@pytest.mark.parametrize("forged", ["AAAAAAAAAAAAAAAAAAAAAA", "../../../etc/passwd", "", ID + "x"])
def test_a_forged_id_is_no_approval_and_claims_nothing(tmp_path: Path, forged: str) -> None:
    found = _ride(_ledger(), tmp_path, decision_id=forged)
    assert isinstance(found, str)
    assert not (tmp_path / "approved-runs").exists()


def test_a_line_that_names_no_host_is_no_approval(tmp_path: Path) -> None:
    assert _ride(_ledger(), tmp_path, hosts=()) == f"the run of hand-off {ID} names no host"


def test_a_ledger_that_cannot_be_read_is_no_approval(tmp_path: Path) -> None:
    broken = Ledger(_Broken(), hasher=HASHER)
    assert _ride(broken, tmp_path) == "the ledger cannot be read: OSError: disk gone"


class _Broken(MemoryLedgerStore):
    def query(self, query: object) -> list[object]:  # type: ignore[override]
        raise OSError("disk gone")


def test_the_hook_finds_the_hand_off_of_its_own_call_only() -> None:
    ledger = _ledger()
    other = ToolCall(
        "shell", {"command": "git push origin main"}, cwd="/p", session="s", agent="claude/toolu_2"
    )
    parked = _ledger(resolver="policy")
    assert (hand_off_of(ledger, HASHER, CALL), hand_off_of(ledger, HASHER, other),
            hand_off_of(parked, HASHER, CALL)) == (ID, None, None)  # fmt: skip
