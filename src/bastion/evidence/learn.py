"""``bastion learn``: the fewest allow rules that would have spared people the asks they
approved again and again — and never one that lets through what a person denied.

Evidence is a list of calls with what a person did (approved / denied an ASK). Only calls
the current policy *asks* about count (a hardline class never does: it is never grantable,
and hardline checks run before any rule, so no learned rule can reach one). Per family:

* shell — one simple command, statically known. The pattern is the shortest argv prefix
  (program first) with a final ``*`` such that every approved command it covers keeps the
  effects the prefix alone has (``bastion.shell.analyze``): a flag that raises the effect
  (``--force``, ``-delete``, ``-i``) is never absorbed by the ``*``; otherwise the exact argv.
* read / edit / write / list / glob — the folder (``DIR/**``) the approved paths share, or
  the exact path.
* fetch — the exact host; mcp — the exact ``SERVER/TOOL``.

A candidate is kept only if it covers ≥ ``repeats`` distinct approved calls, matches no
denied call (checked with the engine itself: the candidate rule is added to the policy and
each denied call is decided again), and a candidate covered by a broader kept one is
dropped. Each rule carries ``match`` examples (approved calls) and ``not_match`` examples
(denied calls of the same program or folder, when there are any).
"""

from __future__ import annotations

import dataclasses
import json
import posixpath
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from bastion.construct import OFFLINE_OPTIONS, build_gate
from bastion.evidence.model import Outcome, Proposed
from bastion.evidence.replay import Replayed, decide
from bastion.policy.compiled import Policy, Rule
from bastion.policy.decision import Decision
from bastion.policy.engine import Gate
from bastion.policy.kinds import RuleAction
from bastion.policy.rules import compile_matcher
from bastion.runtime import would_ask

PATH_TOOLS = ("read", "edit", "write", "list", "glob")
MAX_EXAMPLES = 3


@dataclass(frozen=True, slots=True)
class Learned:
    tool: str
    pattern: str
    approvals: int
    match: tuple[str, ...]
    not_match: tuple[str, ...] = ()

    def toml(self) -> str:
        lines = [
            "[[rule]]",
            f"tool = {_q(self.tool)}",
            f"pattern = {_q(self.pattern)}",
            'action = "allow"',
            f"reason = {_q(f'learned: a person approved {self.approvals} such calls')}",
            f"match = [{', '.join(_q(m) for m in self.match)}]",
        ]
        if self.not_match:
            lines.append(f"not_match = [{', '.join(_q(m) for m in self.not_match)}]")
        return "\n".join(lines) + "\n"


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid TOML basic string


@dataclass
class Evidence:
    """One call as the current policy decides it, with what a person did."""

    replayed: Replayed
    outcome: Outcome

    @property
    def subject(self) -> str | None:
        """What a rule pattern is matched against: the command, path, URL or SERVER/TOOL."""
        calls = self.replayed.calls
        if len(calls) != 1:
            return None
        args = calls[0].args
        key = {"shell": "command", "fetch": "url"}.get(calls[0].tool, "path")
        if calls[0].tool == "mcp":
            return f"{args.get('server')}/{args.get('tool')}"
        value = args.get(key)
        return value if isinstance(value, str) else None


@dataclass
class LearnReport:
    rules: list[Learned] = field(default_factory=list)
    approved: int = 0
    denied: int = 0
    asks_before: int = 0
    asks_after: int = 0
    notes: list[str] = field(default_factory=list)

    def toml(self) -> str:
        return "\n".join(r.toml() for r in self.rules)


def _prefix_effects(argv: tuple[str, ...]) -> frozenset[str] | None:
    from bastion.shell.analysis import analyze

    analysis = analyze(" ".join(_shell_quote(w) for w in argv))
    if analysis.errors or len(analysis.commands) != 1:
        return None
    return frozenset(e.value for e in analysis.commands[0].effects)


def _shell_quote(word: str) -> str:
    import shlex

    return shlex.quote(word)


def _simple(command: str) -> tuple[str, ...] | None:
    """The argv of a statically known single simple command; None otherwise."""
    from bastion.shell.analysis import analyze

    analysis = analyze(command)
    if analysis.errors or len(analysis.commands) != 1:
        return None
    cmd = analysis.commands[0]
    if cmd.dynamic or cmd.dynamic_words or not cmd.known or cmd.catastrophic or cmd.program is None:
        return None
    return cmd.argv


