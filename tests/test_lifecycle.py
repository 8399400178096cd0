"""One policy lifecycle: ``PolicyWatch`` yields the current gatekeeper; a load that fails in
any way yields one that denies every call with ``policy.invalid`` and records it."""

from __future__ import annotations

from pathlib import Path

import pytest

import bastion.lifecycle
from bastion.call.model import ToolCall
from bastion.construct import POLICY_INVALID, broken
from bastion.errors import PolicyError
from bastion.lifecycle import PolicyWatch
from bastion.policy.decision import Decision


def _rules(watch: PolicyWatch, call: ToolCall) -> tuple[Decision, list[str]]:
    final = watch.current().request_sync(call)
    return final.decision, [r.rule for r in final.reasons]


def _recorded(watch: PolicyWatch) -> list[tuple[str, str]]:
    return [(r.event.decision, r.event.rule) for r in watch.base.ledger.events()]


@pytest.fixture
def policy_file(tmp_path: Path) -> Path:
    path = tmp_path / "policy.toml"
    path.write_text('[[rule]]\ntool = "shell"\npattern = "git status"\naction = "allow"\n')
    return path


def test_a_broken_edit_denies_every_call_with_policy_invalid_until_fixed_and_each_is_recorded(
    policy_file: Path, workspace: Path, env: dict[str, str]
) -> None:
    call = ToolCall("shell", {"command": "git status"}, cwd=str(workspace))
    watch = PolicyWatch(str(policy_file), cwd=str(workspace), env=env)
    try:
        first = _rules(watch, call)
        policy_file.write_text("[[rule]\n")
        denied = _rules(watch, call)
        error = watch.error
        policy_file.write_text('[[rule]]\ntool = "shell"\npattern = "git *"\naction = "allow"\n')
        fixed = _rules(watch, call)
        assert (first, denied, fixed) == (
            (Decision.ALLOW, ["rule[1]"]),
            (Decision.DENY, [POLICY_INVALID]),
            (Decision.ALLOW, ["rule[1]"]),
        )
        assert error is not None and str(policy_file) in error
        assert _recorded(watch) == [("allow", "rule[1]"), ("deny", POLICY_INVALID), ("allow", "rule[1]")]
    finally:
        watch.close()


def test_any_exception_while_loading_is_a_broken_policy_never_an_open_one(
    policy_file: Path, workspace: Path, env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    call = ToolCall("shell", {"command": "git status"}, cwd=str(workspace))
    watch = PolicyWatch(str(policy_file), cwd=str(workspace), env=env)

    def explode(*args: object) -> None:
        raise RuntimeError("the disk is on fire")

    try:
        monkeypatch.setattr(bastion.lifecycle, "load_sources", explode)  # where the watch loads
        policy_file.write_text('[[rule]]\ntool = "shell"\npattern = "git *"\naction = "allow"\n')
        assert _rules(watch, call) == (Decision.DENY, [POLICY_INVALID])
        assert watch.error == "RuntimeError: the disk is on fire"
    finally:
        watch.close()


def test_shadow_mode_never_waives_a_broken_policy(
    policy_file: Path, workspace: Path, env: dict[str, str]
) -> None:
    call = ToolCall("shell", {"command": "git status"}, cwd=str(workspace))
    watch = PolicyWatch(str(policy_file), cwd=str(workspace), env={**env, "BASTION_SHADOW": "1"})
    try:
        policy_file.write_text("[[rule]\n")
        final = watch.current().request_sync(call)
        assert (final.decision, final.reasons[0].rule) == (Decision.DENY, POLICY_INVALID)
    finally:
        watch.close()


def test_a_strict_watch_refuses_to_start_on_a_broken_policy_and_a_lenient_one_starts_broken(
    policy_file: Path, workspace: Path, env: dict[str, str]
) -> None:
    policy_file.write_text("mode = 3\n")
    with pytest.raises(PolicyError, match="mode"):
        PolicyWatch(str(policy_file), cwd=str(workspace), env=env)
    watch = PolicyWatch(str(policy_file), cwd=str(workspace), env=env, strict=False)
    try:
        assert broken(watch.current()) is not None
        call = ToolCall("read", {"path": "README.md"}, cwd=str(workspace))
        assert _rules(watch, call) == (Decision.DENY, [POLICY_INVALID])
    finally:
        watch.close()


def test_a_project_file_that_appears_is_seen_without_an_explicit_file(
    workspace: Path, env: dict[str, str]
) -> None:
    call = ToolCall("write", {"path": "notes.txt"}, cwd=str(workspace))
    watch = PolicyWatch(None, cwd=str(workspace), env=env)
    try:
        before = _rules(watch, call)[0]
        (workspace / ".bastion").mkdir()
        (workspace / ".bastion" / "policy.toml").write_text('mode = "read-only"\n')
        assert (before, _rules(watch, call)[0]) == (Decision.ALLOW, Decision.DENY)
    finally:
        watch.close()


def test_the_one_boot_check_refuses_a_credentials_dir_inside_a_readable_root_at_every_entry(
    workspace: Path, env: dict[str, str], tmp_path: Path
) -> None:
    from bastion.boot import BootRefused, check_boot
    from bastion.configuration import load_policy

    policy_file = tmp_path / "creds.toml"
    policy_file.write_text(f'credentials_dir = "{workspace / "secrets"}"\n')
    with pytest.raises(PolicyError, match="credentials dir"):  # serve, its hooks, mcp proxy
        PolicyWatch(str(policy_file), cwd=str(workspace), env=env)
    with pytest.raises(BootRefused, match="credentials dir"):  # tool, mcp serve, launch
        check_boot(load_policy(str(policy_file), cwd=str(workspace), env=env))
    watch = PolicyWatch(str(policy_file), cwd=str(workspace), env=env, strict=False)
    try:  # as a hook sees it: every call denied with the reason, and recorded
        call = ToolCall("read", {"path": "README.md"}, cwd=str(workspace))
        assert _rules(watch, call) == (Decision.DENY, [POLICY_INVALID])
        assert "credentials dir" in (watch.error or "")
        assert _recorded(watch) == [("deny", POLICY_INVALID)]
    finally:
        watch.close()
