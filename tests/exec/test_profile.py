"""The profile a decision grants, and which outcomes ``[exec] contain`` rewrites."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bastion.call.effects import Effect
from bastion.exec.profile import (
    Filesystem,
    Profile,
    parse_profile,
    profile_for,
    shell_hosts,
)
from bastion.exec.runner import ExecError
from bastion.policy.contained_code import CONTAINED_CODE, code_profile
from bastion.policy.decision import Decision, Evaluation, Reason
from bastion.runtime.contain import contains

ALLOW = Reason(Decision.ALLOW, "test", "test", "", "allowed")


def _evaluation(*effects: Effect, decision: Decision = Decision.ALLOW) -> Evaluation:
    return Evaluation(decision, (ALLOW,), effects)


def test_a_reader_runs_with_the_whole_file_system_read_only_and_no_network() -> None:
    assert profile_for(_evaluation(Effect.READ)) == Profile(Filesystem.READ_ONLY, ())


def test_a_writer_gets_the_workspace_writable() -> None:
    assert profile_for(_evaluation(Effect.READ, Effect.WRITE)) == Profile(Filesystem.WORKSPACE_WRITE, ())


def test_code_and_unknown_effects_get_the_workspace_not_more() -> None:
    assert profile_for(_evaluation(Effect.CODE)).filesystem is Filesystem.WORKSPACE_WRITE
    assert profile_for(_evaluation(Effect.UNKNOWN)).filesystem is Filesystem.WORKSPACE_WRITE


def _contained_code(*effects: Effect) -> Evaluation:
    reason = Reason(Decision.ALLOW, CONTAINED_CODE, "built-in", "make test", "runs contained")
    return Evaluation(Decision.ALLOW, (reason,), effects)


def test_workspace_code_allowed_only_contained_keeps_its_package_environments_read_only() -> None:
    evaluation = _contained_code(Effect.CODE, Effect.WRITE)
    profile = code_profile(evaluation, profile_for(evaluation))
    assert (profile, profile.writable, profile.packages_readonly) == (
        Profile(Filesystem.WORKSPACE_CODE, ()),
        True,
        True,
    )


def test_workspace_code_that_installs_may_write_its_package_environments() -> None:
    evaluation = _contained_code(Effect.CODE, Effect.INSTALL)
    profile = code_profile(evaluation, profile_for(evaluation))
    assert (profile, profile.packages_readonly) == (Profile(Filesystem.WORKSPACE_WRITE, ()), False)


def test_a_writer_the_tables_know_may_write_its_package_environments() -> None:
    evaluation = _evaluation(Effect.WRITE)
    assert code_profile(evaluation, profile_for(evaluation)).packages_readonly is False


def test_network_is_only_the_hosts_the_decision_saw() -> None:
    profile = profile_for(_evaluation(Effect.NETWORK), ("API.github.com", "api.github.com"))
    assert profile == Profile(Filesystem.READ_ONLY, ("api.github.com",))
    assert profile.to_json() == {"filesystem": "read-only", "network": "hosts", "hosts": ["api.github.com"]}
    assert profile.label == "read-only, network: api.github.com"


def test_hosts_without_a_network_effect_give_no_network() -> None:
    assert profile_for(_evaluation(Effect.READ), ("example.org",)).hosts == ()


def test_a_network_effect_whose_hosts_are_unknown_gets_no_network() -> None:
    assert profile_for(_evaluation(Effect.NETWORK)).hosts == ()


def test_the_hosts_of_a_shell_command_are_its_urls_hosts() -> None:
    assert shell_hosts("curl -s https://Example.org/a && git clone https://github.com/x/y") == (
        "example.org",
        "github.com",
    )


def test_a_profile_round_trips_through_its_command_line_and_json() -> None:
    profile = Profile(Filesystem.WORKSPACE_WRITE, ("a.example", "b.example"))
    assert profile.argv() == ["--profile", "workspace-write", "--host", "a.example", "--host", "b.example"]
    assert Profile.from_json(profile.to_json()) == profile


@pytest.mark.parametrize("bad", ["", "full-access", "READ-ONLY", "workspace"])
def test_an_unknown_profile_name_is_refused(bad: str) -> None:
    with pytest.raises(ExecError, match="unknown sandbox profile"):
        parse_profile(bad)


@pytest.mark.parametrize("host", ["a/b", "user@host", "a b", "", "x\n"])
def test_a_host_that_is_not_a_plain_name_is_refused(host: str) -> None:
    with pytest.raises(ExecError, match="is not a host name"):
        parse_profile("read-only", [host])


@pytest.mark.parametrize(
    ("contain", "decision", "by_person", "expected"),
    [
        ("allowed", Decision.ALLOW, False, True),
        ("allowed", Decision.ALLOW, True, False),
        ("allowed", Decision.ASK, False, False),
        ("all", Decision.ALLOW, False, True),
        ("all", Decision.ALLOW, True, True),
        ("all", Decision.ASK, False, True),
        ("off", Decision.ALLOW, False, False),
        ("off", Decision.ASK, False, False),
    ],
)
def test_contain_chooses_which_outcomes_are_rewritten(
    contain: str, decision: Decision, by_person: bool, expected: bool
) -> None:
    assert contains(contain, decision, by_person=by_person) is expected


@given(st.sampled_from(["allowed", "all", "off"]), st.booleans())
def test_a_denied_call_is_never_contained_it_never_runs(contain: str, by_person: bool) -> None:
    assert contains(contain, Decision.DENY, by_person=by_person) is False


@given(st.sets(st.sampled_from(list(Effect))))
def test_only_effects_that_change_nothing_on_disk_get_a_read_only_file_system(effects: set[Effect]) -> None:
    profile = profile_for(_evaluation(*effects))
    harmless = {Effect.READ, Effect.DB_READ, Effect.NETWORK}
    assert profile.writable is not (effects <= harmless)


def test_a_profile_with_approved_writes_round_trips_and_says_so() -> None:
    profile = Profile(Filesystem.WORKSPACE_WRITE, ("a.example",), ("/srv/out/x",))

    assert profile.argv() == ["--profile", "workspace-write", "--host", "a.example", "--write", "/srv/out/x"]
    assert Profile.from_json(profile.to_json()) == profile
    assert profile.label == "workspace-write, network: a.example, also writes: /srv/out/x"


@pytest.mark.parametrize("path", ["relative/x", "", "/a\nb"])
def test_an_approved_write_that_is_not_an_absolute_path_is_refused(path: str) -> None:
    with pytest.raises(ExecError, match="is not an absolute path"):
        parse_profile("workspace-write", (), [path])


def test_the_exec_tools_hosts_include_where_a_git_remotes_name_leads(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text('[remote "origin"]\n\turl = git@github.com:acme/widget.git\n')
    command = "git push origin main && curl -s https://api.example.com/x"
    assert (shell_hosts(command), shell_hosts(command, str(tmp_path), str(tmp_path / "home"))) == (
        ("api.example.com",),
        ("api.example.com", "github.com:22"),
    )