def star_safe(prefix: tuple[str, ...]) -> bool:
    """May a final ``*`` follow ``prefix``? Only when the knowledge base says no word after
    it can raise the effect: the prefix resolves to one Spec (no subcommand left to pick)
    with no handler (find predicates, sed scripts… add effects) and no flag that adds one."""
    from bastion.shell.programs.registry import lookup

    spec = lookup(posixpath.basename(prefix[0]))
    for word in prefix[1:]:
        if spec is None:
            return False
        if spec.subcommands is not None and not word.startswith("-"):
            spec = spec.subcommands.get(word, spec.other_sub)
    if spec is None or spec.subcommands is not None or spec.handler is not None:
        return False
    return not any(rule.effects for rule in spec.flags.values())


def shell_candidates(commands: list[str]) -> list[tuple[str, list[str]]]:
    """(pattern, approved commands it covers), broadest first. A prefix covers a command
    whose argv starts with it and whose effects the prefix alone already has."""
    argvs = {c: a for c in commands if (a := _simple(c)) is not None}
    effects = {c: _prefix_effects(a) for c, a in argvs.items()}
    out: dict[str, list[str]] = {}
    prefixes = {a[:k] for a in argvs.values() for k in range(1, len(a) + 1)}
    for prefix in prefixes:
        own = _prefix_effects(prefix)
        if own is None or "unknown" in own or not star_safe(prefix):
            continue
        members = [
            c
            for c, a in argvs.items()
            if a[: len(prefix)] == prefix and (fx := effects[c]) is not None and fx <= own
        ]
        if members:
            out[" ".join(_shell_quote(w) for w in prefix) + " *"] = members
    for command, argv in argvs.items():
        out.setdefault(" ".join(_shell_quote(w) for w in argv), []).append(command)
    return sorted(out.items(), key=_narrow_first)


def _narrow_first(item: tuple[str, list[str]]) -> tuple[int, bool, int]:
    """Most distinct calls covered first; among equals the exact pattern (no glob) first."""
    return (-len(set(item[1])), "*" in item[0], len(item[0]))


def path_candidates(paths: list[str]) -> list[tuple[str, list[str]]]:
    out: dict[str, list[str]] = {}
    for path in paths:
        if any(c in path for c in "*?[]{}"):
            continue  # a path that reads as a glob would match more than itself
        out.setdefault(path, []).append(path)
        folder = posixpath.dirname(path)
        if folder not in ("", "/"):
            out.setdefault(f"{folder}/**", []).append(path)
    return sorted(out.items(), key=_narrow_first)


def _host(url: str) -> str | None:
    from bastion.policy.network import UrlError, parse_target

    try:
        return parse_target(url).host
    except UrlError:
        return None


def _candidates(tool: str, subjects: list[str]) -> list[tuple[str, list[str]]]:
    if tool == "shell":
        return shell_candidates(subjects)
    if tool in PATH_TOOLS:
        return path_candidates(subjects)
    if tool == "fetch":
        by_host: dict[str, list[str]] = {}
        for url in subjects:
            if (host := _host(url)) is not None:
                by_host.setdefault(host, []).append(url)
        return sorted(by_host.items(), key=lambda item: -len(item[1]))
    if tool == "mcp":
        return sorted(
            {s: [x for x in subjects if x == s] for s in subjects}.items(), key=lambda i: -len(i[1])
        )
    return []


def with_rules(policy: Policy, learned: Iterable[Learned]) -> Policy:
    """``policy`` with ``learned`` appended as allow rules (last match wins, as in a file)."""
    extra = []
    for n, rule in enumerate(learned, len(policy.rules) + 1):
        matcher = compile_matcher(
            rule.tool, rule.pattern, base=policy.workspace[0] if policy.workspace else "/", home=policy.home
        )
        extra.append(
            Rule(
                index=n,
                tool=rule.tool,
                pattern=rule.pattern,
                action=RuleAction.ALLOW,
                reason="learned",
                source="bastion learn",
                matcher=matcher,
                base="/",
                match=rule.match,
                not_match=rule.not_match,
            )
        )
    return dataclasses.replace(policy, rules=(*policy.rules, *extra))


Loader = Callable[[str], Policy]


#: A learned rule is policy: it allows at every entry point, those that run the call as
#: written included, so a call is an ask here when it asks anywhere: workspace code allowed
#: only contained (``shell.contained-code``) is decided as where nothing contains it.
LEARN_OPTIONS = dataclasses.replace(
    OFFLINE_OPTIONS,
    contained_shell=False,
    sandbox_note="learn: decided as where nothing contains the call, without DNS",
)


