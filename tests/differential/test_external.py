"""The differential oracle on commands the team did not write: real examples from man pages
and community cheatsheets (``corpus/external.jsonl``, extracted by ``bench/external_corpus.py``).
CI decides every one of them and executes a fixed sample of the allowed ones; each must do no
more than its decision declared at high or medium severity. The whole corpus runs in
``bench/bench_differential.py --external`` (figures in BENCHMARKS.md)."""

from __future__ import annotations

from collections import Counter

from tests.differential.oracle import corpus, external
from tests.differential.oracle.judge import Severity
from tests.differential.oracle.run import Oracle, by_kind

QUOTA = 300  # allowed external commands executed in CI (the bench runs them all)
COUNTED = (Severity.HIGH, Severity.MEDIUM)


def test_the_external_corpus_is_thousands_of_commands_of_hundreds_of_programs_each_with_its_source() -> None:
    examples = external.examples()
    sources = Counter(e.source.split(":", 1)[0] for e in examples)
    assert len(examples) >= 5000
    assert len({e.command.split()[0] for e in examples}) >= 500
    assert set(sources) == {"man", "cheat", "eg"} and all(e.source.count(":") >= 1 for e in examples)
    assert len({e.command for e in examples}) == len(examples)  # no command twice


def test_a_fixed_sample_of_external_commands_does_only_what_its_decision_declared(oracle: Oracle) -> None:
    allowed, evaluated = oracle.allowed(corpus.sample(external.commands()), quota=QUOTA)
    assert evaluated >= 1000 and len(allowed) == QUOTA, (evaluated, len(allowed))
    results = oracle.execute_all(allowed)
    bad = [r for r in results if any(f.severity in COUNTED for f in r.findings)]
    summary = (
        f"{len(bad)} of {len(results)} allowed external commands did more than declared: {dict(by_kind(bad))}"
    )
    assert not bad, summary + "\n\n" + "\n\n".join(r.report() for r in bad[:40])
