"""The differential oracle in CI: at least 1,000 commands the default policy allows (the
shell tests' literals first, then a fixed sample of generated commands) are executed for
real, and each must do no more than its decision declared.

Set BASTION_DIFF_REPORT=FILE to also write every violation there (the full list can be long).
"""

from __future__ import annotations

import os

from tests.differential.oracle import corpus
from tests.differential.oracle.run import Oracle, by_kind, info_kinds

QUOTA = 1000  # allowed commands executed in CI
SHOWN = 60  # violations spelled out in the assertion message (all are printed)


def test_every_allowed_command_does_only_what_its_decision_declared(oracle: Oracle) -> None:
    commands = corpus.literal_commands() + corpus.sample(corpus.generated())
    allowed, evaluated = oracle.allowed(commands, quota=QUOTA)
    assert len(allowed) >= QUOTA, f"only {len(allowed)} of {evaluated} evaluated commands were allowed"
    results = oracle.execute_all(allowed)
    bad = [r for r in results if r.violations]
    reports = [r.report() for r in bad]
    for report in reports:
        print(report, end="\n\n")
    target = os.environ.get("BASTION_DIFF_REPORT")
    if target:
        with open(target, "w") as out:
            out.write("\n\n".join(reports) + "\n")
    summary = (
        f"{len(bad)} of {len(results)} allowed commands (of {evaluated} evaluated) did more than "
        f"their decision declared; by kind: {dict(by_kind(results))}; not counted: {dict(info_kinds(results))}"
    )
    assert not bad, summary + "\n\n" + "\n\n".join(reports[:SHOWN])
