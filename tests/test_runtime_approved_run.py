"""``bastion.runtime.approved_run``: a contained run rides on an approval only when the store
holds that request approved by a person, in its window, for this very command, with hosts,
and no earlier run used it; anything else (forged, reused, denied, another command, an
unreadable store) is no approval, said in words."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bastion.approval.memory import MemoryStore
from bastion.approval.model import ApprovalRequest
from bastion.approval.state import Action
from bastion.audit.keyed import ArgumentHasher
from bastion.call.model import ToolCall
from bastion.exec.egress.only import Approved
from bastion.policy.containment import Filesystem, Profile
from bastion.policy.decision import Decision, Evaluation, Reason
from bastion.runtime.approved_run import approval_of, ride_on

HASHER = ArgumentHasher(b"k" * 32)
ID = "AbCdEfGhIjKlMnOpQrStUv"
PUSH = ("bash", "-c", "git push origin main")
PROFILE = Profile(Filesystem.WORKSPACE_WRITE, hosts=("GitHub.com",))
ASKED = Evaluation(
    Decision.ASK, (Reason(Decision.ASK, "network.ask", "policy", "github.com", "asks"),), profile=PROFILE
)


def _request(command: str = "git push origin main", cwd: str = "/p", **changes: object) -> ApprovalRequest:
    call = ToolCall("shell", {"command": command}, cwd=cwd)
    request = ApprovalRequest(
        id=ID, created=100.0, expires=400.0, tool="shell", summary=command, reason="asks",
        evaluation=ASKED, call_key=HASHER.digest(call), project="/p",
    )  # fmt: skip
    return dataclasses.replace(request, **changes)  # type: ignore[arg-type]


def _store(request: ApprovalRequest, action: Action | None = Action.APPROVE_ONCE, *, at: float = 200.0,
           resolver: str = "person") -> MemoryStore:  # fmt: skip
    store = MemoryStore()
    store.create_request(request)
    if action is not None:
        store.resolve(request.id, action, at=at, resolver=resolver, approver="k1")
    return store


def _ride(store: MemoryStore, tmp_path: Path, *, argv: tuple[str, ...] = PUSH, request_id: str = ID,
          cwd: str = "/p", now: float = 250.0) -> Approved | str:  # fmt: skip
    return ride_on(store, HASHER, request_id, argv, cwd=cwd, now=now, state_dir=str(tmp_path))


def test_a_request_a_person_approved_for_this_command_carries_its_profiles_hosts(tmp_path: Path) -> None:
    assert _ride(_store(_request()), tmp_path) == Approved(ID, ("github.com",))


def test_an_approved_always_request_carries_its_run_too(tmp_path: Path) -> None:
    assert _ride(_store(_request(), Action.APPROVE_ALWAYS), tmp_path) == Approved(ID, ("github.com",))


def test_an_approval_carries_one_run_and_a_second_is_told_it_was_used(tmp_path: Path) -> None:
    store = _store(_request())
    first, second = _ride(store, tmp_path), _ride(store, tmp_path)
    assert (first, second) == (
        Approved(ID, ("github.com",)),
        f"the approval of request {ID} was used by an earlier run",
    )


@pytest.mark.parametrize(
    ("action", "resolver", "told"),
    [
        (None, "person", f"request {ID} was not approved by a person (pending)"),
        (Action.DENY, "person", f"request {ID} was not approved by a person (denied)"),
        (Action.APPROVE_ONCE, "callback", f"request {ID} was not approved by a person (approved_once)"),
        (
            Action.APPROVE_UNCONTAINED,
            "person",
            f"request {ID} was not approved by a person (approved_uncontained)",
        ),
        (Action.CANCEL, "cancel", f"request {ID} was not approved by a person (cancelled)"),
    ],
)
def test_a_request_no_person_approved_is_no_approval(
    tmp_path: Path, action: Action | None, resolver: str, told: str
) -> None:
    assert _ride(_store(_request(), action, resolver=resolver), tmp_path) == told


def test_an_expired_request_is_no_approval(tmp_path: Path) -> None:
    store = _store(_request(), Action.EXPIRE, at=400.0, resolver="timeout")
    assert _ride(store, tmp_path) == f"request {ID} was not approved by a person (expired)"


@pytest.mark.parametrize(
    ("argv", "cwd"),
    [
        (("bash", "-c", "git push origin main --force"), "/p"),
        (("bash", "-c", "git push evil main"), "/p"),
        (PUSH, "/elsewhere"),
    ],
)
def test_another_command_or_folder_is_no_approval(tmp_path: Path, argv: tuple[str, ...], cwd: str) -> None:
    assert _ride(_store(_request()), tmp_path, argv=argv, cwd=cwd) == f"request {ID} approved another command"


@pytest.mark.parametrize(
    "argv", [("git", "push", "origin", "main"), ("bash", "-c", "git push origin main", "x")]
)
def test_a_command_not_in_the_approved_form_is_no_approval(tmp_path: Path, argv: tuple[str, ...]) -> None:
    assert _ride(_store(_request()), tmp_path, argv=argv) == (
        "the command is not the approved call's 'bash -c COMMAND'"
    )


def test_an_approval_older_than_its_window_is_no_approval(tmp_path: Path) -> None:
    # Answered at 200 with a 300 s window: usable until 500.
    store = _store(_request())
    late, in_time = _ride(store, tmp_path, now=500.0), _ride(store, tmp_path, now=499.0)
    assert (late, in_time) == (
        f"the approval of request {ID} is too old to run on",
        Approved(ID, ("github.com",)),
    )


@pytest.mark.parametrize(
    "forged", ["AbCdEfGhIjKlMnOpQrStUw", "../../../etc/passwd", "-AbCdEfGhIjKlMnOpQrStU", ""]
)
def test_a_forged_id_is_no_approval_and_claims_nothing(tmp_path: Path, forged: str) -> None:
    told = _ride(_store(_request()), tmp_path, request_id=forged)
    shape_ok = forged == "AbCdEfGhIjKlMnOpQrStUw"
    assert told == (f"no request {forged}" if shape_ok else f"{forged!r} is not a request id")
    assert list(tmp_path.rglob("*")) == []


def test_a_request_whose_profile_names_no_host_is_no_approval(tmp_path: Path) -> None:
    quiet = dataclasses.replace(ASKED, profile=Profile(Filesystem.WORKSPACE_WRITE))
    assert _ride(_store(_request(evaluation=quiet)), tmp_path) == f"request {ID} named no host"


def test_a_store_that_cannot_be_read_is_no_approval(tmp_path: Path) -> None:
    class Broken(MemoryStore):
        def get_request(self, request_id: str) -> ApprovalRequest | None:
            raise OSError("disk gone")

    assert _ride(Broken(), tmp_path) == "the approvals store cannot be read: OSError: disk gone"


def test_an_unwritable_claim_is_no_approval(tmp_path: Path) -> None:
    (tmp_path / "approved-runs").write_text("not a folder")
    told = _ride(_store(_request()), tmp_path)
    assert isinstance(told, str) and told.startswith(f"the approval of request {ID} cannot be claimed: ")


def test_only_a_persons_answer_in_bastions_queue_names_its_request() -> None:
    def lead(rule: str, source: str, matched: str) -> Evaluation:
        return Evaluation(Decision.ALLOW, (Reason(Decision.ALLOW, rule, source, matched, "m"),))

    assert [
        approval_of(lead("approval.person", f"request {ID}", ID)),
        approval_of(lead("approval.uncontained", f"request {ID}", ID)),
        approval_of(lead("grant.exact", "grant g1", "git push origin main")),
        approval_of(lead("approval.callback", f"request {ID}", ID)),
        approval_of(lead("approval.person", "request other", ID)),
        approval_of(lead("approval.person", "request ../x", "../x")),
        approval_of(Evaluation(Decision.ALLOW, ())),
    ] == [ID, None, None, None, None, None, None]
