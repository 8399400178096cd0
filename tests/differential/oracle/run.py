"""The oracle end to end: decide each command with the default policy (workspace mode, cwd
the fixture workspace), execute the allowed ones in the sandbox, judge what they did."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from bastion import Decision, Gate, ToolCall, load_policy_text
from bastion.policy.decision import Evaluation
from bastion.policy.network import StaticResolver
from tests.differential.oracle import fixture as fixtures
from tests.differential.oracle import sandbox
from tests.differential.oracle.judge import Declaration, Finding, Where, judge_run

TIMEOUT = 5.0  # seconds per command
CAP = 1.0  # seconds for a command that declares a long-running program
WORKERS = 2


@dataclass(frozen=True, slots=True)
class Decided:
    command: str
    evaluation: Evaluation
    declaration: Declaration


@dataclass(frozen=True, slots=True)
class Result:
    decided: Decided
    findings: tuple[Finding, ...]
    exit_code: int | None
    stderr: str

    @property
    def violations(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.violation)

    def report(self) -> str:
        """The command, the decision's reasons and the offending syscall lines."""
        reasons = "; ".join(f"{r.rule}: {r.message}" for r in self.decided.evaluation.reasons)
        lines = [f"$ {self.decided.command}", f"  decision: allow [{reasons}]"]
        lines += [f"  {f.kind.value}: {f.path}\n      {f.line[:300]}" for f in self.violations]
        if any(f.kind.name == "SANDBOX" for f in self.violations) and self.stderr:
            lines.append(f"  sandbox stderr: {self.stderr.strip()[-300:]}")
        return "\n".join(lines)


class Oracle:
    """One fixture template and one gate over it; ``close`` removes the template."""

    def __init__(self) -> None:
        self.fixture = fixtures.build()
        env = {"HOME": str(self.fixture.home), "BASTION_STATE_DIR": str(self.fixture.state)}
        policy = load_policy_text("", cwd=str(self.fixture.workspace), env=env)
        self.gate = Gate(policy, resolver=StaticResolver({}))
        self.where = Where(str(self.fixture.home), str(self.fixture.workspace))

    def close(self) -> None:
        shutil.rmtree(self.fixture.root, ignore_errors=True)

    def decide(self, command: str) -> Decided:
        call = ToolCall(tool="shell", args={"command": command}, cwd=str(self.fixture.workspace))
        evaluation = self.gate.evaluate(call)
        # The gate's own parse, the one it decided by: an oracle that parsed on its own could
        # lose it (another spelling, a failed parse) and report noise, or hide a finding.
        return Decided(command, evaluation, Declaration.of(evaluation, self.gate.analyze_shell(command)))

    def allowed(self, commands: Iterable[str], quota: int | None = None) -> tuple[list[Decided], int]:
        """The allowed decisions in order (stopping at ``quota``), and how many were evaluated."""
        out: list[Decided] = []
        evaluated = 0
        for command in commands:
            if quota is not None and len(out) >= quota:
                break
            evaluated += 1
            decided = self.decide(command)
            if decided.evaluation.decision is Decision.ALLOW:
                out.append(decided)
        return out, evaluated

    def execute(self, decided: Decided) -> Result:
        timeout = CAP if decided.declaration.long_running else TIMEOUT
        run = sandbox.run(self.fixture, decided.command, timeout=timeout)
        findings = judge_run(run.trace, run.exit_code is None, decided.declaration, self.where)
        return Result(decided, tuple(findings), run.exit_code, run.stderr)

    def execute_all(self, decided: list[Decided], workers: int = WORKERS) -> list[Result]:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(self.execute, decided))


def by_kind(results: Iterable[Result]) -> Counter[str]:
    """Violating commands per kind (a command counts once per kind)."""
    counts: Counter[str] = Counter()
    for result in results:
        counts.update({f.kind.value for f in result.violations})
    return counts


def by_severity(results: Iterable[Result]) -> Counter[str]:
    """Findings per severity (a command counts once per severity it shows)."""
    counts: Counter[str] = Counter()
    for result in results:
        counts.update({f.severity.value for f in result.findings})
    return counts


def info_kinds(results: Iterable[Result]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for result in results:
        counts.update({f.kind.value for f in result.findings if not f.violation})
    return counts
