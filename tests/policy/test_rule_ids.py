"""The catalogue of built-in rule ids is complete, and the marker and resolver read origins."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from bastion.approval.model import Resolver
from bastion.approval.outcome import resolver_of
from bastion.policy.decision import MARKER_BLOCKED, MARKER_DENIED, Decision, Evaluation, Reason
from bastion.policy.rule_ids import BUILT_IN, Origin, known, origin_of
from bastion.policy.verdict import Assembly, Subject

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = Reason(Decision.DENY, "approval.non_interactive_default", "built-in", "", "nobody")


def _written_ids() -> dict[str, str]:
    """Every rule id spelled in the source: the second argument of ``Reason(...)`` and each
    ``rule=`` keyword, with an f-string's variable part as ``{}``."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "src" / "bastion").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            values = [node.args[1]] if name == "Reason" and len(node.args) >= 2 else []
            values += [k.value for k in node.keywords if k.arg == "rule"]
            for value in values:
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    found[value.value] = str(path.relative_to(ROOT))
                elif isinstance(value, ast.JoinedStr):
                    parts = [v.value if isinstance(v, ast.Constant) else "{}" for v in value.values]
                    found["".join(str(p) for p in parts)] = str(path.relative_to(ROOT))
    return found


def test_every_rule_id_the_source_writes_is_in_the_catalogue() -> None:
    written = _written_ids()
    assert len(written) > 40  # the reader found the ids at all
    assert {i: where for i, where in written.items() if not _template_known(i)} == {}


def _template_known(spelled: str) -> bool:
    """A fixed id, or an f-string's: known when a family covers it (``mode.{}``) or when it
    spells listed ids (``paths.allow_{}``: ``paths.allow_read``, ``paths.allow_write``)."""
    if "{}" not in spelled:
        return known(spelled)
    pattern = re.compile(".+".join(re.escape(p) for p in spelled.split("{}")))
    return known(spelled.replace("{}", "x")) or any(pattern.fullmatch(i) for i in BUILT_IN)


def test_every_rule_id_in_the_golden_files_is_in_the_catalogue() -> None:
    text = (ROOT / "tests" / "policy" / "golden" / "evaluations.json").read_text(encoding="utf-8")
    ids = {r["rule"] for case in json.loads(text) for r in case["evaluation"]["reasons"]}
    assert len(ids) > 20 and sorted(i for i in ids if not known(i)) == []


@pytest.mark.parametrize(
    ("rule", "origin"),
    [
        ("rule[12]", Origin.RULE),
        ("commands.deny", Origin.LIST),
        ("paths.deny_read", Origin.LIST),
        ("hardline.credentials", Origin.HARDLINE),
        ("hardline.privilege", Origin.HARDLINE),
        ("mode.read-only", Origin.MODE),
        ("ceiling.network", Origin.CEILING),
        ("approval.interactive_default", Origin.DEFAULT),
        ("approval.person", Origin.PERSON),
        ("approval.callback", Origin.CALLBACK),
        ("grant.pattern", Origin.GRANT),
        ("limits.calls_per_minute", Origin.LIMIT),
        ("breaker.repeat-failure", Origin.BREAKER),
        ("internal-error", Origin.ERROR),
        ("policy.invalid", Origin.ERROR),
        ("shell.not-a-reader", Origin.BUILTIN),
        ("something.new", Origin.BUILTIN),
    ],
)
def test_a_reason_takes_its_origin_from_the_catalogue(rule: str, origin: Origin) -> None:
    assert (origin_of(rule), Reason(Decision.DENY, rule, "s", "", "m").origin) == (origin, origin)


def test_the_origin_is_not_part_of_the_json_or_of_equality() -> None:
    given = Reason(Decision.DENY, "rule[1]", "f:3", "x", "m", Origin.PERSON)
    assert given.to_json() == {"rule": "rule[1]", "source": "f:3", "matched": "x", "message": "m",
                               "decision": "deny"}  # fmt: skip
    assert Reason.from_json(given.to_json()) == given
    assert Reason.from_json(given.to_json()).origin is Origin.RULE


def _marker(*reasons: Reason) -> str | None:
    out = Assembly(approval_default=DEFAULT)
    out.add(Subject(label="x", hard=list(reasons)))
    return out.finish().marker


def test_the_marker_is_read_from_the_origin_of_the_deciding_reasons() -> None:
    mode = Reason(Decision.DENY, "custom.block", "s", "", "m", Origin.MODE)
    rule = Reason(Decision.DENY, "custom.rule", "s", "", "m", Origin.RULE)
    person = Reason(Decision.DENY, "custom.person", "s", "", "m", Origin.PERSON)
    assert (_marker(mode), _marker(mode, rule), _marker(rule), _marker(person)) == (
        MARKER_BLOCKED,
        MARKER_DENIED,
        MARKER_DENIED,
        None,
    )


def test_the_resolver_is_read_from_the_origin_of_the_leading_reason() -> None:
    def leading(origin: Origin) -> Resolver:
        reason = Reason(Decision.ALLOW, "custom.answer", "s", "", "m", origin)
        return resolver_of(Evaluation(Decision.ALLOW, (reason,)))

    assert [leading(o) for o in (Origin.PERSON, Origin.GRANT, Origin.LIMIT, Origin.RULE)] == [
        Resolver.PERSON,
        Resolver.GRANT,
        Resolver.LIMIT,
        Resolver.POLICY,
    ]
    assert resolver_of(Evaluation(Decision.DENY, ())) is Resolver.POLICY


def test_the_catalogue_has_an_origin_for_each_fixed_id_and_no_blank_ids() -> None:
    assert all(isinstance(o, Origin) and i and i == i.strip() for i, o in BUILT_IN.items())
