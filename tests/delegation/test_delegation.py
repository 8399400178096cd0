"""Delegated agents through the Python API: a child session gets its parent's ceiling or a
stricter one and a share of its limits, can never raise either, and a restart keeps them."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bastion.approval.clock import FakeClock
from bastion.approval.memory import MemoryStore
from bastion.approval.settings import LimitsConfig
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.store import MemoryLedgerStore
from bastion.call.model import ToolCall
from bastion.delegation import DEFAULT_SHARE, DelegationRefused, share_of
from bastion.policy.ceiling import NO_CEILING, ApprovalLevel, Ceiling, FilesystemLevel, NetworkLevel
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision
from bastion.policy.engine import Gate
from bastion.policy.network import StaticResolver
from bastion.runtime import Gatekeeper

HOSTS = {"example.com": ["93.184.216.34"]}
CEILINGS = [Ceiling(*p) for p in itertools.product(ApprovalLevel, FilesystemLevel, NetworkLevel)]


def keeper_for(policy: Policy, *, limits: LimitsConfig | None = None) -> Gatekeeper:
    return Gatekeeper(
        Gate(policy, resolver=StaticResolver(HOSTS)),
        store=MemoryStore(),
        limits=limits,
        clock=FakeClock(1000.0),
        ledger=Ledger(MemoryLedgerStore(), hasher=ArgumentHasher(b"k" * 32)),
    )


def ceiling_toml(ceiling: Ceiling | None) -> str:
    if ceiling is None:
        return ""
    return (
        f'[ceiling]\napproval = "{ceiling.approval}"\nfilesystem = "{ceiling.filesystem}"\n'
        f'network = "{ceiling.network}"\n'
    )


POLICY = 'mode = "full-access"\n[network]\nallow_hosts = ["example.com"]\n'


@pytest.fixture
def make_keeper(make_policy: Callable[..., Policy]) -> Callable[..., Gatekeeper]:
    def build(ceiling: Ceiling | None = None, **kw: LimitsConfig) -> Gatekeeper:
        return keeper_for(make_policy(POLICY + ceiling_toml(ceiling)), **kw)

    return build


def calls(workspace: Path, session: str) -> list[ToolCall]:
    """A writer, a fetch and a reader: each ceiling dimension matters to one of them."""
    cwd = str(workspace)
    return [
        ToolCall("write", {"path": "out.txt"}, cwd=cwd, session=session, interactive=True),
        ToolCall("fetch", {"url": "https://example.com/"}, cwd=cwd, session=session, interactive=True),
        ToolCall("read", {"path": "README.md"}, cwd=cwd, session=session, interactive=True),
    ]


def decisions(keeper: Gatekeeper, workspace: Path, session: str) -> list[Decision]:
    return [keeper.decide(call).decision for call in calls(workspace, session)]


def test_a_child_inherits_its_parents_ceiling(
    make_keeper: Callable[..., Gatekeeper], workspace: Path
) -> None:
    keeper = make_keeper(Ceiling("never_ask", "read_only", "allowed"))
    child = keeper.child("parent")
    assert (child.parent, child.session.startswith("parent/"), child.ceiling, child.share) == (
        "parent",
        True,
        None,
        DEFAULT_SHARE,
    )
    assert (
        decisions(keeper, workspace, child.session)
        == decisions(keeper, workspace, "parent")
        == [Decision.DENY, Decision.ALLOW, Decision.ALLOW]
    )
    write = keeper.decide(calls(workspace, child.session)[0])
    assert write.reasons[0].rule == "ceiling.filesystem"


def test_a_child_with_a_stricter_ceiling_is_held_to_it_and_the_reason_says_so(
    make_keeper: Callable[..., Gatekeeper], workspace: Path
) -> None:
    keeper = make_keeper()
    child = keeper.child("parent", ceiling=Ceiling("ask_for_risky", "unrestricted", "denied"), session="kid")
    assert decisions(keeper, workspace, "parent") == [Decision.ALLOW, Decision.ALLOW, Decision.ALLOW]
    assert decisions(keeper, workspace, "kid") == [Decision.ALLOW, Decision.DENY, Decision.ALLOW]
    fetch = keeper.decide(calls(workspace, child.session)[1])
    assert (fetch.reasons[0].rule, fetch.reasons[0].source, fetch.marker) == (
        "ceiling.network",
        "delegation: ceiling of child session kid (parent parent)",
        "[policy-blocked]",
    )


def test_a_looser_ceiling_than_the_parents_is_refused_naming_each_dimension(
    make_keeper: Callable[..., Gatekeeper],
) -> None:
    keeper = make_keeper(Ceiling("ask_every_action", "workspace_write", "denied"))
    with pytest.raises(DelegationRefused) as info:
        keeper.child("parent", ceiling=Ceiling("ask_every_action", "unrestricted", "allowed"), session="kid")
    assert str(info.value) == (
        "child 'kid' may not get a looser ceiling than its parent (ask_every_action,workspace_write,denied): "
        "filesystem: unrestricted is looser than workspace_write; network: allowed is looser than denied"
    )
    assert keeper.delegations.of(ToolCall("read", {"path": "x"}, session="kid")) is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    parent=st.sampled_from([None, *CEILINGS]),
    asked=st.sampled_from(CEILINGS),
    grandchild=st.sampled_from([None, *CEILINGS]),
)
def test_no_child_ever_decides_more_loosely_than_its_parent(
    make_keeper: Callable[..., Gatekeeper],
    workspace: Path,
    parent: Ceiling | None,
    asked: Ceiling,
    grandchild: Ceiling | None,
) -> None:
    keeper = make_keeper(parent)
    allowed = parent or NO_CEILING
    fits = asked.meet(allowed) == asked
    if not fits:
        with pytest.raises(DelegationRefused):
            keeper.child("p", ceiling=asked, session="c")
        return
    keeper.child("p", ceiling=asked, session="c")
    top, child = decisions(keeper, workspace, "p"), decisions(keeper, workspace, "c")
    assert all(c >= t for c, t in zip(child, top, strict=True))
    if grandchild is not None and grandchild.meet(asked) != grandchild:
        with pytest.raises(DelegationRefused):
            keeper.child("c", ceiling=grandchild, session="g")
    else:
        keeper.child("c", ceiling=grandchild, session="g")
        below = decisions(keeper, workspace, "g")
        assert all(g >= c for g, c in zip(below, child, strict=True))


def test_a_restarted_child_keeps_its_ceiling_and_cannot_raise_it(
    make_keeper: Callable[..., Gatekeeper], workspace: Path
) -> None:
    keeper = make_keeper()
    strict = Ceiling("ask_for_risky", "workspace_write", "denied")
    keeper.child("parent", ceiling=strict, session="kid", share=0.5)
    again = keeper.child("parent", session="kid")  # restarted (failover): nothing said, nothing raised
    assert (again.ceiling, again.share) == (strict, 0.5)
    with pytest.raises(DelegationRefused, match="than it had before \\(a restart keeps it\\)"):
        keeper.child("parent", ceiling=NO_CEILING, session="kid")
    with pytest.raises(DelegationRefused, match="a restart may not raise it to 1"):
        keeper.child("parent", session="kid", share=1.0)
    lower = keeper.child("parent", session="kid", ceiling=Ceiling("ask_for_risky", "read_only", "denied"))
    assert lower.ceiling == Ceiling("ask_for_risky", "read_only", "denied")
    assert decisions(keeper, workspace, "kid") == [Decision.DENY, Decision.DENY, Decision.ALLOW]


def test_a_child_belongs_to_one_parent_and_no_cycle_can_form(make_keeper: Callable[..., Gatekeeper]) -> None:
    keeper = make_keeper()
    keeper.child("a", session="b")
    keeper.child("b", session="c")
    with pytest.raises(DelegationRefused, match="already a child of 'a'"):
        keeper.child("x", session="b")
    with pytest.raises(DelegationRefused, match="is an ancestor of 'c'"):
        keeper.child("c", session="a")
    with pytest.raises(DelegationRefused, match="cannot be its own child"):
        keeper.child("a", session="a")


@pytest.mark.parametrize(
    ("share", "problem"),
    [
        (1.5, "may not get more than its parent's limits: share 1.5 > 1"),
        (0, "must be above 0"),
        (-1, "must be above 0"),
        (float("nan"), "must be a number"),
        (True, "must be a number"),
    ],
)
def test_a_share_above_one_or_not_a_fraction_is_refused(
    make_keeper: Callable[..., Gatekeeper], share: float, problem: str
) -> None:
    with pytest.raises(DelegationRefused, match=problem.replace("(", "\\(")):
        make_keeper().child("parent", share=share)


limits_values = st.builds(
    LimitsConfig,
    max_calls_per_turn=st.one_of(st.none(), st.integers(1, 500)),
    max_turn_duration=st.one_of(st.none(), st.floats(1, 10_000)),
    calls_per_minute=st.one_of(st.none(), st.integers(1, 500)),
    breaker_cooldown=st.one_of(st.none(), st.floats(1, 10_000)),
)


@given(limits=limits_values, share=st.floats(0.001, 1.0))
def test_a_childs_limits_are_never_above_its_parents(limits: LimitsConfig, share: float) -> None:
    child = share_of(limits, share, child="c")
    for name in ("max_calls_per_turn", "max_turn_duration", "calls_per_minute"):
        parent_value, child_value = getattr(limits, name), getattr(child, name)
        assert (parent_value is None) == (child_value is None)
        assert parent_value is None or 0 < child_value <= parent_value
    assert child.breaker_cooldown == limits.breaker_cooldown


def test_a_child_gets_its_share_of_the_turn_budget(
    make_keeper: Callable[..., Gatekeeper], workspace: Path
) -> None:
    keeper = make_keeper(limits=LimitsConfig(max_calls_per_turn=4, max_turn_duration=None))
    child = keeper.child("parent", share=0.5, session="kid")
    assert child.limits.max_calls_per_turn == 2
    read = ToolCall("read", {"path": "README.md"}, cwd=str(workspace), session="kid", turn="t1")
    results = [asyncio.run(keeper.request(read)) for _ in range(3)]
    assert [r.decision for r in results] == [Decision.ALLOW, Decision.ALLOW, Decision.DENY]
    assert results[2].reasons[0].rule == "limits.max_calls_per_turn"


def test_every_child_call_counts_toward_the_parents_limits(
    make_keeper: Callable[..., Gatekeeper], workspace: Path
) -> None:
    keeper = make_keeper(limits=LimitsConfig(max_calls_per_turn=3, max_turn_duration=None))
    keeper.child("parent", session="kid-1")
    keeper.child("parent", session="kid-2")

    def read(session: str) -> Decision:
        call = ToolCall("read", {"path": "README.md"}, cwd=str(workspace), session=session, turn="t1")
        return asyncio.run(keeper.request(call)).decision

    assert [read("parent"), read("kid-1"), read("kid-2")] == [Decision.ALLOW] * 3
    last = asyncio.run(
        keeper.request(
            ToolCall("read", {"path": "README.md"}, cwd=str(workspace), session="kid-1", turn="t1")
        )
    )
    assert (last.decision, last.reasons[0].rule) == (Decision.DENY, "limits.max_calls_per_turn")
    assert last.reasons[0].message.endswith("(the limits of parent session parent, which its children share)")
    assert read("parent") is Decision.DENY  # the family used the parent's budget up


def test_a_call_naming_an_unknown_parent_is_an_implicit_child_with_the_parents_ceiling(
    make_keeper: Callable[..., Gatekeeper], workspace: Path
) -> None:
    keeper = make_keeper(Ceiling("never_ask", "read_only", "allowed"))
    keeper.child("top", ceiling=Ceiling("never_ask", "read_only", "denied"), session="mid")
    call = ToolCall(
        "fetch", {"url": "https://example.com/"}, cwd=str(workspace), session="mid/agent/7", parent="mid"
    )
    found = keeper.delegations.of(call)
    assert found is not None and (found.parent, found.depth, found.ceiling) == (
        "mid",
        2,
        Ceiling("never_ask", "read_only", "denied"),
    )
    assert keeper.decide(call).decision is Decision.DENY
    assert [s for s, _ in keeper.delegations.ancestors(found)] == ["mid", "top"]


def test_a_registered_childs_calls_are_recorded_with_its_parent(
    make_keeper: Callable[..., Gatekeeper], workspace: Path
) -> None:
    keeper = make_keeper()
    keeper.child("parent", session="kid")
    for session in ("parent", "kid"):  # the child's call does not say who its parent is
        asyncio.run(
            keeper.request(ToolCall("read", {"path": "README.md"}, cwd=str(workspace), session=session))
        )
    ran = ToolCall("read", {"path": "README.md"}, cwd=str(workspace), session="kid")
    keeper.record_execution(ran, keeper.decide(ran), 0, 0.1)
    records = [(r.event.kind, r.event.session, r.event.parent) for r in keeper.ledger.events()]
    assert records == [
        ("decided", "parent", None),
        ("decided", "kid", "parent"),
        ("executed", "kid", "parent"),
    ]
