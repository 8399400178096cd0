"""Amending the person's own policy file: only the keys asked for change, comments and the
rest stay; values are checked with what is wrong and how to fix it; the write is atomic."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

import pytest

from bastion.errors import PolicyError
from bastion.policy.amend import (
    ChangeError,
    FileChange,
    GrantedFolder,
    amended_text,
    checked_folders,
    checked_roots,
    parse_mode,
    write_atomically,
)
from bastion.policy.kinds import Mode

MINE = """\
# my own policy: keep this comment
mode = "workspace"  # the everyday tier

[approval]
ttl = "5m"  # five minutes

[[rule]]
tool = "shell"
pattern = "make deploy *"
action = "ask"
"""


def test_setting_the_mode_changes_that_value_and_keeps_every_comment_and_table() -> None:
    text = amended_text(MINE, FileChange(mode=Mode.ASK_BEFORE_EDIT), file="mine.toml")
    assert text == MINE.replace('mode = "workspace"', 'mode = "ask-before-edit"')


def test_new_keys_go_before_the_first_table_and_a_list_of_several_is_one_per_line() -> None:
    change = FileChange(
        workspace=("/srv/a", "/srv/b"),
        trusted_roots=(GrantedFolder("/data"), GrantedFolder("/out", writable=True)),
    )
    text = amended_text(MINE, change, file="mine.toml")
    assert tomllib.loads(text) == {
        **tomllib.loads(MINE),
        "workspace": ["/srv/a", "/srv/b"],
        "trusted_roots": ["/data", {"path": "/out", "rw": True}],
    }
    assert text.startswith("# my own policy: keep this comment\n")
    assert '    "/srv/a",\n    "/srv/b",\n' in text
    assert "# five minutes" in text and "# the everyday tier" in text


def test_an_empty_file_gets_just_the_keys_asked_for() -> None:
    text = amended_text("", FileChange(mode=Mode.READ_ONLY, workspace=("~/proj",)), file="mine.toml")
    assert tomllib.loads(text) == {"mode": "read-only", "workspace": ["~/proj"]}


def test_granted_folders_written_as_tables_of_arrays_are_replaced_whole() -> None:
    text = '[[trusted_roots]]\npath = "/old"\nrw = true\n\n[approval]\nttl = "1m"\n'
    amended = amended_text(text, FileChange(trusted_roots=(GrantedFolder("/new"),)), file="mine.toml")
    assert tomllib.loads(amended) == {"trusted_roots": ["/new"], "approval": {"ttl": "1m"}}


def test_a_seed_form_file_keeps_its_own_workspace_key() -> None:
    seed = 'mode = "workspace"\nworkspace_dirs = ["/home/me/project"]\nallowed_commands = ["rg"]\n'
    amended = amended_text(seed, FileChange(workspace=("/srv/code",)), file="permissions.toml")
    assert tomllib.loads(amended) == {
        "mode": "workspace",
        "workspace_dirs": ["/srv/code"],
        "allowed_commands": ["rg"],
    }


def test_a_file_that_is_not_toml_is_left_for_the_person_to_fix() -> None:
    with pytest.raises(PolicyError) as info:
        amended_text('mode = "workspace\n', FileChange(mode=Mode.READ_ONLY), file="mine.toml")
    assert (info.value.file, "fix the file by hand first" in info.value.detail) == ("mine.toml", True)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "everything",
            "'everything' is not a mode: use one of read-only, ask-before-edit, workspace, full-access",
        ),
        (3, "3 is not a mode: use one of read-only, ask-before-edit, workspace, full-access"),
    ],
)
def test_a_mode_that_does_not_exist_is_refused_with_the_four_that_do(value: object, message: str) -> None:
    with pytest.raises(ChangeError) as info:
        parse_mode(value)
    assert (info.value.key, info.value.detail) == ("mode", message)


def test_every_mode_is_accepted_by_its_name() -> None:
    assert [parse_mode(m.value) for m in Mode] == list(Mode)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("proj", "'proj' is relative: write the whole path (/home/me/project) or start it with ~/"),
        (
            "{home}/nowhere",
            "'{home}/nowhere' is not an existing folder: create it first, or correct the path",
        ),
        (
            "{home}/file.txt",
            "'{home}/file.txt' is not an existing folder: create it first, or correct the path",
        ),
        ("", "each entry must be a non-empty path"),
        (7, "each entry must be a non-empty path"),
        ("/a\x00b", "'/a\\x00b' is not a usable path (a NUL byte, or too long)"),
    ],
)
def test_a_root_must_be_an_existing_folder_written_whole(tmp_path: Path, value: object, message: str) -> None:
    (tmp_path / "file.txt").write_text("x")
    given = value.format(home=tmp_path) if isinstance(value, str) else value
    with pytest.raises(ChangeError) as info:
        checked_roots([given], key="workspace", home=str(tmp_path))
    assert (info.value.key, info.value.detail) == ("workspace", message.format(home=tmp_path))


def test_roots_under_home_may_be_written_with_a_tilde_and_repeats_count_once(tmp_path: Path) -> None:
    (tmp_path / "proj").mkdir()
    roots = checked_roots(["~/proj", "~/proj/", str(tmp_path)], key="workspace", home=str(tmp_path))
    assert roots == ("~/proj", str(tmp_path))


def test_a_list_is_required_and_bounded(tmp_path: Path) -> None:
    with pytest.raises(ChangeError, match="expected a list of folders"):
        checked_roots("/srv", key="workspace", home=str(tmp_path))
    with pytest.raises(ChangeError, match="at most 64 folders"):
        checked_roots([str(tmp_path)] * 65, key="workspace", home=str(tmp_path))


def test_a_folder_granted_both_ways_is_granted_read_write_once(tmp_path: Path) -> None:
    folders = checked_folders([str(tmp_path), {"path": str(tmp_path), "rw": True}, "~"], home=str(tmp_path))
    assert folders == (GrantedFolder(str(tmp_path), writable=True), GrantedFolder("~"))


@pytest.mark.parametrize("entry", [{"path": "/tmp", "rw": "yes"}, {"path": "/tmp", "mode": "rw"}])
def test_a_granted_folder_entry_is_a_path_or_path_and_rw(entry: object, tmp_path: Path) -> None:
    with pytest.raises(ChangeError) as info:
        checked_folders([entry], home=str(tmp_path))
    assert (info.value.key, info.value.detail) == (
        "trusted_roots",
        'an entry is a path or {"path": ..., "rw": true|false}',
    )


def test_the_write_replaces_the_file_whole_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "policy.toml"
    target.write_text("old\n")
    target.chmod(0o640)
    write_atomically(str(target), "new\n")
    assert (target.read_text(), stat.S_IMODE(target.stat().st_mode), os.listdir(tmp_path)) == (
        "new\n",
        0o640,
        ["policy.toml"],
    )


def test_a_new_file_and_its_folder_are_the_persons_alone(tmp_path: Path) -> None:
    target = tmp_path / "config" / "bastion" / "policy.toml"
    write_atomically(str(target), 'mode = "read-only"\n')
    modes = (stat.S_IMODE(target.stat().st_mode), stat.S_IMODE(target.parent.stat().st_mode))
    assert (target.read_text(), modes) == ('mode = "read-only"\n', (0o600, 0o700))


def test_a_failed_write_leaves_the_old_file_and_no_temporary_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "policy.toml"
    target.write_text("old\n")

    def refuse(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="No space left"):
        write_atomically(str(target), "new\n")
    assert (target.read_text(), os.listdir(tmp_path)) == ("old\n", ["policy.toml"])


@pytest.mark.parametrize(
    "name",
    [
        'a"]\nmode = "full-access',  # a folder name that would close the string and add a key
        "b' # comment",
        'c]]\n[[rule]]\ntool = "shell"\naction = "allow"',
        "tab\there\\back",
    ],
)
def test_a_folder_name_can_never_write_a_key_of_its_own(tmp_path: Path, name: str) -> None:
    folder = tmp_path / name
    folder.mkdir()
    roots = checked_folders([str(folder), {"path": str(folder), "rw": True}], home=str(tmp_path))
    text = amended_text(MINE, FileChange(workspace=(str(folder),), trusted_roots=roots), file="mine.toml")
    assert tomllib.loads(text) == {
        **tomllib.loads(MINE),
        "workspace": [str(folder)],
        "trusted_roots": [{"path": str(folder), "rw": True}],
    }


def test_a_symbolic_link_to_the_file_stays_a_link_and_its_target_is_written(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles" / "bastion.toml"
    dotfiles.parent.mkdir()
    dotfiles.write_text("old\n")
    link = tmp_path / "policy.toml"
    link.symlink_to(dotfiles)
    write_atomically(str(link), "new\n")
    assert (link.is_symlink(), dotfiles.read_text(), sorted(os.listdir(dotfiles.parent))) == (
        True,
        "new\n",
        ["bastion.toml"],
    )
