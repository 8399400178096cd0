"""The policy's vocabularies are enums: one Ceiling for the engine and launch, Mode, RuleAction."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bastion.configuration import load_policy_text
from bastion.policy.ceiling import (
    BYPASS,
    NO_CEILING,
    ApprovalLevel,
    Ceiling,
    FilesystemLevel,
    NetworkLevel,
)
from bastion.policy.decision import Decision
from bastion.policy.kinds import Mode, RuleAction


def test_a_ceiling_written_in_words_holds_the_ordered_members() -> None:
    ceiling = Ceiling.parse("ask_for_risky, workspace_write ,denied")
    assert ceiling.levels() == (
        ApprovalLevel.ASK_FOR_RISKY,
        FilesystemLevel.WORKSPACE_WRITE,
        NetworkLevel.DENIED,
    )
    assert (ceiling.text(), ceiling.rank()) == ("ask_for_risky,workspace_write,denied", 2)


def test_an_unknown_word_in_a_ceiling_names_its_dimension_and_the_choices() -> None:
    with pytest.raises(
        ValueError, match=r"filesystem must be one of read_only, workspace_write, unrestricted"
    ):
        Ceiling("ask_for_risky", "everywhere", "denied")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="APPROVAL,FILESYSTEM,NETWORK"):
        Ceiling.parse("never_ask,unrestricted")


def test_meeting_two_ceilings_takes_the_stricter_level_of_each_dimension() -> None:
    loose_fs = Ceiling.of("ask_every_action", "unrestricted", "allowed")
    loose_approval = Ceiling.of("never_ask", "read_only", "denied")
    assert loose_fs.meet(loose_approval) == Ceiling.of("ask_every_action", "read_only", "denied")
    assert BYPASS.meet(NO_CEILING) == NO_CEILING


def test_looser_names_every_dimension_that_is_more_permissive_and_only_those() -> None:
    assert BYPASS.violations(Ceiling.of("ask_for_risky", "read_only", "allowed")) == (
        "approval",
        "filesystem",
    )
    assert not NO_CEILING.looser_than(BYPASS)
    assert BYPASS.looser_than(NO_CEILING)


def test_the_policy_ceiling_is_lowered_by_a_later_layer_and_never_raised(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "s")}
    text = '[ceiling]\napproval = "never_ask"\nfilesystem = "workspace_write"\nnetwork = "denied"\n'
    policy = load_policy_text(text, cwd=str(tmp_path), env=env)
    assert policy.ceiling == Ceiling.of("never_ask", "workspace_write", "denied")
    assert policy.ceiling_source.endswith(":1")


def test_modes_are_ordered_strictest_first_and_keep_their_words() -> None:
    modes = (Mode.READ_ONLY, Mode.ASK_BEFORE_EDIT, Mode.WORKSPACE, Mode.FULL_ACCESS)
    assert [m.rank for m in modes] == [0, 1, 2, 3]
    assert [str(m) for m in modes] == ["read-only", "ask-before-edit", "workspace", "full-access"]
    assert f"mode.{Mode.READ_ONLY}" == "mode.read-only"


def test_a_policy_given_a_mode_as_a_word_still_holds_the_member(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "s")}
    policy = replace(load_policy_text("", cwd=str(tmp_path), env=env), mode="read-only")  # type: ignore[arg-type]
    assert policy.mode is Mode.READ_ONLY
    with pytest.raises(ValueError):
        replace(policy, mode="yolo")  # type: ignore[arg-type]


def test_a_rule_action_gives_its_decision_and_says_whether_it_loosens() -> None:
    plain = [RuleAction.ALLOW, RuleAction.DENY, RuleAction.ASK]
    assert [(a.decision, a.loosens) for a in plain] == [
        (Decision.ALLOW, True),
        (Decision.DENY, False),
        (Decision.ASK, False),
    ]
    assert RuleAction.CLASSIFY.loosens
    with pytest.raises(ValueError, match="unknown decision 'classify'"):
        _ = RuleAction.CLASSIFY.decision


def test_a_classify_rule_outside_shell_is_denied_never_allowed(tmp_path: Path) -> None:
    from bastion.call.model import ToolCall
    from bastion.policy.engine import Gate

    env = {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "s")}
    text = '[[rule]]\ntool = "read"\npattern = "/opt/**"\naction = "classify"\n'
    gate = Gate(load_policy_text(text, cwd=str(tmp_path), env=env))
    evaluation = gate.evaluate(ToolCall("read", {"path": "/opt/x"}, cwd=str(tmp_path), interactive=True))
    assert (evaluation.decision, [r.rule for r in evaluation.reasons]) == (Decision.DENY, ["internal-error"])


def test_a_rule_action_is_parsed_once_when_the_policy_loads(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "BASTION_STATE_DIR": str(tmp_path / "s")}
    text = '[[rule]]\ntool = "shell"\npattern = "make *"\naction = "classify"\n'
    (rule,) = load_policy_text(text, cwd=str(tmp_path), env=env).rules
    assert rule.action is RuleAction.CLASSIFY
