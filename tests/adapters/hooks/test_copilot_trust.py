"""Copilot CLI loads a repository's ``.github/hooks`` only in a trusted folder (measured with
the real 1.0.102 in tests/adapters/hooks/test_e2e_copilot.py): ``copilot_trust`` says which."""

from __future__ import annotations

import json
from pathlib import Path

from bastion.adapters.hooks.agent_trust import Trust, copilot_trust, project_trust


def _config(folder: Path, data: object) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(data))


def test_a_folder_is_trusted_inside_a_trusted_folders_entry_and_not_beside_it(tmp_path: Path) -> None:
    project = tmp_path / "work" / "repo"
    project.mkdir(parents=True)
    (tmp_path / "work" / "repo-other").mkdir()
    env = {"HOME": str(tmp_path)}
    copilot_home = tmp_path / ".copilot"

    verdicts = []
    for entries in (
        [],
        [str(tmp_path / "work" / "repo-other")],
        [str(project) + "/"],
        [str(tmp_path / "work")],
    ):
        _config(copilot_home, {"trustedFolders": entries})
        verdicts.append(copilot_trust(str(project), env).trusted)

    assert verdicts == [False, False, True, True]


def test_copilot_home_moves_the_config_and_allow_all_true_trusts_exactly(tmp_path: Path) -> None:
    moved = tmp_path / "elsewhere"
    _config(moved, {"trustedFolders": [str(tmp_path)]})
    env = {"HOME": str(tmp_path / "home")}

    assert copilot_trust(str(tmp_path), {**env, "COPILOT_HOME": str(moved)}).trusted
    assert not copilot_trust(str(tmp_path), env).trusted
    assert copilot_trust(str(tmp_path), {**env, "COPILOT_ALLOW_ALL": "true"}).trusted
    assert not copilot_trust(str(tmp_path), {**env, "COPILOT_ALLOW_ALL": "1"}).trusted  # tools only


def test_an_unreadable_or_odd_config_is_untrusted_with_the_fix(tmp_path: Path) -> None:
    copilot_home = tmp_path / ".copilot"
    copilot_home.mkdir()
    env = {"HOME": str(tmp_path)}
    results = []
    for text in ("{not json", '{"trustedFolders": "/"}', '{"trustedFolders": ["relative", 3]}', "[]"):
        (copilot_home / "config.json").write_text(text)
        results.append(copilot_trust(str(tmp_path), env))

    folder = str(tmp_path.resolve())
    assert (
        results
        == [
            Trust(
                False,
                f"Copilot CLI does not trust {folder} ({copilot_home}/config.json lists no trustedFolders entry "
                f"covering it): it skips {folder}/.github/hooks and runs every call without Bastion",
                f'add "{folder}" to "trustedFolders" in {copilot_home}/config.json, or start `copilot` in '
                f"{folder} and trust the folder; for one headless run, `copilot -p … --trust-folder` or "
                "COPILOT_ALLOW_ALL=true (which also allows every tool)",
            )
        ]
        * 4
    )


def test_a_project_install_for_copilot_reads_that_check(tmp_path: Path) -> None:
    assert project_trust("copilot", str(tmp_path), {"HOME": str(tmp_path)}) == copilot_trust(
        str(tmp_path), {"HOME": str(tmp_path)}
    )
