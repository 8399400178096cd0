"""Both stores behind one fixture, and a request factory."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bastion.approval.memory import MemoryStore
from bastion.approval.model import ApprovalRequest, Deadline, new_id
from bastion.approval.sqlite import SqliteStore
from bastion.approval.store import Store
from bastion.call.effects import Effect
from bastion.policy.decision import Decision, Evaluation, Reason

ASKED = Evaluation(
    Decision.ASK,
    (Reason(Decision.ASK, "rule[1]", "policy.toml:3", "x", "a person decides"),),
    (Effect.NETWORK,),
)


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    made: Store = MemoryStore() if request.param == "memory" else SqliteStore(str(tmp_path / "b.db"))
    yield made
    made.close()


MakeRequest = Callable[..., ApprovalRequest]


@pytest.fixture
def make_request() -> MakeRequest:
    def build(created: float = 1000.0, ttl: float = 300.0, **kw: object) -> ApprovalRequest:
        fields: dict[str, object] = {
            "id": new_id(),
            "created": created,
            "expires": created + ttl,
            "tool": "shell",
            "summary": "shell: git push origin main",
            "reason": "a person decides",
            "evaluation": ASKED,
            "call_key": "key-1",
            "project": "/proj/.bastion/policy.toml",
            "session": "s1",
            "argv": ("git", "push", "origin", "main"),
            "suggested_pattern": "git push origin *",
            "folder": "/proj",
            "deadline": Deadline.CALLER,
        }
        fields.update(kw)
        return ApprovalRequest(**fields)  # type: ignore[arg-type]

    return build
