"""Copilot CLI 1.0.102, what its end-to-end tests found: it loads a repository's
``.github/hooks`` only in a trusted folder (``copilot_trust`` says which), and its
``grep``/``glob`` tools search ``paths``, which the translation must decide on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bastion.adapters.hooks.agent_trust import Trust, copilot_trust, project_trust
from bastion.adapters.hooks.decide import LocalDecider, Options
from bastion.adapters.hooks.entry import protocol_for


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


@pytest.mark.parametrize("tool", ["grep", "glob", "rg"])
@pytest.mark.parametrize(
    "args",
    [
        {"pattern": "KEY", "paths": ["HOME/.ssh"]},
        {"pattern": "KEY", "paths": "HOME/.ssh"},
        {"pattern": "KEY", "paths": ["HOME/proj", "HOME/.ssh"]},
        {"pattern": "KEY", "paths": ["HOME/proj"], "path": "HOME/.ssh"},
        {"pattern": "KEY", "paths": ["HOME/proj"], "dir_path": "HOME/.ssh"},
        {"pattern": "KEY", "paths": []},
        {"pattern": "KEY", "paths": ["HOME/proj", 3]},
    ],
)
def test_a_search_over_paths_is_decided_on_every_folder_it_names(
    tmp_path: Path, tool: str, args: dict[str, object]
) -> None:
    """Copilot's grep/glob search ``paths`` (1.0.102's tool schema): ignoring it allowed a
    search of ~/.ssh decided as a search of the project."""
    home = tmp_path / "home"
    (home / "proj").mkdir(parents=True)
    (home / ".ssh").mkdir()
    env = {"HOME": str(home), "BASTION_STATE_DIR": str(tmp_path / "state"), "PATH": "/usr/bin:/bin"}
    text = json.dumps(args).replace("HOME", str(home))
    payload = {"cwd": str(home / "proj"), "toolName": tool, "toolArgs": text}
    protocol = protocol_for("copilot")

    verdict = LocalDecider().decide(protocol.parse(payload, env), protocol, Options(env=env))

    assert verdict.decision == "deny"


@pytest.mark.parametrize("tool", ["grep", "glob", "rg"])
def test_a_search_of_the_project_is_still_allowed(tmp_path: Path, tool: str) -> None:
    home = tmp_path / "home"
    (home / "proj" / "src").mkdir(parents=True)
    env = {"HOME": str(home), "BASTION_STATE_DIR": str(tmp_path / "state"), "PATH": "/usr/bin:/bin"}
    args = json.dumps({"pattern": "x", "paths": [str(home / "proj"), "src"]})
    payload = {"cwd": str(home / "proj"), "toolName": tool, "toolArgs": args}
    protocol = protocol_for("copilot")

    verdict = LocalDecider().decide(protocol.parse(payload, env), protocol, Options(env=env))

    assert verdict.decision == "allow"
