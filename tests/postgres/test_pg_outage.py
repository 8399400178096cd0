"""The database goes away mid-run: clear errors, never an allow, and recovery when it is back."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bastion.call.model import ToolCall
from bastion.configuration import Configuration
from bastion.construct import open_gatekeeper
from bastion.errors import StoreError
from bastion.policy.compiled import Policy
from bastion.policy.decision import Decision
from bastion.postgres import migrations
from bastion.postgres.connection import DatabaseDown
from bastion.runtime import Gatekeeper
from bastion.state import ENV_URL
from tests.postgres.cluster import Cluster, create_database

ASK_POLICY = """
[[rule]]
tool = "shell"
pattern = "make deploy *"
action = "ask"
reason = "deploys need a person"
"""


@pytest.fixture
def outage(
    own_cluster: Cluster, make_policy: Callable[..., Policy], env: dict[str, str]
) -> Iterator[tuple[Cluster, Gatekeeper]]:
    url = create_database(own_cluster.url)
    migrations.upgrade(url)
    keeper = open_gatekeeper(Configuration(make_policy(ASK_POLICY)), {**env, ENV_URL: url})
    yield own_cluster, keeper
    keeper.close()


def read_call(workspace: Path, **kw: object) -> ToolCall:
    return ToolCall(tool="read", args={"path": "README.md"}, cwd=str(workspace), **kw)  # type: ignore[arg-type]


def test_while_the_database_is_down_every_recorded_call_is_denied_with_the_reason(
    outage: tuple[Cluster, Gatekeeper], workspace: Path
) -> None:
    cluster, keeper = outage
    before = keeper.request_sync(read_call(workspace, session="s1"))
    cluster.stop()
    during = [
        keeper.request_sync(read_call(workspace, session="s1")),
        keeper.request_sync(read_call(workspace)),
        keeper.decide(read_call(workspace, session="s1")),
    ]
    assert (
        before.decision,
        [(e.decision, e.reasons[0].rule, "unavailable" in e.message) for e in during],
    ) == (
        Decision.ALLOW,
        [
            (Decision.DENY, "audit.unavailable", True),
            (Decision.DENY, "audit.unavailable", True),
            (Decision.DENY, "state.unavailable", True),
        ],
    )


def test_a_store_call_while_down_raises_a_store_error_that_says_what_to_check(
    outage: tuple[Cluster, Gatekeeper],
) -> None:
    cluster, keeper = outage
    cluster.stop()
    with pytest.raises(StoreError) as caught:
        keeper.store.list_requests()
    assert (
        type(caught.value),
        str(caught.value).startswith("PostgreSQL state database unavailable"),
        "is PostgreSQL running and reachable" in caught.value.hint,
    ) == (DatabaseDown, True, True)


def test_calls_are_decided_and_recorded_again_once_the_database_is_back(
    outage: tuple[Cluster, Gatekeeper], workspace: Path
) -> None:
    cluster, keeper = outage
    keeper.request_sync(read_call(workspace, session="s1"))
    cluster.stop()
    down = keeper.request_sync(read_call(workspace, session="s1"))
    cluster.start()
    back = keeper.request_sync(read_call(workspace, session="s1"))
    recorded = [(r.event.decision, r.event.session) for r in keeper.ledger.events()]
    assert (down.decision, back.decision, recorded, keeper.ledger.verify().ok) == (
        Decision.DENY,
        Decision.ALLOW,
        [("allow", "s1"), ("allow", "s1")],
        True,
    )


def test_a_parked_call_whose_database_restarts_still_gets_its_answer(
    outage: tuple[Cluster, Gatekeeper], workspace: Path
) -> None:
    """The waiter's LISTEN connection drops with the server; the periodic re-check and the
    listener's reconnect carry it to the answer given after the restart."""
    cluster, keeper = outage
    call = ToolCall(
        tool="shell", args={"command": "make deploy prod"}, cwd=str(workspace), session="s1", interactive=True
    )

    async def scenario() -> Decision:
        parked: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        task = asyncio.ensure_future(keeper.request(call, on_parked=lambda r: parked.set_result(r.id)))
        request_id = await asyncio.wait_for(parked, 30)
        await asyncio.to_thread(cluster.restart)
        await asyncio.to_thread(keeper.queue.answer, request_id, approve=True, approver="k1")
        return (await asyncio.wait_for(task, 60)).decision

    assert asyncio.run(scenario()) is Decision.ALLOW
