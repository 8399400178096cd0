"""The job tool: long commands in real bubblewrap, decided by the real gate, recorded by a
Gatekeeper; start, status, output and kill, and nothing left running after a kill."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bastion.approval.memory import MemoryStore
from bastion.audit.keyed import ArgumentHasher
from bastion.audit.ledger import Ledger
from bastion.audit.store import MemoryLedgerStore
from bastion.configuration import Configuration
from bastion.exec import BubblewrapRunner, ExecConfig
from bastion.exec.procfs import descendants, proc_status, running
from bastion.policy.engine import Gate
from bastion.policy.network import StaticResolver
from bastion.runtime import Gatekeeper
from bastion.tools import registry
from bastion.tools.job import Job, JobTool
from bastion.tools.session_table import Background, JobSettings
from tests.conftest import PolicyFactory
from tests.exec.sandbox_helpers import require_bwrap


@pytest.fixture
def keeper(make_policy: PolicyFactory) -> Iterator[Gatekeeper]:
    ledger = Ledger(MemoryLedgerStore(), hasher=ArgumentHasher(b"k" * 32))
    gate = Gate(make_policy(), resolver=StaticResolver({}), sandboxed=True)
    with Gatekeeper(gate, store=MemoryStore(), ledger=ledger) as keeper:
        yield keeper


JobFactory = Callable[..., JobTool]


@pytest.fixture
def make_job(
    make_policy: PolicyFactory, child_env: dict[str, str], keeper: Gatekeeper
) -> Iterator[JobFactory]:
    made: list[JobTool] = []

    def build(**settings: Any) -> JobTool:
        require_bwrap()
        tools = registry(Configuration(make_policy(), exec=ExecConfig(timeout=20)), authorizer=keeper, runner=BubblewrapRunner(),
                         resolver=StaticResolver({}), environ=child_env)  # fmt: skip
        ctx = dataclasses.replace(tools[0].ctx, background=Background(jobs=JobSettings(**settings)))
        made.append(JobTool(ctx))
        return made[-1]

    yield build
    for tool in made:  # no job outlives its test
        tool.ctx.background.close()


def call(tool: JobTool, **args: Any) -> dict[str, Any]:
    return asyncio.run(tool.run(args))


def started(tool: JobTool, command: str, **args: Any) -> Job:
    result = call(tool, action="start", command=command, **args)
    assert (result["ok"], result["decision"], result["data"]["state"]) == (True, "allow", "running"), result
    job = tool.ctx.background.jobs.get(result["data"]["job"])
    assert isinstance(job, Job)
    return job


def ledger_rows(keeper: Gatekeeper) -> list[tuple[str, str, str, int | None]]:
    return [
        (r.event.kind, r.event.decision, r.event.summary, r.event.exit_code) for r in keeper.ledger.events()
    ]


def test_a_job_starts_reports_its_output_and_is_killed_with_everything_it_started(
    make_job: JobFactory, keeper: Gatekeeper
) -> None:
    tool = make_job()
    job = started(tool, "echo one; sleep 30")
    assert job.live.wait_until(lambda: job.live.log.total >= 4, 20)
    status = call(tool, action="status", job=job.key)
    output = call(tool, action="output", job=job.key)
    assert (status["data"]["state"], status["exit_code"]) == ("running", None)
    assert (output["stdout"], output["data"]["next_offset"], output["data"]["state"]) == (
        "one\n",
        4,
        "running",
    )
    pids = [job.live.pid or 0, *descendants(job.live.pid or 0)]
    assert len(pids) >= 3 and all(proc_status(p) is not None for p in pids)  # bwrap, its pid 1, the job
    killed = call(tool, action="kill", job=job.key)
    assert (killed["ok"], killed["message"], killed["data"]["state"], killed["exit_code"]) == (
        True,
        "killed",
        "killed",
        None,
    )
    assert [p for p in pids if running(p)] == []  # gone, or a zombie nobody reaped yet
    assert ledger_rows(keeper) == [
        ("decided", "allow", "shell: echo one; sleep 30", None),
        ("executed", "allow", "shell: echo one; sleep 30", None),
    ]


def test_a_job_that_exits_reports_its_exit_code_and_the_ledger_records_it(
    make_job: JobFactory, keeper: Gatekeeper
) -> None:
    tool = make_job()
    job = started(tool, "echo done; echo oops >&2; exit 3")
    result = call(tool, action="output", job=job.key, wait=20)
    assert (result["ok"], result["exit_code"], result["stdout"], result["data"]["state"]) == (
        True,
        3,
        "done\noops\n",
        "exited",
    )
    status = call(tool, action="status", job=job.key)
    assert (status["ok"], status["exit_code"]) == (False, 3)
    assert ledger_rows(keeper) == [
        ("decided", "allow", "shell: echo done; echo oops >&2; exit 3", None),
        ("executed", "allow", "shell: echo done; echo oops >&2; exit 3", 3),
    ]


# truncate is no plain writer (a plain `touch marker` is a workspace write, allowed)
@pytest.mark.parametrize("command", ["truncate -s 0 marker", "touch marker; rm -rf ~", "echo x > ~/.bashrc"])
def test_a_start_that_is_not_allowed_never_runs(
    make_job: JobFactory, keeper: Gatekeeper, home: Path, command: str
) -> None:
    tool = make_job()
    result = call(tool, action="start", command=command)
    assert (result["ok"], result["decision"], result["data"]) == (False, "deny", {})
    assert result["reasons"][-1]["decision"] == "deny"
    assert not (home / "proj" / "marker").exists() and not (home / ".bashrc").exists()
    assert list(tool.ctx.background.jobs) == []
    assert ledger_rows(keeper) == [("decided", "deny", f"shell: {command}", None)]


def test_a_job_past_its_time_limit_is_killed_and_says_so(make_job: JobFactory, keeper: Gatekeeper) -> None:
    tool = make_job(total_seconds=5)
    job = started(tool, "sleep 30", timeout=0.5)
    assert job.live.wait_ended(20)
    status = call(tool, action="status", job=job.key)
    assert (status["ok"], status["timed_out"], status["message"], status["data"]["limit_seconds"]) == (
        False,
        True,
        "killed at its time limit (0.5s)",
        0.5,
    )
    assert ledger_rows(keeper)[-1] == ("executed", "allow", "shell: sleep 30", None)


def test_a_start_may_shorten_the_time_limit_but_never_extend_it(make_job: JobFactory) -> None:
    tool = make_job(total_seconds=5)
    job = started(tool, "sleep 1", timeout=600)
    assert job.live.total_seconds == 5


def test_the_output_is_held_in_a_bounded_buffer_and_read_in_capped_pieces(make_job: JobFactory) -> None:
    tool = make_job(max_output_bytes=1000, read_bytes=400)
    job = started(tool, "seq 1 3000")  # 13893 bytes
    assert job.live.wait_ended(20)
    first = call(tool, action="output", job=job.key)
    assert (first["data"]["offset"], first["data"]["dropped"], len(first["stdout"])) == (12893, 12893, 400)
    assert (first["truncated"], first["data"]["output_bytes"], first["data"]["held_from"]) == (
        True,
        13893,
        12893,
    )
    assert job.live.log.held == 1000
    last = call(tool, action="output", job=job.key, offset=13893 - 10)
    assert (last["stdout"], last["data"]["next_offset"], last["truncated"]) == ("2999\n3000\n", 13893, False)


def test_output_is_read_from_any_offset_still_held(make_job: JobFactory) -> None:
    tool = make_job()
    job = started(tool, "printf abcdef")
    assert job.live.wait_ended(20)
    result = call(tool, action="output", job=job.key, offset=3)
    assert (result["stdout"], result["data"]["offset"], result["data"]["next_offset"]) == ("def", 3, 6)


def test_at_most_the_configured_number_of_jobs_runs_at_once(make_job: JobFactory) -> None:
    tool = make_job(max_running=1)
    first = started(tool, "sleep 30")
    second = call(tool, action="start", command="echo hi")
    assert (second["ok"], second["decision"], second["message"]) == (
        False,
        "deny",
        "at most 1 jobs may run at once: kill one or wait",
    )
    call(tool, action="kill", job=first.key)
    started(tool, "echo hi")


def test_job_ids_are_random_and_never_look_like_an_option(make_job: JobFactory) -> None:
    tool = make_job()
    keys = {tool.ctx.background.jobs.new_id() for _ in range(50)}
    assert len(keys) == 50 and all(re.fullmatch(r"job[0-9a-f]{24}", k) for k in keys)
    result = call(tool, action="status", job="-9")
    assert (result["ok"], result["decision"], result["message"]) == (False, "deny", "no job '-9' here")


def test_each_tool_context_has_its_own_jobs(make_job: JobFactory) -> None:
    one, other = make_job(), make_job()
    job = started(one, "sleep 30")
    result = call(other, action="kill", job=job.key)
    assert (result["ok"], result["message"]) == (False, f"no job {job.key!r} here")
    assert job.live.running
