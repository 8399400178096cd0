"""Work a call leaves for after its answer (the executed record) runs at the loop's next
turn, in order, or at once when the next call is about to be decided; a failure is said."""

from __future__ import annotations

import asyncio
import io

from bastion.adapters.mcp.later import AfterAnswer


def test_queued_work_runs_in_order_at_the_next_turn_of_the_loop_not_before() -> None:
    done: list[str] = []

    async def scenario() -> list[str]:
        after = AfterAnswer(io.StringIO())
        after.add("first", lambda: done.append("first"))
        after.add("second", lambda: done.append("second"))
        done.append("answer written")  # what the call's own task does before it yields
        await asyncio.sleep(0)
        return list(done)

    assert asyncio.run(scenario()) == ["answer written", "first", "second"]


def test_run_due_runs_everything_queued_at_once_and_the_loop_turn_then_finds_nothing() -> None:
    done: list[str] = []

    async def scenario() -> tuple[list[str], int]:
        after = AfterAnswer(io.StringIO())
        after.add("outcome", lambda: done.append("outcome"))
        after.run_due()  # the next call arrives: the previous outcome is recorded first
        done.append("next decision")
        await asyncio.sleep(0)
        return list(done), after.pending

    assert asyncio.run(scenario()) == (["outcome", "next decision"], 0)


def test_work_that_fails_is_said_on_stderr_and_the_work_after_it_still_runs() -> None:
    done: list[str] = []
    log = io.StringIO()

    def broken() -> None:
        raise OSError("disk full")

    async def scenario() -> None:
        after = AfterAnswer(log)
        after.add("the outcome of a call to MCP tool notes/echo", broken)
        after.add("the outcome of a call to MCP tool notes/read_note", lambda: done.append("read_note"))
        await asyncio.sleep(0)

    asyncio.run(scenario())
    assert done == ["read_note"]
    assert log.getvalue() == (
        "bastion: could not record the outcome of a call to MCP tool notes/echo: OSError: disk full\n"
    )
