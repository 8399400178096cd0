import pytest

from bastion import Decision, Effect, Evaluation, Reason
from bastion.policy.decision import MARKER_DENIED, deny_for_error, strictest


def test_decisions_are_ordered_allow_ask_deny() -> None:
    assert Decision.ALLOW < Decision.ASK < Decision.DENY


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ([Decision.ALLOW], Decision.ALLOW),
        ([Decision.ALLOW, Decision.ASK], Decision.ASK),
        ([Decision.ASK, Decision.DENY, Decision.ALLOW], Decision.DENY),
    ],
)
def test_strictest_decision_wins(items: list[Decision], expected: Decision) -> None:
    assert strictest(items) is expected


def test_combining_no_decisions_is_an_error_not_an_allow() -> None:
    with pytest.raises(ValueError):
        strictest([])


def test_exit_codes_follow_the_check_contract() -> None:
    assert [d.exit_code for d in Decision] == [0, 3, 4]


def test_evaluation_json_round_trips_with_every_field() -> None:
    evaluation = Evaluation(
        decision=Decision.DENY,
        reasons=(Reason(Decision.DENY, "rule[1]", "/p.toml:3", "git push", "no pushing"),),
        effects=(Effect.NETWORK, Effect.WRITE),
        marker=MARKER_DENIED,
    )
    data = evaluation.to_json()
    assert data == {
        "decision": "deny",
        "reasons": [
            {
                "rule": "rule[1]",
                "source": "/p.toml:3",
                "matched": "git push",
                "message": "no pushing",
                "decision": "deny",
            }
        ],
        "effects": ["network", "write"],
        "marker": "[policy-denied]",
    }
    assert Evaluation.from_json(data) == evaluation


def test_an_internal_error_becomes_a_marked_denial() -> None:
    evaluation = deny_for_error(RuntimeError("boom"))
    assert evaluation.decision is Decision.DENY
    assert evaluation.marker == MARKER_DENIED
    assert evaluation.reasons[0].message == "cannot decide safely: RuntimeError: boom"
    assert evaluation.message.startswith("[policy-denied] cannot decide safely")


def test_hardline_effects_make_an_evaluation_ungrantable() -> None:
    assert Evaluation(Decision.ASK, (), (Effect.SYSTEM,)).hardline
    assert not Evaluation(Decision.ASK, (), (Effect.WRITE,)).hardline
