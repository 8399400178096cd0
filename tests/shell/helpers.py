"""Shared helpers for the shell classifier tests."""

from __future__ import annotations

from collections.abc import Callable

from bastion import Decision, Gate, ToolCall
from bastion.call.effects import Effect
from bastion.shell.analysis import analyze
from bastion.shell.model import ShellAnalysis, SimpleCommand

E = Effect


def only(command: str) -> SimpleCommand:
    """The analysis of a command that must contain exactly one simple command."""
    a = analyze(command)
    assert a.decidable, a.errors
    assert len(a.commands) == 1, [c.argv for c in a.commands]
    return a.commands[0]


def effects(analysis: ShellAnalysis) -> set[Effect]:
    return {e for c in analysis.commands for e in c.effects}


def all_pure(command: str) -> bool:
    a = analyze(command)
    return a.decidable and bool(a.commands) and all(c.pure_reader for c in a.commands)


#: Reasons that explain why nothing allowed a call (the leading reason an agent reads), not
#: which rule decided it: tables that pin the deciding rules leave them out; they are pinned
#: in tests/policy/test_leading_reason.py.
EXPLAINING_RULES = frozenset({"shell.not-a-reader", "shell.dynamic-path", "paths.outside-roots"})


def deciding_rules(evaluation: object) -> list[str]:
    """The rule ids of ``evaluation``'s reasons, in order, without the explaining ones."""
    rules = [r.rule for r in evaluation.reasons]  # type: ignore[attr-defined]
    return list(dict.fromkeys(r for r in rules if r not in EXPLAINING_RULES))


def decide(gate: Gate, call: Callable[..., ToolCall], command: str) -> tuple[Decision, list[str]]:
    """The gate's decision on the shell ``command`` with its deciding rules, sorted."""
    evaluation = gate.evaluate(call("shell", command=command))
    return evaluation.decision, sorted(deciding_rules(evaluation))
