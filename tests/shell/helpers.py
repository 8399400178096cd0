"""Shared helpers for the shell classifier tests."""

from __future__ import annotations

from bastion.policy.decision import Effect
from bastion.shell import ShellAnalysis, SimpleCommand, analyze

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
