"""A person changes settings: their own file amended, the merged result checked first, the
change recorded with the approver, the policy reloaded, and a project file's restriction
still winning."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from bastion.approval.clock import FakeClock
from bastion.approval.model import Grant, Scope
from bastion.audit.events import EventKind
from bastion.audit.redact import redact
from bastion.call.model import ToolCall
from bastion.errors import PolicyError, StoreError
from bastion.lifecycle import PolicyWatch
from bastion.policy.amend import ChangeError, FileChange
from bastion.policy.decision import Decision
from bastion.policy.kinds import Mode
from bastion.policy_edit import SettingsChange, SettingsEditor, change_from

APPROVER = "key_approver_1"


@pytest.fixture
def watch(workspace: Path, env: dict[str, str]) -> Iterator[PolicyWatch]:
    opened = PolicyWatch(None, cwd=str(workspace), env=env)
    yield opened
    opened.close()


@pytest.fixture
def editor(watch: PolicyWatch) -> SettingsEditor:
    return SettingsEditor(watch, watch.base.ledger, watch.base.store, FakeClock())


def user_file(home: Path) -> Path:
    return home / ".config" / "bastion" / "policy.toml"


def write_call(workspace: Path) -> ToolCall:
    return ToolCall(
        tool="write", args={"path": str(workspace / "notes.txt"), "content": "x"}, cwd=str(workspace)
    )


def decision(watch: PolicyWatch, workspace: Path) -> Decision:
    return watch.keeper.decide(write_call(workspace)).decision


def settings_records(watch: PolicyWatch) -> list[dict[str, object]]:
    records = watch.base.ledger.events()
    return [r.to_json() for r in records if r.event.kind == EventKind.SETTINGS.value]


def test_a_mode_change_is_written_to_the_users_file_recorded_and_decides_the_next_call(
    editor: SettingsEditor, watch: PolicyWatch, workspace: Path, home: Path
) -> None:
    assert decision(watch, workspace) is Decision.ALLOW
    applied = editor.apply(SettingsChange(FileChange(mode=Mode.READ_ONLY)), approver=APPROVER)
    assert applied.to_json() == {"file": str(user_file(home)), "revoked": [], "notes": []}
    assert tomllib.loads(user_file(home).read_text()) == {"mode": "read-only"}
    assert decision(watch, workspace) is Decision.DENY
    editor.apply(SettingsChange(FileChange(mode=Mode.ASK_BEFORE_EDIT)), approver=APPROVER)
    assert decision(watch, workspace) is Decision.ASK
    records = settings_records(watch)
    assert [(r["tool"], r["decision"], r["rule"], r["approver"], r["raw_args"]) for r in records] == [
        ("settings", "applied", "settings.change", APPROVER, {"mode": "read-only"}),
        ("settings", "applied", "settings.change", APPROVER, {"mode": "ask-before-edit"}),
    ]
    # The ledger's redaction runs over the summary too (a long temporary path can look random).
    assert records[0]["summary"] == redact(f"set mode = 'read-only' in {user_file(home)}")


def test_an_untrusted_project_file_keeps_its_restriction_and_the_answer_says_which_file(
    workspace: Path, env: dict[str, str], home: Path
) -> None:
    project = workspace / ".bastion" / "policy.toml"
    project.parent.mkdir()
    project.write_text('mode = "read-only"\n')
    watch = PolicyWatch(None, cwd=str(workspace), env=env)
    try:
        editor = SettingsEditor(watch, watch.base.ledger, watch.base.store, FakeClock())
        applied = editor.apply(SettingsChange(FileChange(mode=Mode.FULL_ACCESS)), approver=APPROVER)
        assert tomllib.loads(user_file(home).read_text()) == {"mode": "full-access"}
        assert project.read_text() == 'mode = "read-only"\n'  # never edited
        assert applied.notes == (
            f"mode 'full-access' is written to {user_file(home)}, but 'read-only' is in force, from "
            f"{project}:1, which applies after it (an untrusted project file may only tighten, and "
            "its restriction wins)",
        )
        assert watch.keeper.policy.mode is Mode.READ_ONLY
        assert decision(watch, workspace) is Decision.DENY
    finally:
        watch.close()


def test_a_change_that_would_put_the_credentials_dir_in_a_root_is_refused_and_nothing_is_written(
    editor: SettingsEditor, watch: PolicyWatch, home: Path
) -> None:
    with pytest.raises(ChangeError) as info:
        editor.apply(change_from({"workspace": [str(home)]}, home=str(home)), approver=APPROVER)
    assert info.value.key == "workspace"
    assert info.value.detail.startswith(
        f"the credentials dir {home}/.bastion/credentials lies inside the readable root {home}"
    )
    assert (user_file(home).exists(), settings_records(watch)) == (False, [])


def test_a_change_to_a_file_that_does_not_load_names_its_line_and_writes_nothing(
    editor: SettingsEditor, watch: PolicyWatch, home: Path
) -> None:
    mine = '# mine\n[exec]\ncontain = "sometimes"\n'
    user_file(home).parent.mkdir(parents=True)
    user_file(home).write_text(mine)
    with pytest.raises(PolicyError) as info:
        editor.apply(SettingsChange(FileChange(mode=Mode.READ_ONLY)), approver=APPROVER)
    assert (info.value.file, info.value.line, info.value.key) == (str(user_file(home)), 3, "exec.contain")
    assert info.value.detail.endswith("(the file does not load as it is: fix it by hand first)")
    assert (user_file(home).read_text(), settings_records(watch)) == (mine, [])


def test_comments_and_other_keys_of_the_persons_file_stay(
    editor: SettingsEditor, home: Path, workspace: Path
) -> None:
    mine = '# my tiers\nmode = "workspace"  # everyday\n\n[approval]\nttl = "2m"  # short\n'
    user_file(home).parent.mkdir(parents=True)
    user_file(home).write_text(mine)
    (home / "data").mkdir()
    editor.apply(
        change_from({"trusted_roots": ["~/data"], "mode": "read-only"}, home=str(home)), approver=APPROVER
    )
    assert user_file(home).read_text() == (
        '# my tiers\nmode = "read-only"  # everyday\ntrusted_roots = ["~/data"]\n\n[approval]\nttl = "2m"  # short\n'
    )
    assert editor.watch.keeper.policy.read_roots == (str(workspace), str(home / "data"))


def test_an_explicit_policy_file_is_the_one_amended(
    workspace: Path, env: dict[str, str], tmp_path: Path, home: Path
) -> None:
    given = tmp_path / "given.toml"
    given.write_text("# given\n")
    watch = PolicyWatch(str(given), cwd=str(workspace), env=env)
    try:
        editor = SettingsEditor(watch, watch.base.ledger, watch.base.store, FakeClock())
        applied = editor.apply(SettingsChange(FileChange(mode=Mode.READ_ONLY)), approver=APPROVER)
        assert (applied.file, given.read_text(), user_file(home).exists()) == (
            str(given),
            '# given\nmode = "read-only"\n',
            False,
        )
    finally:
        watch.close()


def test_a_revoked_grant_is_gone_and_recorded_and_an_unknown_one_is_refused(
    editor: SettingsEditor, watch: PolicyWatch
) -> None:
    grant = Grant("g1", "shell", Scope.PROJECT, "/p", "make deploy", 1.0, pattern="make deploy *")
    watch.base.store.add_grant(grant)
    with pytest.raises(ChangeError) as info:
        editor.apply(SettingsChange(revoke_grants=("g1", "nope")), approver=APPROVER)
    assert (info.value.key, info.value.detail) == (
        "revoke_grants",
        "no active grant nope: reload the page to see the grants",
    )
    assert [g.id for g in watch.base.store.list_grants()] == ["g1"]
    applied = editor.apply(SettingsChange(revoke_grants=("g1",)), approver=APPROVER)
    assert (applied.to_json(), watch.base.store.list_grants()) == (
        {"file": None, "revoked": ["g1"], "notes": []},
        [],
    )
    assert [(r["rule"], r["raw_args"], r["approver"]) for r in settings_records(watch)] == [
        ("settings.revoke_grant", {"grant": "g1"}, APPROVER)
    ]


def test_a_ledger_that_cannot_be_written_refuses_the_change(
    editor: SettingsEditor, watch: PolicyWatch, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def down(event: object) -> object:
        raise StoreError("the ledger is unavailable")

    monkeypatch.setattr(watch.base.ledger, "append", down)
    with pytest.raises(StoreError):
        editor.apply(SettingsChange(FileChange(mode=Mode.READ_ONLY)), approver=APPROVER)
    assert user_file(home).exists() is False
    assert watch.keeper.policy.mode is Mode.WORKSPACE


def test_a_file_that_cannot_be_written_is_recorded_as_not_applied(
    editor: SettingsEditor, watch: PolicyWatch, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(path: str, text: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("bastion.policy_edit.write_atomically", full)
    with pytest.raises(ChangeError) as info:
        editor.apply(SettingsChange(FileChange(mode=Mode.READ_ONLY)), approver=APPROVER)
    assert (
        info.value.detail
        == f"{user_file(home)} could not be written: No space left on device; nothing changed"
    )
    assert [(r["decision"], r["summary"]) for r in settings_records(watch)] == [
        ("applied", redact(f"set mode = 'read-only' in {user_file(home)}")),
        ("not-applied", redact(f"{user_file(home)} could not be written: No space left on device")),
    ]
    assert watch.keeper.policy.mode is Mode.WORKSPACE


@pytest.mark.parametrize(
    ("data", "key", "message"),
    [
        ([], "body", "send a JSON object of settings to change"),
        ({}, "body", "nothing to change: send at least one of mode, workspace, trusted_roots, revoke_grants"),
        (
            {"ceiling": {}},
            "ceiling",
            "not a setting the page can change: use mode, workspace, trusted_roots, revoke_grants",
        ),
        ({"revoke_grants": "g1"}, "revoke_grants", "expected a list of grant ids"),
        ({"revoke_grants": [""]}, "revoke_grants", "expected a list of grant ids"),
        (
            {"mode": "yolo"},
            "mode",
            "'yolo' is not a mode: use one of read-only, ask-before-edit, workspace, full-access",
        ),
        ({"workspace": "/srv"}, "workspace", "expected a list of folders"),
    ],
)
def test_bad_input_says_which_setting_and_how_to_fix_it(
    data: object, key: str, message: str, home: Path
) -> None:
    with pytest.raises(ChangeError) as info:
        change_from(data, home=str(home))
    assert (info.value.key, info.value.detail) == (key, message)


def test_the_ledger_record_holds_the_change_and_chains_like_any_other(
    editor: SettingsEditor, watch: PolicyWatch, home: Path
) -> None:
    (home / "out").mkdir()
    editor.apply(
        change_from({"trusted_roots": [{"path": str(home / "out"), "rw": True}]}, home=str(home)),
        approver=APPROVER,
    )
    (record,) = settings_records(watch)
    assert record["raw_args"] == {"trusted_roots": [{"path": str(home / "out"), "rw": True}]}
    assert json.loads(json.dumps(record))["source"] == str(user_file(home))
    assert watch.base.ledger.verify().ok


def test_a_file_edited_by_hand_while_a_change_is_checked_is_never_overwritten(
    editor: SettingsEditor, watch: PolicyWatch, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bastion.policy_edit as policy_edit

    user_file(home).parent.mkdir(parents=True)
    user_file(home).write_text("# mine\n")
    real = policy_edit.load_sources

    def meanwhile(*args: object, **kwargs: object) -> object:
        user_file(home).write_text('# mine, edited by hand\nmode = "read-only"\n')
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(policy_edit, "load_sources", meanwhile)
    with pytest.raises(ChangeError) as info:
        editor.apply(SettingsChange(FileChange(mode=Mode.FULL_ACCESS)), approver=APPROVER)
    assert info.value.detail == (
        f"{user_file(home)} changed while this change was checked: reload the page and try again"
    )
    assert (user_file(home).read_text(), settings_records(watch)) == (
        '# mine, edited by hand\nmode = "read-only"\n',
        [],
    )
