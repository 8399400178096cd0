"""The proxy's own refusals (a tool the server does not offer, a pinned tool that changed, a
broken policy) are written to the ledger by the gatekeeper, like any decision; the outcome
of a call that ran is written after its answer, and never lost when the agent hangs up."""

from __future__ import annotations

import anyio

from bastion.configuration import default_configuration
from bastion.construct import open_gatekeeper
from tests.adapters.mcp.conftest import Peer, text_of

ALLOW_ALL = '[[rule]]\ntool = "mcp"\npattern = "notes/*"\naction = "allow"\n'


def recorded(peer: Peer) -> list[tuple[str, str, str, str]]:
    """(kind, summary, decision, rule) of every ledger record in the peer's state dir."""
    config = default_configuration(cwd=str(peer.root / "work"), env=peer.env)
    with open_gatekeeper(config, peer.env) as keeper:
        return [(r.event.kind, r.event.summary, r.event.decision, r.event.rule)
                for r in keeper.ledger.events()]  # fmt: skip


def _call(peer: Peer, tool: str, args: dict[str, object], env: dict[str, str] | None = None) -> str:
    async def main() -> str:
        async with peer.client(env=env) as client:
            return text_of(await client.call_tool(tool, args))

    return anyio.run(main)


def test_a_call_to_a_tool_the_server_does_not_offer_is_recorded_as_refused(peer: Peer) -> None:
    peer.write_policy(ALLOW_ALL)
    answer = _call(peer, "launch_missiles", {"target": "moon"})
    assert answer.startswith("[policy-denied] cannot decide safely: the MCP server 'notes' offers no tool")
    assert [r for r in recorded(peer) if r[3] == "mcp.unknown-tool"] == [
        ("decided", 'mcp: notes/launch_missiles {"target": "moon"}', "deny", "mcp.unknown-tool")
    ]


def test_a_call_to_a_pinned_tool_that_changed_is_recorded_as_blocked(peer: Peer) -> None:
    peer.write_policy(ALLOW_ALL)
    _call(peer, "read_file", {"path": "notes.txt"}, env={"NOTES_VERSION": "1"})
    blocked = _call(peer, "read_file", {"path": "notes.txt"}, env={"NOTES_VERSION": "2"})
    assert blocked.startswith("[policy-blocked] MCP tool notes/read_file changed since it was trusted")
    decided = [r[2:] for r in recorded(peer) if r[0] == "decided"]
    assert decided == [("allow", "rule[1]"), ("deny", "mcp.pin-changed")]


def test_a_call_under_a_broken_policy_is_denied_and_recorded(peer: Peer) -> None:
    peer.write_policy(ALLOW_ALL)

    async def main() -> str:
        async with peer.client() as client:
            await client.list_tools()
            peer.write_policy("[[rule]\n")
            return text_of(await client.call_tool("read_note", {"name": "a"}))

    answer = anyio.run(main)
    assert answer.startswith("[policy-denied] cannot decide safely: the policy failed to load")
    assert [r[2:] for r in recorded(peer)] == [("deny", "policy.invalid")]
    assert peer.calls() == []


def test_the_outcome_of_the_last_call_before_the_agent_hangs_up_is_recorded(peer: Peer) -> None:
    peer.write_policy(ALLOW_ALL)
    assert "note a: buy milk" in _call(peer, "read_note", {"name": "a"})
    assert [r[:3] for r in recorded(peer)] == [
        ("decided", 'mcp: notes/read_note {"name": "a"}', "allow"),
        ("executed", 'mcp: notes/read_note {"name": "a"}', "allow"),
    ]
