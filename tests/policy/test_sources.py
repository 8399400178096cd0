"""``PolicySources``: which files make up the policy, decided in one place."""

from __future__ import annotations

from pathlib import Path

from bastion.policy.sources import PolicySources, find_project_file


def _env(home: Path, tmp_path: Path, **extra: str) -> dict[str, str]:
    return {"HOME": str(home), "BASTION_STATE_DIR": str(tmp_path / "state"), **extra}


def test_an_explicit_file_replaces_every_other_and_no_trust_store_is_watched(
    home: Path, workspace: Path, tmp_path: Path
) -> None:
    (workspace / ".bastion").mkdir()
    (workspace / ".bastion" / "policy.toml").write_text('mode = "read-only"\n')
    explicit = tmp_path / "mine.toml"
    explicit.write_text("")
    sources = PolicySources.find(str(explicit), cwd=str(workspace), env=_env(home, tmp_path))
    assert (sources.files, sources.watched, sources.project, sources.trust_store) == (
        (str(explicit),),
        (str(explicit),),
        None,
        None,
    )


def test_bastion_policy_in_the_environment_is_an_explicit_file(
    home: Path, workspace: Path, tmp_path: Path
) -> None:
    env = _env(home, tmp_path, BASTION_POLICY=str(tmp_path / "env.toml"))
    assert PolicySources.find(None, cwd=str(workspace), env=env).explicit == str(tmp_path / "env.toml")


def test_the_nearest_project_file_in_a_parent_is_found_and_the_cwd_is_watched_for_a_new_one(
    home: Path, workspace: Path, tmp_path: Path
) -> None:
    (workspace / ".bastion").mkdir()
    project = workspace / ".bastion" / "policy.toml"
    project.write_text("")
    sub = workspace / "src"
    sources = PolicySources.find(None, cwd=str(sub), env=_env(home, tmp_path))
    user = str(home / ".config" / "bastion" / "policy.toml")
    assert sources.files == (str(project),)
    assert sources.watched == (
        user,
        str(sub / ".bastion" / "policy.toml"),
        str(project),
        str(tmp_path / "state" / "trusted-policies.json"),
    )


def test_the_fingerprint_changes_when_a_project_file_appears_and_the_digest_when_content_changes(
    home: Path, workspace: Path, tmp_path: Path
) -> None:
    env = _env(home, tmp_path)
    before = PolicySources.find(None, cwd=str(workspace), env=env)
    seen, digest = before.fingerprint(), before.digest()
    (workspace / ".bastion").mkdir()
    project = workspace / ".bastion" / "policy.toml"
    project.write_text('mode = "read-only"\n')
    after = PolicySources.find(None, cwd=str(workspace), env=env)
    assert before.changed_since(seen)
    assert after.digest() != digest
    changed = after.digest()
    project.write_text('mode = "workspace"\n')
    assert PolicySources.find(None, cwd=str(workspace), env=env).digest() != changed


def test_the_nearest_of_several_project_files_wins_and_a_folder_of_that_name_is_none(tmp_path: Path) -> None:
    deep = tmp_path / "a" / "b" / "c"
    deep.mkdir(parents=True)
    for folder in (tmp_path, tmp_path / "a"):
        (folder / ".bastion").mkdir()
        (folder / ".bastion" / "policy.toml").write_text("")
    (tmp_path / "a" / "b" / ".bastion" / "policy.toml").mkdir(parents=True)  # not a file
    assert find_project_file(str(deep)) == str(tmp_path / "a" / ".bastion" / "policy.toml")
    assert find_project_file(str(deep / ".." / "..")) == str(tmp_path / "a" / ".bastion" / "policy.toml")
    assert find_project_file(str(tmp_path)) == str(tmp_path / ".bastion" / "policy.toml")
