"""``bastion launch --parent``: a launched child session starts under its parent's ceiling or
a stricter one, never bypassed, and failover to the next agent keeps the child's ceiling."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from bastion.launch.launcher import LaunchRefused, Ports, launch, resume
from bastion.launch.sessions import JsonSessionStore
from bastion.policy.ceiling import NO_CEILING, Ceiling
from tests.launch.conftest import FakeAgents

PARENT = Ceiling("ask_for_risky", "workspace_write", "denied")
STRICTER = Ceiling("ask_every_action", "read_only", "denied")


@pytest.fixture
def agents(tmp_path: Path) -> FakeAgents:
    return FakeAgents(tmp_path)


@pytest.fixture
def store(tmp_path: Path) -> JsonSessionStore:
    return JsonSessionStore(str(tmp_path / "state"))


def start(
    agents: FakeAgents,
    store: JsonSessionStore,
    names: list[str],
    ceiling: Ceiling,
    events: list[dict[str, Any]] | None = None,
    **kw: Any,
) -> Any:
    ports = Ports(
        path=str(agents.bin), stderr=io.StringIO(), on_event=(events if events is not None else []).append
    )
    return launch(names, ceiling, "test", [], store=store, ports=ports, cwd=str(agents.bin), **kw)


def test_a_child_session_records_its_parent_and_failover_keeps_its_ceiling(
    agents: FakeAgents, store: JsonSessionStore
) -> None:
    agents.add("claude")
    agents.add("qwen", exit_code=1)
    parent = start(agents, store, ["claude"], PARENT).session
    events: list[dict[str, Any]] = []
    child = start(agents, store, ["qwen", "claude"], STRICTER, events, parent=parent.id).session
    assert (child.parent, child.ceiling) == (parent.id, STRICTER)
    assert [(r.agent, r.ceiling) for r in child.runs] == [("qwen", STRICTER), ("claude", STRICTER)]
    assert events[0] == {
        "type": "launch.session_created",
        "session": child.id,
        "agents": ["qwen", "claude"],
        "ceiling": STRICTER.text(),
        "source": "test",
        "parent": parent.id,
    }
    assert store.load(child.id) == child


def test_a_child_may_not_start_looser_than_its_parent_nor_bypassed(
    agents: FakeAgents, store: JsonSessionStore
) -> None:
    agents.add("claude")
    parent = start(agents, store, ["claude"], PARENT).session
    before = agents.calls("claude")
    events: list[dict[str, Any]] = []
    with pytest.raises(LaunchRefused) as info:
        start(agents, store, ["claude"], NO_CEILING, events, parent=parent.id)
    assert str(info.value) == (
        f"a child of session {parent.id} may not be launched with ceiling "
        f"{NO_CEILING.text()}: its parent's ceiling is {PARENT.text()}"
    )
    with pytest.raises(LaunchRefused, match="may not be launched with --bypass-permissions"):
        start(agents, store, ["claude"], PARENT, events, parent=parent.id, bypass=True)
    assert [e["type"] for e in events] == ["launch.child_refused", "launch.child_refused"]
    assert store.list_ids() == [parent.id]
    assert agents.calls("claude") == before  # refused before anything ran


def test_a_resumed_child_never_rises_above_its_ceiling(agents: FakeAgents, store: JsonSessionStore) -> None:
    agents.add("claude")
    parent = start(agents, store, ["claude"], PARENT).session
    child = start(agents, store, ["claude"], STRICTER, parent=parent.id).session
    ports = Ports(path=str(agents.bin), stderr=io.StringIO())
    again = resume(child.id, NO_CEILING, "test", store=store, ports=ports)
    assert (again.session.ceiling, again.session.parent) == (STRICTER, parent.id)
    with pytest.raises(LaunchRefused, match="saved ceiling"):
        resume(child.id, NO_CEILING, "test", store=store, ports=ports, requested=PARENT)


def test_the_cli_child_inherits_the_parents_ceiling_unless_a_stricter_one_is_asked(
    agents: FakeAgents, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from bastion.adapters.cli.app import build_app

    home = tmp_path / "home"
    (home / "proj").mkdir(parents=True)  # from HOME itself the boot check refuses to launch
    monkeypatch.delenv("BASTION_POLICY", raising=False)
    monkeypatch.chdir(home / "proj")
    env = {"PATH": str(agents.bin), "HOME": str(home), "BASTION_STATE_DIR": str(tmp_path / "state")}
    agents.add("claude")

    def run(*args: str) -> Any:
        return CliRunner().invoke(build_app(), [*args, "--uncontained"], env=env)

    first = run("launch", "claude", "--ceiling", "ask_every_action,read_only,allowed")
    store = JsonSessionStore(str(tmp_path / "state"))
    (parent,) = store.list_ids()
    inherited = run("launch", "claude", "--parent", parent)
    looser = run("launch", "claude", "--parent", parent, "--ceiling", "ask_for_risky,unrestricted,allowed")
    unknown = run("launch", "claude", "--parent", "no-such-session")
    assert (first.exit_code, inherited.exit_code, looser.exit_code, unknown.exit_code) == (0, 0, 2, 2)
    assert "may not be launched with ceiling ask_for_risky,unrestricted,allowed" in looser.output
    children = [store.load(i) for i in store.list_ids() if i != parent]
    assert [(c.parent, c.ceiling.text()) for c in children] == [
        (parent, "ask_every_action,read_only,allowed")
    ]