def _gate_for(load: Loader, learned: list[Learned]) -> Callable[[str], Gate]:
    cache: dict[str, Gate] = {}

    def gate_for(cwd: str) -> Gate:
        if cwd not in cache:
            cache[cwd] = build_gate(with_rules(load(cwd), learned), LEARN_OPTIONS)
        return cache[cwd]

    return gate_for


def evaluate(load: Loader, calls: Iterable[Proposed], learned: list[Learned]) -> list[Evidence]:
    gate_for = _gate_for(load, learned)
    return [Evidence(decide(gate_for, c, interactive=True), c.outcome) for c in calls]


def asks(evidence: Iterable[Evidence]) -> int:
    return sum(1 for e in evidence if would_ask(e.replayed.evaluation))


def learn(load: Loader, calls: list[Proposed], *, repeats: int = 2) -> LearnReport:
    """The rules, and asks before/after on ``calls`` themselves."""
    base = evaluate(load, calls, [])
    report = LearnReport(
        approved=sum(1 for e in base if e.outcome is Outcome.APPROVED),
        denied=sum(1 for e in base if e.outcome is Outcome.DENIED),
        asks_before=asks(base),
    )
    denied = [e for e in base if e.outcome is Outcome.DENIED]
    askable = [
        e
        for e in base
        if e.outcome is Outcome.APPROVED and would_ask(e.replayed.evaluation) and e.subject is not None
    ]
    by_tool: dict[str, list[Evidence]] = {}
    for e in askable:
        by_tool.setdefault(e.replayed.calls[0].tool, []).append(e)
    for tool, items in sorted(by_tool.items()):
        report.rules.extend(_learn_tool(load, tool, items, denied, repeats))
    report.asks_after = asks(evaluate(load, calls, report.rules))
    return report


def _learn_tool(
    load: Loader, tool: str, items: list[Evidence], denied: list[Evidence], repeats: int
) -> list[Learned]:
    subjects = [str(e.subject) for e in items]
    cwd_of = {str(e.subject): e.replayed.proposed.cwd for e in items}
    covered: set[str] = set()
    kept: list[Learned] = []
    times = Counter(subjects)  # the same call approved again counts again: "repeatedly"
    for pattern, members in _candidates(tool, sorted(times)):
        fresh = sorted(set(members) - covered)
        approvals = sum(times[m] for m in set(members))
        if approvals < repeats or not fresh:
            continue
        try:
            candidate = Learned(tool, pattern, approvals, tuple(sorted(set(members))[:MAX_EXAMPLES]))
            blocked = _lets_through(load, candidate, denied)
        except ValueError:
            continue  # a pattern the engine does not accept is never proposed
        if blocked:
            continue
        if not _allows(load, candidate, cwd_of[fresh[0]], items, fresh[0]):
            continue
        near = [str(d.subject) for d in denied if d.subject and d.replayed.calls[0].tool == tool]
        kept.append(dataclasses.replace(candidate, not_match=_not_match(load, candidate, near)))
        covered.update(members)
    return kept


def _lets_through(load: Loader, candidate: Learned, denied: list[Evidence]) -> bool:
    """Would the candidate turn any call a person denied into an allow?"""
    if not denied:
        return False
    gate_for = _gate_for(load, [candidate])
    return any(decide(gate_for, d.replayed.proposed).decision is Decision.ALLOW for d in denied)


def _allows(load: Loader, candidate: Learned, cwd: str, items: list[Evidence], subject: str) -> bool:
    """The engine really allows an approved call under the candidate (else it buys nothing)."""
    gate_for = _gate_for(load, [candidate])
    sample = next(e for e in items if e.subject == subject)
    return decide(gate_for, sample.replayed.proposed).decision is Decision.ALLOW and bool(cwd)


def _not_match(load: Loader, candidate: Learned, near: list[str]) -> tuple[str, ...]:
    """Denied subjects of the same tool that the pattern does not match (checked the way
    ``policy test`` checks them)."""
    from bastion.policy.rule_examples import rule_matches_example

    if not near:
        return ()
    policy = with_rules(load("/"), [candidate])
    rule = policy.rules[-1]
    head = candidate.pattern.split()[0] if candidate.pattern else ""
    misses = {n for n in near if not rule_matches_example(rule, n, policy)}
    # the most telling counter-examples first: the same program (or host, or server)
    return tuple(sorted(misses, key=lambda n: (not n.startswith(head), n))[:MAX_EXAMPLES])
