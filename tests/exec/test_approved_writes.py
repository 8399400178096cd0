"""``approved_writes``: what a person's approval opens for writing outside the workspace —
the paths the call named, never the places no approval may open."""

from __future__ import annotations

from pathlib import Path

from bastion.exec.boundary import approved_writes
from tests.conftest import PolicyFactory


def test_a_named_path_is_opened_and_a_new_file_opens_its_folder(
    make_policy: PolicyFactory, tmp_path: Path
) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "old.txt").write_text("x")

    opened = approved_writes(make_policy(), [f"{tmp_path}/out/old.txt", f"{tmp_path}/out/new/deep.txt"])

    assert opened == (f"{tmp_path}/out/old.txt", f"{tmp_path}/out")


def test_root_home_credentials_rc_files_settings_and_repositories_are_never_opened(
    make_policy: PolicyFactory, home: Path, tmp_path: Path
) -> None:
    (home / ".ssh").mkdir(exist_ok=True)
    (home / ".claude").mkdir(exist_ok=True)
    (tmp_path / "w" / ".git").mkdir(parents=True)
    named = [
        "/newfile",
        f"{home}/newfile",
        str(home),
        f"{home}/.bashrc",
        f"{home}/.ssh/id_rsa",
        f"{home}/.claude/settings.json",
        f"{home}/.gitconfig",
        f"{tmp_path}/w/.git/config",
    ]

    assert approved_writes(make_policy(), named) == ()
