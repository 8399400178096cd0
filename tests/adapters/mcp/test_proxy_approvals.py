"""An ASK reaches a person: by elicitation (both protocol eras), or parked in the queue and
answered from another process; nobody answering in time is a denial."""

from __future__ import annotations

import json
import subprocess

import anyio
import mcp_types as types

from tests.adapters.mcp.conftest import (
    BASTION,
    NOBODY_ANSWERED,
    PERSON_DENIED,
    Peer,
    approve,
    payload,
    text_of,
)


def _delete(peer: Peer, *, mode: str = "legacy", elicit: object = None) -> types.CallToolResult:
    async def main() -> types.CallToolResult:
        async with peer.client(mode=mode, elicit=elicit) as client:  # type: ignore[arg-type]
            return await client.call_tool("delete_note", {"name": "groceries"})

    return anyio.run(main)


def test_a_destructive_tool_asks_and_an_elicited_approval_lets_it_run(peer: Peer) -> None:
    questions: list[str] = []

    def answer(params: types.ElicitRequestParams) -> types.ElicitResult:
        questions.append(params.message)
        return approve("once")(params)

    result = _delete(peer, elicit=answer)
    assert payload(result) == "deleted groceries"
    assert questions == [
        "Bastion: allow this MCP tool call?\n"
        'mcp: notes/delete_note {"name": "groceries"}\n'
        "Why you are asked: the tool says it is destructive: a person confirms"
    ]
    assert peer.calls() == [{"tool": "delete_note", "name": "groceries"}]


def test_an_elicited_denial_with_feedback_refuses_the_call_before_the_upstream(peer: Peer) -> None:
    result = _delete(peer, elicit=approve("deny", "keep my notes"))
    assert result.is_error is True
    assert text_of(result) == (
        "[policy-denied] denied by a person: keep my notes (MCP tool notes/delete_note). " + PERSON_DENIED
    )
    assert peer.calls() == []


def test_a_declined_elicitation_is_a_denial(peer: Peer) -> None:
    result = _delete(peer, elicit=lambda params: types.ElicitResult(action="decline"))
    assert text_of(result) == (
        "[policy-denied] denied by a person: declined in the client (MCP tool notes/delete_note). "
        + PERSON_DENIED
    )
    assert peer.calls() == []


def test_a_2026_client_is_asked_through_an_input_required_round_trip(peer: Peer) -> None:
    approved = _delete(peer, mode="auto", elicit=approve("once"))
    assert payload(approved) == "deleted groceries"
    denied = _delete(peer, mode="auto", elicit=approve("deny", "no"))
    assert (
        text_of(denied)
        == "[policy-denied] denied by a person: no (MCP tool notes/delete_note). " + PERSON_DENIED
    )
    assert peer.calls() == [{"tool": "delete_note", "name": "groceries"}]


def test_approving_always_grants_the_exact_call_without_asking_again(peer: Peer) -> None:
    asked: list[str] = []

    def answer(params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return approve("always")(params)

    async def main() -> list[str]:
        async with peer.client(elicit=answer) as client:
            first = await client.call_tool("delete_note", {"name": "a"})
            second = await client.call_tool("delete_note", {"name": "a"})
            other = await client.call_tool("delete_note", {"name": "b"})
            return [payload(first), payload(second), payload(other)]

    assert anyio.run(main) == ["deleted a", "deleted a", "deleted b"]
    assert len(asked) == 2  # "a" once (then granted), "b" once


def _bastion(peer: Peer, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BASTION, *args], env=peer.env, capture_output=True, text=True, timeout=60, check=False
    )


def test_a_parked_call_proceeds_when_approved_from_another_process(peer: Peer) -> None:
    found: list[dict[str, object]] = []

    made = _bastion(peer, "keys", "create", "--role", "approver")  # approving needs an identity
    assert made.returncode == 0, made.stderr
    key = made.stdout.strip()

    async def approver() -> None:
        while True:
            listed = await anyio.to_thread.run_sync(_bastion, peer, "approvals", "list", "--json")
            pending = json.loads(listed.stdout or "[]")
            if pending:
                found.extend(pending)
                done = await anyio.to_thread.run_sync(
                    _bastion, peer, "approvals", "approve", "--key", key, "--", str(pending[0]["id"])
                )
                assert done.returncode == 0, done.stderr
                return
            await anyio.sleep(0.2)

    assert _bastion(peer, "approvals", "list", "--json").stdout.strip() == "[]"  # the state db exists

    async def main() -> types.CallToolResult:
        async with peer.client() as client:  # no elicitation callback: nobody to ask in the client
            async with anyio.create_task_group() as tg:
                tg.start_soon(approver)
                with anyio.fail_after(120):
                    result = await client.call_tool("delete_note", {"name": "groceries"})
            return result

    result = anyio.run(main)
    assert payload(result) == "deleted groceries"
    assert [(r["tool"], r["summary"], r["state"]) for r in found] == [
        ("mcp", 'mcp: notes/delete_note {"name": "groceries"}', "pending")
    ]
    assert peer.calls() == [{"tool": "delete_note", "name": "groceries"}]


def test_a_parked_call_nobody_answers_is_denied_when_its_ttl_expires(peer: Peer) -> None:
    peer.write_policy('[approval]\nttl = "1s"\n')
    result = _delete(peer)
    assert result.is_error is True
    assert text_of(result) == (
        "nobody answered within 1s: an unanswered request is a denial (MCP tool notes/delete_note). "
        + NOBODY_ANSWERED
    )
    assert peer.calls() == []


def test_every_decision_and_execution_is_in_the_ledger_with_server_and_tool(peer: Peer) -> None:
    peer.write_policy(
        '[[rule]]\ntool = "mcp"\npattern = "notes/read_note"\naction = "allow"\n'
        '[[rule]]\ntool = "mcp"\npattern = "notes/delete_note"\naction = "deny"\n'
    )

    async def main() -> None:
        async with peer.client() as client:
            await client.call_tool("read_note", {"name": "a"})
            await client.call_tool("delete_note", {"name": "a"})

    anyio.run(main)
    logs = _bastion(peer, "logs", "--json")
    assert logs.returncode == 0, logs.stderr
    records = [json.loads(line) for line in logs.stdout.splitlines() if line.strip()]
    rows = records[0] if len(records) == 1 and isinstance(records[0], list) else records
    assert [(r["kind"], r["decision"], r["summary"]) for r in rows] == [
        ("decided", "allow", 'mcp: notes/read_note {"name": "a"}'),
        ("executed", "allow", 'mcp: notes/read_note {"name": "a"}'),
        ("decided", "deny", 'mcp: notes/delete_note {"name": "a"}'),
    ]
