"""Explain the chain: every ``[[rule]]`` and list entry that matched a call, in the order
the engine consults them (deny lists, allow lists, then the rules — the last matching rule
wins), each with its file:line, and which one the decision came from (the others are
listed as overridden by it).

This reads the compiled Policy and asks each entry's own matcher; it does not re-decide.
The deciding entry is the one whose source the engine's deciding reason names, so the
chain can never disagree with the decision it explains.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bastion.call.model import ToolCall
from bastion.policy.compiled import Policy, Rule
from bastion.policy.decision import Evaluation
from bastion.policy.globs import GlobSet

_READS = ("read", "list", "glob", "grep")
_WRITES = ("write", "edit")


@dataclass(frozen=True, slots=True)
class Match:
    stage: str  # "paths.deny_read", "commands.allow", "network.deny_hosts", "rule[3]"…
    entry: str  # the pattern as written
    action: str  # allow, ask, deny, classify
    source: str  # file:line
    subject: str  # what it matched: the command, path, host or SERVER/TOOL

    def to_json(self) -> dict[str, str]:
        return {
            "stage": self.stage,
            "entry": self.entry,
            "action": self.action,
            "source": self.source,
            "subject": self.subject,
        }


def _abs(path: str, cwd: str, home: str) -> str:
    expanded = home + path[1:] if path == "~" or path.startswith("~/") else path
    return os.path.normpath(os.path.join(cwd, expanded))


def _globs(stage: str, action: str, globs: GlobSet, path: str) -> Iterator[Match]:
    for glob in globs.globs:
        if glob.regex.search(path.lstrip("/")):
            yield Match(stage, glob.pattern, action, glob.source, path)


def _path_matches(policy: Policy, access: str, path: str) -> Iterator[Match]:
    reads = access in _READS
    # The deny lists as the gate checks them (``path_checks``); the hardline checks there
    # are not list entries a person wrote, so they are left out of the chain.
    checks = policy.path_checks.read if reads else policy.path_checks.write
    for check in checks:
        if check.rule.startswith("paths."):
            yield from _globs(check.rule, check.decision.label, check.globs, path)
    if reads:
        yield from _globs("paths.allow_read", "allow", policy.allow_read, path)
    else:
        yield from _globs("paths.allow_write", "allow", policy.allow_write, path)


def _rule(rule: Rule, subject: str) -> Match:
    return Match(rule.rule_id, rule.pattern or "(every call)", rule.action, rule.source, subject)


def _shell(policy: Policy, call: ToolCall) -> Iterator[Match]:
    from bastion.shell.analysis import analyze

    for cmd in analyze(str(call.args.get("command", ""))).commands:
        text = " ".join(cmd.argv)
        for pattern in policy.command_deny:
            if pattern.command.matches_deny(cmd):
                yield Match("commands.deny", pattern.text, "deny", pattern.source, text)
        for pattern in policy.command_allow:
            if pattern.command.matches_allow(cmd):
                yield Match("commands.allow", pattern.text, "allow", pattern.source, text)
        for use in cmd.paths:
            if use.path is not None:
                access = "read" if use.access.value == "read" else "write"
                yield from _path_matches(policy, access, _abs(use.path, call.cwd, policy.home))
        for rule in policy.rules:
            if rule.matcher.family.value == "shell" and rule.matcher.matches_command(
                cmd, allow=rule.action.loosens
            ):
                yield _rule(rule, text)


def _fetch(policy: Policy, call: ToolCall) -> Iterator[Match]:
    from bastion.policy.network import UrlError, host_matches, parse_target

    try:
        target = parse_target(str(call.args.get("url", "")))
    except UrlError:
        return
    for stage, action, patterns in (
        ("network.deny_hosts", "deny", policy.network.deny_hosts),
        ("network.allow_hosts", "allow", policy.network.allow_hosts),
    ):
        for pattern in patterns:
            if host_matches(pattern, target):
                yield Match(stage, pattern, action, policy.network.source, target.host)
    for rule in policy.rules:
        if rule.matcher.family.value == "fetch" and rule.matcher.matches_host(target):
            yield _rule(rule, target.host)


def matches(policy: Policy, call: ToolCall) -> list[Match]:
    """Every entry that matched ``call``, in the engine's order."""
    if call.tool == "shell":
        return list(_shell(policy, call))
    if call.tool == "fetch":
        return list(_fetch(policy, call))
    if call.tool in (*_READS, *_WRITES) and isinstance(call.args.get("path"), str):
        path = _abs(str(call.args["path"]), call.cwd, policy.home)
        found = list(_path_matches(policy, call.tool, path))
        found += [
            _rule(r, path)
            for r in policy.rules
            if r.matcher.family.value == call.tool and r.matcher.matches_path(path)
        ]
        return found
    if call.tool == "mcp":
        name = f"{call.args.get('server')}/{call.args.get('tool')}"
        return [
            _rule(r, name)
            for r in policy.rules
            if r.matcher.family.value == "mcp" and r.matcher.matches_words(name)
        ]
    return []


def chain(policy: Policy, call: ToolCall, evaluation: Evaluation) -> list[dict[str, Any]]:
    """The matches as JSON, each with ``deciding`` or the source of what ``overrode`` it."""
    found = matches(policy, call)
    deciding = {(r.rule, r.source) for r in evaluation.reasons if r.decision is evaluation.decision}
    winner = next((m for m in reversed(found) if (m.stage, m.source) in deciding), None)
    out = []
    for m in found:
        item: dict[str, Any] = m.to_json()
        if m is winner:
            item["deciding"] = True
        else:
            item["overridden_by"] = (
                winner.source
                if winner
                else (
                    f"{evaluation.reasons[0].rule} @ {evaluation.reasons[0].source}"
                    if evaluation.reasons
                    else ""
                )
            )
        out.append(item)
    return out
