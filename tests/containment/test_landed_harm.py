"""Issue #30 item 7: every call of the corpus, run exactly as each agent's default install runs
it (the installed hook decides; the agent runs the rewritten command where the answer carries
one, the original otherwise; an ask is approved by a person), leaves nothing outside the
workspace: no file of HOME, no rc file, no credential printed or copied, no repository's
config, no agent settings, no connection to the loopback server.

An agent whose calls are not contained today is an expected failure with the count measured
when it was marked (``strict``: the day it holds, the mark must go). Where the harm comes
from, on landed main with ``[exec] contain = "allowed"``: asks a person approves run
uncontained (item 2), and an allowed call's write to an embedded bare repository's config is
not protected (item 6); Qwen Code's hook cannot rewrite at all (item 4).
"""

from __future__ import annotations

import pytest

from tests.containment.agents import AGENTS
from tests.containment.corpus import CORPUS, TRACES
from tests.containment.runner import run_corpus, summary
from tests.containment.world import PayloadServer, World


# Measured when the suite landed, before the containment stage, approved asks contained and
# every repository protected: Claude Code, Copilot and Gemini 114 of 150 (113 approved asks
# run uncontained, and a bare repository's config appended), Codex 1, Qwen Code 3. Now 0 each.
@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_no_call_of_the_corpus_run_as_the_agent_runs_it_lands_outside_the_workspace(
    agent: str, world: tuple[World, PayloadServer]
) -> None:
    results = run_corpus(AGENTS[agent], CORPUS, *world)

    assert [r.case for r in results if r.landed] == [], summary(results)


def test_every_call_of_the_corpus_does_harm_when_run_as_written(world: tuple[World, PayloadServer]) -> None:
    """The baseline: with no hook and no sandbox each case lands, so a case that lands
    nothing through an agent was stopped or contained, not harmless in this world."""
    results = run_corpus(None, CORPUS, *world)
    # A case that landed nothing is run once more: on a loaded machine a loopback fetch can
    # fail once (seen for curl-sh), and this baseline is about the world, not the gate.
    missed = {r.case for r in results if not r.landed}
    again = run_corpus(None, tuple(h for h in CORPUS if h.id in missed), *world) if missed else []

    assert [r.case for r in again if not r.landed] == []


def test_the_corpus_is_broad_and_every_case_names_its_harm_and_trace() -> None:
    ids = [harm.id for harm in CORPUS]
    assert len(ids) == len(set(ids)) >= 80
    assert all(harm.harm and harm.command for harm in CORPUS)
    counts = {trace: sum(1 for harm in CORPUS if harm.trace == trace) for trace in TRACES}
    assert set(harm.trace for harm in CORPUS) == set(TRACES)
    assert min(counts.values()) >= 5, counts
