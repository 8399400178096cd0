"""Hard links in a mounted root to files the sandbox keeps from the run (#30): the walk finds
them by (device, inode) and hides them (credentials) or binds them read-only (rc files, git
config, agent settings, the policy, a repository's hooks), with nothing to look for when
every kept file has one name."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bastion.exec.linked import Kept, home_kept, kept_below
from bastion.exec.protected import ScanBudgetExceeded, plan_protection


def _key(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_dev, st.st_ino


def _plan(
    workspace: Path, home: Path, *, readonly: tuple[str, ...] = (), budget: int = 100_000
) -> dict[str, set[str]]:
    plan = plan_protection(
        [str(workspace)],
        list(readonly),
        is_credential=lambda p: p.endswith("/.ssh") or p.endswith(".pem"),
        skip=(),
        max_entries=budget,
        home=str(home),
        kept=home_kept(str(home)),
    )
    rel = {"hidden": plan.hidden, "readonly": plan.readonly, "pinned": plan.pinned}
    return {k: {os.path.relpath(p, workspace) for p in v} for k, v in rel.items()}


@pytest.fixture
def linked(home: Path, workspace: Path) -> Path:
    """``notes.txt`` → ``~/.bashrc``, ``data/c`` → ``~/.aws/credentials``, ``cfg`` →
    ``~/.gitconfig``, ``docs/agent.json`` → ``~/.claude/settings.json``."""
    for name, text in {".bashrc": "# rc\n", ".aws/credentials": "[default]\nkey = K\n",
                       ".gitconfig": "[user]\n", ".claude/settings.json": "{}\n"}.items():  # fmt: skip
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_text(text)
    (workspace / "data").mkdir()
    (workspace / "docs").mkdir()
    os.link(home / ".bashrc", workspace / "notes.txt")
    os.link(home / ".aws/credentials", workspace / "data" / "c")
    os.link(home / ".gitconfig", workspace / "cfg")
    os.link(home / ".claude/settings.json", workspace / "docs" / "agent.json")
    return workspace


def test_home_files_with_one_name_leave_nothing_to_look_for(home: Path) -> None:
    (home / ".bashrc").write_text("# rc\n")
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("k")

    assert home_kept(str(home)) == Kept()
    assert not home_kept(str(home))


def test_home_credentials_are_kept_hidden_and_rc_git_agent_files_read_only(home: Path, linked: Path) -> None:
    kept = home_kept(str(home))

    assert kept.hidden == {_key(home / ".aws/credentials")}
    assert kept.readonly == {_key(home / n) for n in (".bashrc", ".gitconfig", ".claude/settings.json")}


def test_any_file_in_a_credential_folder_with_another_name_is_kept_hidden(
    home: Path, workspace: Path
) -> None:
    for name in ("deploy_key", "private-keys-v1.d/ABCD.key", "config"):
        (home / ".ssh" / name).parent.mkdir(parents=True, exist_ok=True)
        (home / ".ssh" / name).write_text("K")
    os.link(home / ".ssh" / "deploy_key", workspace / "a")
    os.link(home / ".ssh" / "private-keys-v1.d" / "ABCD.key", workspace / "b")
    expected = Kept(frozenset({_key(workspace / "a"), _key(workspace / "b")}), frozenset())

    # The read policy's own globs name the folder: no list of folders is needed.
    assert home_kept(str(home)) == expected
    assert home_kept(str(home), folders=[str(home / ".ssh"), str(home / ".aws")]) == expected


def test_a_policy_file_with_another_name_is_kept_read_only(home: Path, tmp_path: Path) -> None:
    policy = tmp_path / "policy.toml"
    policy.write_text("mode = 'workspace-write'\n")
    os.link(policy, tmp_path / "other-name")

    assert home_kept(str(home), [str(policy)]) == Kept(frozenset(), frozenset({_key(policy)}))


def test_links_in_the_workspace_to_home_files_are_hidden_or_bound_read_only(home: Path, linked: Path) -> None:
    found = _plan(linked, home)

    assert found["hidden"] == {"data/c"}
    assert found["readonly"] >= {"notes.txt", "cfg", "docs/agent.json"}
    assert found["readonly"] & {"data/c", "README.md", "src/app.py"} == set()
    assert found["pinned"] == {"docs"}  # as for any read-only path below a writable root


def test_a_link_to_a_repository_s_hook_in_the_workspace_is_bound_read_only(
    home: Path, workspace: Path
) -> None:
    hooks = workspace / ".git" / "hooks"
    hooks.mkdir(parents=True)
    (workspace / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (hooks / "post-checkout").write_text("#!/bin/sh\n")
    (workspace / "scripts").mkdir()
    os.link(hooks / "post-checkout", workspace / "scripts" / "precommit.sh")

    found = _plan(workspace, home)

    assert {"scripts/precommit.sh", ".git/hooks"} <= found["readonly"]
    assert "scripts" in found["pinned"]


def test_a_link_to_a_credential_found_in_the_workspace_is_hidden_too(home: Path, workspace: Path) -> None:
    (workspace / "keys").mkdir()
    (workspace / "keys" / "deploy.pem").write_text("KEY")
    os.link(workspace / "keys" / "deploy.pem", workspace / "notes.md")

    assert _plan(workspace, home)["hidden"] == {"keys/deploy.pem", "notes.md"}


def test_a_link_in_a_read_only_root_to_a_credential_is_hidden(
    home: Path, linked: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    os.link(home / ".aws/credentials", other / "aws.txt")

    plan = plan_protection([], [str(other)], is_credential=lambda p: False, skip=(), max_entries=1000,
                           home=str(home), kept=home_kept(str(home)))  # fmt: skip

    assert plan.hidden == (str(other / "aws.txt"),)


def test_a_symlink_to_a_kept_file_is_not_taken_for_a_hard_link(home: Path, linked: Path) -> None:
    os.symlink(home / ".aws/credentials", linked / "sym")

    assert "sym" not in _plan(linked, home)["hidden"] | _plan(linked, home)["readonly"]


def test_a_same_inode_number_on_another_device_is_no_match(home: Path, linked: Path) -> None:
    st = (home / ".bashrc").stat()
    other_device = Kept(frozenset(), frozenset({(st.st_dev + 1, st.st_ino)}))
    with os.scandir(linked) as listing:
        entry = next(e for e in listing if e.name == "notes.txt")

    assert (other_device.match(entry), home_kept(str(home)).match(entry)) == (None, False)


def test_files_below_a_protected_folder_are_looked_at_within_the_budget(workspace: Path) -> None:
    hooks = workspace / "hooks"
    hooks.mkdir()
    for n in range(5):
        (hooks / f"h{n}").write_text("x")
    os.link(hooks / "h3", workspace / "x")

    assert kept_below([], [str(hooks)], 100) == (Kept(frozenset(), frozenset({_key(hooks / "h3")})), 6)
    assert kept_below([], [str(hooks)], 2)[1] == 3  # stops past the budget: the caller fails closed


def test_a_hidden_folder_too_big_to_look_through_for_links_is_not_run(home: Path, tmp_path: Path) -> None:
    """The walk does not enter a credential folder; what it holds is still looked at for
    other names, within a budget of its own (past it: fails closed)."""
    keys = tmp_path / "mounted" / ".ssh"
    keys.mkdir(parents=True)
    for n in range(30):
        (keys / f"k{n}").write_text("x")

    with pytest.raises(ScanBudgetExceeded):
        plan_protection([], [str(keys)], is_credential=lambda p: p.endswith("/.ssh"), skip=(), max_entries=20)
    assert plan_protection(
        [], [str(keys)], is_credential=lambda p: p.endswith("/.ssh"), skip=(), max_entries=40
    ).hidden == (str(keys),)


@pytest.mark.parametrize(
    "store",
    [".config/fish/fish_variables", ".config/sops/age/keys.txt", ".docker/contexts/meta/5f2a/meta.json"],
)
def test_any_file_the_read_policy_denies_as_a_credential_is_kept_hidden_under_another_name(
    home: Path, workspace: Path, store: str
) -> None:
    (home / store).parent.mkdir(parents=True)
    (home / store).write_text("SECRET\n")
    os.link(home / store, workspace / "notes.txt")

    assert home_kept(str(home)) == Kept(frozenset({_key(home / store)}), frozenset())
    assert _plan(workspace, home)["hidden"] == {"notes.txt"}


def test_a_credential_store_reached_through_a_symlinked_config_folder_is_kept_hidden(
    home: Path, workspace: Path
) -> None:
    (home / "dotfiles" / "config" / "fish").mkdir(parents=True)
    (home / ".config").symlink_to(home / "dotfiles" / "config")
    (home / ".config" / "fish" / "fish_variables").write_text("SETUVAR TOKEN:S\n")
    os.link(home / ".config" / "fish" / "fish_variables", workspace / "vars.txt")

    assert home_kept(str(home)).hidden == {_key(workspace / "vars.txt")}
