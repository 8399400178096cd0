"""A policy tests itself: each rule's ``match``/``not_match`` examples, checked at load."""

from __future__ import annotations

import os

from bastion.call.families import Family
from bastion.errors import PolicyError
from bastion.policy.compiled import Policy, Rule
from bastion.policy.layer import Layer
from bastion.policy.rules import PATH_FAMILIES


def rule_matches_example(rule: Rule, example: str, policy: Policy) -> bool:
    """Does ``rule`` match the example call argument written in its ``match``/``not_match``?"""
    m = rule.matcher
    if m.family is Family.SHELL:
        from bastion.shell.analysis import analyze

        allow = rule.action.loosens
        return any(m.matches_command(c, allow=allow) for c in analyze(example).commands)
    if m.family in PATH_FAMILIES:
        expanded = policy.home + example[1:] if example.startswith("~") else example
        return m.matches_path(os.path.normpath(os.path.join(rule.base, expanded)))
    if m.family is Family.FETCH:
        from bastion.policy.network import UrlError, parse_target

        try:
            return m.matches_host(parse_target(example))
        except UrlError:
            return False
    if m.family is Family.MCP:
        return m.matches_words(example)
    return m.matches_words(*example.split())


def check_rule_examples(policy: Policy, layers: list[Layer]) -> None:
    """A policy tests itself: a failing ``match``/``not_match`` example is a load error."""
    for rule in policy.rules:
        for example in rule.match:
            if not rule_matches_example(rule, example, policy):
                _fail(rule, f"match example {example!r} does not match pattern {rule.pattern!r}")
        for example in rule.not_match:
            if rule_matches_example(rule, example, policy):
                _fail(rule, f"not_match example {example!r} matches pattern {rule.pattern!r}")


def _fail(rule: Rule, message: str) -> None:
    file, _, line = rule.source.rpartition(":")
    if not file or not line.isdigit():
        file, line = rule.source, ""
    raise PolicyError(message, file=file, line=int(line) if line else None, key=f"{rule.rule_id}.match")
